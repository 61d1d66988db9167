"""Where the renderer's hidden marks are not believed, and the page is read as served.

The rendered snapshot marks what a reader did not see (``data-readermode-hidden``: display,
visibility, zero-size, offscreen, overlay), and the ``hidden`` rule removes it. Two kinds of
page hide their content on purpose, and there the layout marks are dropped (the overlay marks
stay: a dialog over the page is never its content), so the rendered page keeps what its served
markup shows, as the static path does (it sees no style sheet):

- A product page keeps its description, specifications and reviews in tabs, accordions and
  "view details" dialogs that are display:none until clicked, and its gallery's captions in
  carousel slides moved offscreen: there the ``display`` and ``offscreen`` marks go.
- A page whose scripts never revealed it: an anti-flicker snippet that hides ``<main>`` until
  an A/B-testing script answers, a "loading" state whose content waits for a script that
  failed, a collapsed grid. When the layout marks hide ``UNREVEALED_SHARE`` of the body's text
  or more, that is not what a reader of the page sees but a page that did not finish: they all
  go.

Each change is one ``hidden`` entry in the trace (outcome ``changed``) with the count.
"""

from __future__ import annotations

import re
from dataclasses import replace

from lxml.html import HtmlElement

from ._pagetype import PageType
from ._rules import HIDDEN_MARK, marked_by_renderer
from ._types import PageSnapshot, TraceEntry

STYLE_HIDDEN_IS_CONTENT = frozenset({"product"})
"""Types whose style sheets hide their content: the ``STYLE_HIDDEN_MARKS`` are dropped there."""

STYLE_HIDDEN_MARKS: tuple[str, ...] = ("display", "offscreen")
"""The marks dropped on those pages: display:none tabs and dialogs, and a gallery carousel's
slides moved offscreen (0619, a product page whose gallery carries a buyer's caption the
ground truth keeps: rendered 0.21 -> 0.91 F1; of the 117 product pages rendered offline no
other moved, nor the 20 pages of other types the static path types product)."""

LAYOUT_MARKS = ("display", "visibility", "zero-size", "offscreen")
"""The marks of what layout hid (the renderer's others: ``overlay``, the feed mark)."""

UNREVEALED_SHARE = 0.5
"""A body whose layout marks hide this share of its words or more was not revealed. On 210
rendered wcxb-dev pages (30 of each type, rendered offline) 8 were over it; read as served,
0242 went 0.46 -> 0.98 and 2923 0.33 -> 0.92 F1, 0546 lost 0.004, the rest did not move. Under
it, 0619 (0.47 hidden) would gain and 2972 (0.46) lose 0.28: the share cannot tell them apart."""

_NOT_SHOWN = "ancestor::script or ancestor::style or ancestor::template or ancestor::noscript"


def _marked(marks: tuple[str, ...]) -> str:
    return " or ".join(f'@{HIDDEN_MARK}="{mark}"' for mark in marks)


def _words(element: HtmlElement) -> int:
    return sum(len(text.split()) for text in element.xpath(f".//text()[not({_NOT_SHOWN})]"))


def hidden_share(document: HtmlElement, marks: tuple[str, ...] = LAYOUT_MARKS) -> float:
    """The share of the body's words (scripts and styles aside) that the ``hidden`` rule would
    remove for one of ``marks`` (``marked_by_renderer``: a visibility mark undone below does
    not hide its subtree)."""
    body = document.find("body")
    total = _words(body) if body is not None else 0
    if not total:
        return 0.0
    hiding = [
        element
        for element in document.xpath(f"//body//*[{_marked(marks)}][not({_NOT_SHOWN})]")
        if marked_by_renderer(element)
    ]
    outermost = set(hiding)
    hidden = sum(
        _words(element)
        for element in hiding
        if not any(ancestor in outermost for ancestor in element.iterancestors())
    )
    return hidden / total


def unhide(
    page_type: PageType, snapshot: PageSnapshot, document: HtmlElement
) -> tuple[PageSnapshot, TraceEntry | None]:
    """``document`` (in place) and the snapshot (for the stages that parse it again) without
    the marks that are not believed on this page, and the trace's note; else both as they
    are."""
    if f" {HIDDEN_MARK}=" not in snapshot.html:  # a static page, or nothing hidden
        return snapshot, None
    share = hidden_share(document)
    marks: tuple[str, ...]
    if share >= UNREVEALED_SHARE:
        marks = LAYOUT_MARKS
        why = (
            f"{share:.0%} of the page's text was hidden by its layout: a page its scripts "
            "never revealed, read as served"
        )
    elif page_type.kind in STYLE_HIDDEN_IS_CONTENT:
        marks = STYLE_HIDDEN_MARKS
        why = (
            f"{page_type.kind} page: what its style sheets hide is read as content (tabs, "
            "accordions, detail dialogs, carousel slides)"
        )
    else:
        return snapshot, None
    marked = document.xpath(f"//*[{_marked(marks)}]")
    for element in marked:
        del element.attrib[HIDDEN_MARK]
    entry = TraceEntry(kind="rule", name="hidden", outcome="changed", reason=why, count=len(marked))
    pattern = re.compile(f' {HIDDEN_MARK}="(?:{"|".join(marks)})"')
    return replace(snapshot, html=pattern.sub("", snapshot.html)), entry
