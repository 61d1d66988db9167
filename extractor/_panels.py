"""Collapsed panels opened where the page type keeps them.

An FAQ's answers, a plan's details and a specification's sections sit in accordion panels
hidden as served (the ``hidden`` attribute, an inline ``display:none``, ``aria-hidden``) until
their button is clicked. On the types whose panels the ``collapsed`` rule spares
(``KEEP_COLLAPSED_ON``) the rules keep them, but the stages drop hidden elements by rules of
their own: readability-lxml removes ``[hidden]`` and ``display:none``, trafilatura
``display:none`` and ``aria-hidden``. Opened here, as the renderer's ``expand`` opens them by a
click, every reading sees them.
"""

from __future__ import annotations

import re

from lxml.html import HtmlElement

from ._rules import HIDDEN_MARK, is_hidden
from ._toggled import collapsed_panel_ids
from ._types import TraceEntry

_HIDING_DECLARATION = re.compile(
    r"(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!\s*important\s*)?;?", re.IGNORECASE
)


def open_collapsed_panels(root: HtmlElement, ids: set[str] | None = None) -> TraceEntry | None:
    """Show (in place) every collapsed accordion panel of ``root`` hidden by its markup (or
    those of ``ids``); the trace's note, or None when there was none. What the renderer saw
    hidden stays hidden: it clicked the buttons, and a panel still hidden after that is not
    this page's content."""
    ids = collapsed_panel_ids(root) if ids is None else ids
    if not ids:
        return None
    opened = 0
    for element in root.iter():
        if element.get("id") in ids and element.get(HIDDEN_MARK) is None and is_hidden(element):
            _show(element)
            opened += 1
    if not opened:
        return None
    return TraceEntry(
        kind="rule",
        name="collapsed",
        outcome="changed",
        reason="collapsed accordion panels opened: their content is a click away",
        count=opened,
    )


def _show(element: HtmlElement) -> None:
    for name in ("hidden", "aria-hidden"):
        element.attrib.pop(name, None)
    style = element.get("style")
    if style is not None:
        element.set("style", _HIDING_DECLARATION.sub("", style).strip())
