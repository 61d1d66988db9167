"""readability-lxml's ``transform_misused_divs_into_paragraphs``, with a ``<div>``'s phrasing
content kept whole.

readability-lxml 0.9 turns a ``<div>`` with no block inside into a ``<p>``; in a ``<div>``
that holds blocks, it wraps the text before the first child, each child's tail and each run
of inline children in a ``<p>`` of its own. A sentence whose words run past an inline element
after a block is cut in two there: in Javadoc's ``<div class="block">Resizable-array
implementation of the <tt>List</tt> interface. ...<p>...</div>`` every ``<tt>`` stood on a
line of its own, and "with <b>fewer weeds</b> where..." after a paragraph became two
paragraphs. Here, as Readability.js does ("put phrasing content into paragraphs"), the text,
the inline children and their tails between two blocks (or ``<br>``s) are one ``<p>``.

The test of which ``<div>`` holds a block is upstream's, without its cost: it serialised
every child of every ``<div>`` and searched the markup for a block's start tag (a tenth of the
stage's time). Here the tags are read from the tree: a tag the start-tag pattern would find is
one that begins with a block's name (``<p`` finds ``<param>`` and ``<picture>`` too, so does
this), and the only markup not escaped in serialisation, a comment's or processing
instruction's and a raw-text element's (a ``<script>``), is still searched as upstream does
(tests/unit pins the equivalence).
"""

from __future__ import annotations

from collections.abc import Iterable

from lxml.html import HtmlElement, tostring
from readability.readability import REGEXES

BLOCK_PREFIXES = ("blockquote", "dl", "div", "img", "ol", "p", "pre", "table", "ul")
"""The names in readability-lxml's ``divToPElementsRe`` (``<(blockquote|dl|div|...)``): an
element whose tag begins with one is a block to it."""

RAW_TEXT_TAGS = frozenset({"script", "style", "xmp", "noscript", "noembed", "noframes", "iframe"})
"""Elements whose text the HTML serialiser writes unescaped (a ``<textarea>``'s is escaped)."""

PHRASING_TAGS = frozenset(
    {
        *("a", "b", "cite", "code", "em", "font", "i", "small", "span", "strong", "sub", "sup"),
        *("u", "tt", "var", "kbd", "samp", "abbr", "acronym", "mark", "q", "s", "strike"),
        *("del", "ins", "dfn", "time", "label", "bdi", "bdo", "big", "data", "nobr"),
    }
)
"""Inline elements that join the text around them in one paragraph: upstream's list, with the
phrasing elements it lacks (Javadoc's ``<tt>``, ``<var>``, ``<kbd>``, ``<abbr>`` ...)."""


def holds_block(elements: Iterable[HtmlElement]) -> bool:
    """Whether upstream's start-tag search finds a block in the markup of ``elements``."""
    for top in elements:
        for element in top.iter():
            tag = element.tag
            if isinstance(tag, str):
                if tag.startswith(BLOCK_PREFIXES):
                    return True
                if tag in RAW_TEXT_TAGS and REGEXES["divToPElementsRe"].search(element.text or ""):
                    return True  # serialised unescaped: a script's "<div>" is markup to it
            elif REGEXES["divToPElementsRe"].search(tostring(element, with_tail=False).decode()):
                return True  # a comment or processing instruction that spells a start tag
    return False


def transform_misused_divs(root: HtmlElement) -> None:
    """Upstream's two passes over ``root``'s ``<div>``s, in document order: a ``<div>`` with
    no block inside becomes a ``<p>``; every other one has its phrasing content wrapped in
    paragraphs (``wrap_phrasing``)."""
    for div in root.findall(".//div"):
        if not holds_block(div):
            div.tag = "p"
    for div in root.findall(".//div"):
        wrap_phrasing(div)


def _is_phrasing(element: HtmlElement) -> bool:
    return element.tag in PHRASING_TAGS and not holds_block([element])


def wrap_phrasing(div: HtmlElement) -> None:
    """Wrap each run of ``div``'s text, inline children and tails between its blocks in one
    ``<p>``; a ``<br>`` ends a run and goes, as upstream's does. White space outside a run
    stays where it was."""
    items: list[HtmlElement] = []
    paragraph: HtmlElement | None = None
    spare: str | None = None  # white space before the first item
    leading, div.text = div.text, None

    def add_text(text: str | None) -> None:
        nonlocal paragraph, spare
        if not text:
            return
        if paragraph is None:
            if not text.strip():
                if items:
                    items[-1].tail = (items[-1].tail or "") + text
                else:
                    spare = (spare or "") + text
                return
            paragraph = div.makeelement("p", {})
            items.append(paragraph)
        if len(paragraph):
            paragraph[-1].tail = (paragraph[-1].tail or "") + text
        else:
            paragraph.text = (paragraph.text or "") + text

    add_text(leading)
    for child in list(div):
        tail, child.tail = child.tail, None
        div.remove(child)
        if child.tag == "br":
            paragraph = None
        elif _is_phrasing(child):
            if paragraph is None:
                paragraph = div.makeelement("p", {})
                items.append(paragraph)
            paragraph.append(child)
        else:
            paragraph = None
            items.append(child)
        add_text(tail)
    div.text = spare
    div.extend(items)
