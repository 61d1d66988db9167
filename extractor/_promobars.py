"""Site-wide promotion bars: "Free standard shipping on orders $40+" above every page.

Shops and SaaS sites put a bar of offers over their header, often a carousel with a slide
per market ("Free standard shipping on orders $60 CAD+", "Livraison gratuite $60 CAD+"...),
which the style sheet shows one at a time. It is the site's, not the page's. A bar is one
when its class or id names it so (``announcement-bar``, ``promo-bar``) and it holds at most
``MAX_WORDS``; the rule (``_rules``) keeps one inside the page's ``<article>`` or ``<main>``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from lxml.html import HtmlElement

from ._text import count_words

MAX_WORDS = 200
"""A bar with more words is a section of the page that borrowed the name."""

_PROMO_BAR = re.compile(r"announcement-?bar|promo(?:tion)?-?bar")


def select_promo_bars(
    labelled: Iterable[tuple[HtmlElement, str]], all_labels: str
) -> list[HtmlElement]:
    """The promotion bars among ``labelled`` (each element with its lower-cased class and id,
    ``all_labels`` all of them joined, for a substring search that most pages fail)."""
    if "announcement" not in all_labels and "promo" not in all_labels:
        return []
    found: list[HtmlElement] = []
    for element, label in labelled:
        if not _PROMO_BAR.search(label.replace("_", "-")):
            continue
        if count_words(element.text_content()) <= MAX_WORDS:
            found.append(element)
    return found
