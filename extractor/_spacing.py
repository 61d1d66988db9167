"""Words that ran together where two inline elements touch and the page's style sheet set
them apart: REI's brand over the product's name (``<span>Merrell</span><span>Moab 3
Mid</span>``, read "MerrellMoab 3 Mid"), a product card's "In Stock" over its "Get it by
Friday", a badge beside a name ("Lifetime" after "Part").

A space goes between two touching inline elements where a lower-case letter meets a capital
and each side has two characters or more: a word does not change case in its middle, and a
drop cap (``<span>T</span>he``) is one letter. So it does where a word meets a number that is
all the next element says, or a number meets a word (Lemmy's "tinkerbyte" and its "48"
points, a plan's "$2.50" and "per user"). So it does between an inline element and the
text that runs on from it: a card's button, unwrapped by the sanitiser, leaves its label in
the tail (``<span>Monday — Friday</span>Discover``; on all of wcxb-dev 8 readings up and 11
down, by under 0.01 each, as some ground truths keep such words run together:
"levelBeginner"). Code is never touched (``getValue`` split
across highlighting spans). Links that touch are spaced earlier, letter or digit alike
(``_postprocess.space_adjacent_links``).

It runs on the page's final reading only. Run on every stage's candidate, the block vote read
the changed words differently: IMDb's chart (2907) lost half its F1 for +0.02 to +0.04 on ten
grids.
"""

from __future__ import annotations

import re

from lxml.html import HtmlElement

from ._parse import inner_html, parse_fragment
from ._postprocess import CleanContent, html_to_text

INLINE_TAGS = frozenset({"a", "span", "em", "strong", "b", "i", "small", "dfn", "mark"})
"""The elements whose touching text is spaced."""
_CODE_TAGS = ("pre", "code", "kbd", "samp")


def _case_break(before: str, after: str) -> bool:
    """Whether ``before`` ends a word in lower case and ``after`` starts one with a capital,
    both more than one character long."""
    return (
        before[-1].islower()
        and after[0].isupper()
        and len(before.strip()) > 1
        and len(after.strip()) > 1
    )


_NUMBER = re.compile(r"[\d.,]+%?")


def _number_break(before: str, after: str) -> bool:
    """Whether a word meets a number or a number a word, each side more than one character
    long: a name and its points ("tinkerbyte" "48", Lemmy), a price and its unit ("$2.50"
    "per user")."""
    if len(before.strip()) < 2 or len(after.strip()) < 2:
        return False
    if before[-1].isalpha() and after[0].isdigit():
        return _NUMBER.fullmatch(after.strip()) is not None
    return before[-1].isdigit() and after[0].isalpha()


def _running_on(element: HtmlElement) -> str:
    """The text that runs on from ``element``: its tail, or else the next element's text when
    that is inline too ("" when neither)."""
    if element.tail:
        return element.tail
    following = element.getnext()
    if following is None or following.tag not in INLINE_TAGS:
        return ""
    return following.text_content()


def _touching_words(root: HtmlElement) -> list[HtmlElement]:
    """The inline elements of ``root`` whose text runs into what follows (``_case_break``),
    outside code."""
    found = []
    for element in root.iter(*INLINE_TAGS):
        after = _running_on(element)
        if not after[:1].isalnum():  # first: most elements are followed by a space or nothing
            continue
        before = element.text_content()
        if not (before and (_case_break(before, after) or _number_break(before, after))):
            continue
        if not any(ancestor.tag in _CODE_TAGS for ancestor in element.iterancestors()):
            found.append(element)
    return found


def space_touching_words(content: CleanContent) -> CleanContent:
    """``content`` with a space after each inline element whose text ran into the next's."""
    root = parse_fragment(content.html)
    touching = _touching_words(root)
    if not touching:
        return content
    for element in touching:
        element.tail = " " + (element.tail or "")
    html = inner_html(root)
    return CleanContent(html=html, text=html_to_text(html))
