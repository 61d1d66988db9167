"""What the site's own print style leaves out: elements whose class says "not when printed"
(MediaWiki's ``noprint``, Bootstrap's ``d-print-none``, Tailwind's ``print:hidden``). A site
marks this way what is not part of the document: its edit links, navigation boxes, share
buttons and "From Wikipedia, the free encyclopedia"."""

from __future__ import annotations

import re
from collections.abc import Iterable

from lxml.html import HtmlElement

UNPRINTED = "what the site's print style leaves out (noprint, d-print-none, edit links)"
"""The rule family's description."""
_UNPRINTED = re.compile(
    r"(?:^|\s)(?:noprint|no-print|d-print-none|hidden-print|print-hidden|print:hidden"
    r"|mw-editsection)(?:$|\s)"
)


def select_unprinted(
    labelled: Iterable[tuple[HtmlElement, str, str]], labels: str
) -> list[HtmlElement]:
    """The elements of ``labelled`` (element, label, lower-cased label) marked unprinted;
    ``labels``, every lower-cased label, says first whether any can be."""
    if "print" not in labels and "editsection" not in labels:
        return []
    return [element for element, _, lowered in labelled if _UNPRINTED.search(lowered)]
