"""Screen-reader labels and the shown text they stand for.

A page names some text twice: once for the eye, hidden from screen readers
(``aria-hidden="true"``), and once for the ear, hidden from the eye (``sr-only``,
``visually-hidden``). The ``hidden`` rule removes the first and ``a11y-labels`` the second,
which together lose the word: WP Recipe Maker writes a time as
``30<span class="sr-only"> minutes</span></span> <span aria-hidden="true">mins</span>`` and
the reading said "Prep Time 30". Where the two sit side by side, the shown one stays; so does
a separator hidden from screen readers (a price range's dash), which no label replaces.
"""

from __future__ import annotations

import re

from lxml.html import HtmlElement

A11Y_LABEL = re.compile(
    r"(^|[\s_-])(visually-?hidden|sr-only|screen-?reader(-text|-only)?|a11y-hidden)($|[\s_-])",
    re.IGNORECASE,
)
"""The class names of text only screen readers read."""

SHOWN_TWIN_MAX_WORDS = 3
"""A shown twin is a unit or an abbreviation ("mins", "kcal", "Qty"): longer text hidden from
screen readers is a decorative duplicate of something else (a card's second headline)."""


SEPARATOR_MAX_CHARS = 3
"""A separator is a dash, a slash or a dot between two words or prices."""
_NO_WORD = re.compile(r"\W+")


def is_shown_twin_or_separator(element: HtmlElement) -> bool:
    """Whether ``element``, hidden from screen readers (``aria-hidden``), is text a reader of
    the page needs: short text shown right after the screen-reader label that speaks for it
    (the label ends the element before it), or a separator between inline text
    (WooCommerce's price range "£19.00 <span aria-hidden>–</span> £34.00"). An inline style
    may hide it from the eye too: then it is neither."""
    if element.get("style"):
        return False
    text = element.text_content() or ""
    words = text.split()
    if not words or len(words) > SHOWN_TWIN_MAX_WORDS:
        return False
    stripped = text.strip()
    if len(stripped) <= SEPARATOR_MAX_CHARS and _NO_WORD.fullmatch(stripped) and not len(element):
        return True
    before = element.getprevious()
    if before is None or not isinstance(before.tag, str):
        return False
    last = before
    while len(last) and isinstance(last[-1].tag, str):
        last = last[-1]
    return bool(A11Y_LABEL.search(last.get("class", "")))
