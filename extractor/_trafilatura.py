"""trafilatura as a judge: its reading of the page, as a stage the combination runs.

trafilatura (Barbaresi, well kept, the strongest peer on the multi-type benchmark) reads
documentation, product and listing pages better than readability-lxml's one-container model,
and it reads them differently from ours, which is what makes combining worth it
(``_combine``). It is imported only when a page's type calls for it: the import costs more
than most pages' extraction.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import lxml.etree
import lxml.html

from ._cascade import Candidate, Skip, StageInput
from ._forms import unwrap_text_forms
from ._noscript import reveal_noscript_page
from ._panels import open_collapsed_panels
from ._parse import parse_html
from ._refine import refine
from ._rules import (
    FEED_MARK,
    HIDDEN_MARK,
    WEBFLOW_HIDDEN,
    WEBFLOW_PREFIXES,
    apply_rules,
    marked_by_renderer,
)
from ._stages import READABILITY_LXML_MAX_DEPTH, nesting
from ._toggled import answer_panel_ids

TRAFILATURA_MAX_ELEMENTS = 60_000
"""Above this many elements trafilatura is not asked: its pruning is quadratic on some
shapes, and our own stages have already read the page."""


INLINE_PRE = re.compile(r"(?<=[^>\s])(\s?)<pre>([^<\n]*)</pre>")
"""trafilatura writes inline code as ``<pre>`` mid-sentence; parsed, that would end the
paragraph there. One line after text on the same line is inline code."""


JUDGE_RULES = frozenset(
    {
        "executable",
        "consent",
        "browser-notices",
        "reviews",
        "shelves",
        "signups",
        "placeholders",
        "promo-bars",
        "forms",
        "doc-controls",
    }
)
"""The pre-clean rules trafilatura's page goes through (when the caller left them on). It
prunes chrome, comments and inline-hidden blocks itself, by rules of its own that read a
product's tabs and reviews and a documentation page's navigation better than ours (measured
on wcxb-dev, product pages: 0.622 F1 with "executable" alone, 0.615 with "comments" too,
0.614 with "comments" and "a11y-labels", 0.591 with every rule). Cookie banners it keeps:
with "consent" too, all 1,497 pages 0.8559 -> 0.8563. Customer reviews it keeps: on product
pages, which take trafilatura's blocks, the 119 product pages' summed F1 was 75.17 with the
"reviews" rule on our page alone and 76.59 with it on trafilatura's page too. Shelves of
other products ("Similar items") it keeps too: the "shelves" rule on its page moved the
product pages 0.6438 -> 0.6551 mean F1 (three eBay listings, +0.40 to +0.55 each). A
newsletter's sign-up box it keeps when its form goes: with "signups" on our page alone, all
1,497 pages had 360 ``without`` snippets present, with it on its page too 357 (F1 the same,
0.8688). Template filler ("Lorem ipsum dolor sit amet") it keeps: S&P's rankings page read
its theme's unfilled cards through trafilatura's blocks until its page lost them too.
Promotion bars it keeps: Glossier's carousel of shipping offers, one per market, came back
through its blocks; with "promo-bars" on our page alone all 1,497 pages read 0.8749, on its
page too 0.8760. A contact or quote form's labels it keeps too ("forms" on its page: 0.8761,
three pages up, none down; "facets" and "signatures" there too: 0.8756, a forum's and a
collection's own text went). A manual's version badge and rustdoc's "Expand description" it
keeps too, and the union of the two readings on documentation brought them back."""


_HIDDEN_BY_ATTRIBUTE = lxml.etree.XPath(
    "//*[@hidden][not(self::html or self::body)][not(@role='tabpanel')]"
    "[translate(@hidden, 'UNTILFOD', 'untilfod') != 'until-found']"
)
"""Elements the ``hidden`` attribute hides (the browser's own style sheet says
``display: none``), which trafilatura reads: eBay's hidden "Loading details" dialog reads
"Oops! Looks like we're having trouble connecting to our server." A tab's panel stays, as in
``is_hidden``, and so do the collapsed panels the cascade opens. On the 119 wcxb-dev product
pages, which take trafilatura's blocks, mean F1 0.6666 -> 0.6696 without them in its page
(7 pages up, 2 down by at most 0.011). The whole hidden rule on its page cost all pages
0.8740 -> 0.8708 (31 pages down, 4020 -0.94), and modal dialogs too cost Brooklinen its size
guide, which the ground truth holds."""


_HIDDEN_BY_WEBFLOW = lxml.etree.XPath(
    "//*[" + " or ".join(f"contains(@class, '{prefix}')" for prefix in WEBFLOW_PREFIXES) + "]"
)
"""Candidates for ``WEBFLOW_HIDDEN``'s classes (checked word by word), which every Webflow
style sheet hides and trafilatura reads: a form's "Thank you! Your submission has been
received!"."""


def _drop_webflow_hidden(document: lxml.html.HtmlElement) -> None:
    for hidden in _HIDDEN_BY_WEBFLOW(document):
        classes = hidden.get("class", "").lower().split()
        if hidden.getparent() is not None and not WEBFLOW_HIDDEN.isdisjoint(classes):
            hidden.drop_tree()


# Case-sensitive: ten times cheaper on the whole markup (0.1 ms a page at the median of 150
# wcxb-dev pages), and inline styles are written in lower case.
_NONE_IMPORTANT = re.compile(r"display\s*:\s*none\s*!\s*important")
_IMPORTANT_STYLE = lxml.etree.XPath("//*[contains(@style, 'important')]")
"""Candidates for an inline ``display: none !important``: no style sheet rule can show such
an element (an inline ``!important`` beats them all), only a script rewriting its style, and
the scripts that open tabs and panels toggle a class or a plain inline style. Bazaarvoice's
SEO SDK writes its debug list this way on every product page that carries it ("bvseo_sdk,
dw_cartridge", "SEO SDK is disabled"), and trafilatura, which keeps inline-hidden product
tabs, read it. On wcxb-dev 107 pages carry such a style; the rule changed two readings,
both up (4780, 4781)."""


def _drop_hidden_for_good(document: lxml.html.HtmlElement) -> None:
    for element in _IMPORTANT_STYLE(document):
        if element.getparent() is not None and _NONE_IMPORTANT.search(
            element.get("style", "").lower()
        ):
            element.drop_tree()


JUDGE_FURNITURE = frozenset({"bylines", "captions"})
"""Refinements applied to trafilatura's page before it reads it (when the caller left them
on); the others run on its reading, as on every stage's."""


def judge_document(html: str, rules: frozenset[str]) -> lxml.html.HtmlElement:
    """The page for trafilatura: our own parse of ``html`` (so its text is decoded and cleaned
    as every stage's is), less ``JUDGE_RULES`` and, unless the caller keeps ``hidden``, what
    the ``hidden`` attribute, a Webflow style sheet or an inline ``display: none !important``
    hides (but the collapsed panels the cascade opens) and every element the renderer saw
    hidden or marked as an endless feed: what the hidden rule keeps from the cascade must not
    come back through the judge."""
    document = parse_html(html)
    reveal_noscript_page(document)  # as the cascade does: a page served inside <noscript>
    apply_rules(document, rules & JUDGE_RULES, html)
    unwrap_text_forms(document)  # as the cascade's page: old Reddit's posts sit in forms
    _space_row_cells(document)
    # the panels the cascade keeps, opened for the judge too
    open_collapsed_panels(document, answer_panel_ids(document) if "collapsed" in rules else None)
    if "hidden" in rules:
        for hidden in _HIDDEN_BY_ATTRIBUTE(document):
            hidden.drop_tree()
        if any(prefix in html for prefix in WEBFLOW_PREFIXES):  # its XPath: 0.9 ms a page
            _drop_webflow_hidden(document)
        if _NONE_IMPORTANT.search(html):  # a scan of the markup first: 107 of 1,497 have one
            _drop_hidden_for_good(document)
    if "hidden" not in rules or (HIDDEN_MARK not in html and FEED_MARK not in html):
        # a static page, or a render that marked nothing: a walk over every element (1.4 ms
        # at the median of 150 wcxb-dev pages, every tenth) would find nothing to drop
        return document
    for element in list(document.iter()):
        if element.getparent() is not None and marked_by_renderer(element):
            element.drop_tree()
    return document


ROW_CELLS_MAX = 4
ROW_CELL_MAX_WORDS = 12
_ROW_CELL_TAGS = frozenset({"div", "p"})


def _space_row_cells(document: lxml.html.HtmlElement) -> None:
    """A list item made of a few short blocks (a specification's label and value, each a
    ``<div>``) as one line with spaces: trafilatura runs an item's blocks together ("Battery
    Life30 hours") and strips the white space between them, so they become spans that end in
    a space. Items holding anything longer or nested (a forum post in an ``<li>``) are left."""
    for item in document.iter("li"):
        cells = list(item)
        if not 2 <= len(cells) <= ROW_CELLS_MAX or (item.text or "").strip():
            continue
        if all(_is_row_cell(cell) for cell in cells):
            for cell in cells[:-1]:
                cell.tag = "span"
                if len(cell):  # the space after the cell's last inline child
                    cell[-1].tail = (cell[-1].tail or "") + " "
                else:
                    cell.text = (cell.text or "") + " "


def _is_row_cell(cell: lxml.html.HtmlElement) -> bool:
    if cell.tag not in _ROW_CELL_TAGS or (cell.tail or "").strip():
        return False
    if any(child.tag not in ("span", "a", "strong", "b", "em", "i", "small") for child in cell):
        return False
    return 0 < len(cell.text_content().split()) <= ROW_CELL_MAX_WORDS


def _stoplist_hashed_once() -> None:
    """justext's ``define_stoplist`` is an lru_cache keyed on the stoplist itself, and
    trafilatura hands it the union of every language's stoplist as a tuple, hashed again on
    every page (4 ms of trafilatura's 6 on a small page). The same words as a frozenset,
    which keeps its hash: the same reading, without the cost."""
    from trafilatura import external

    if not isinstance(external.JT_STOPLIST, frozenset):
        external.JT_STOPLIST = frozenset(external.JT_STOPLIST or external.jt_stoplist_init())  # type: ignore[assignment]


class TrafilaturaStage:
    """trafilatura's main-content extraction of the page as served (or as rendered), as HTML
    with its headings, lists, tables, links and formatting."""

    name = "trafilatura"

    def __init__(self, *, comments: bool = False) -> None:
        self.comments = comments
        """Whether trafilatura keeps what it takes for comments (a forum's replies)."""

    def __call__(self, page: StageInput) -> Candidate | Skip:
        elements = sum(1 for _ in page.document.iter())
        if elements > TRAFILATURA_MAX_ELEMENTS:
            return Skip(f"page has {elements:,} elements (over {TRAFILATURA_MAX_ELEMENTS:,})")
        depth, _ = nesting(page.document, READABILITY_LXML_MAX_DEPTH)
        if depth > READABILITY_LXML_MAX_DEPTH:
            return Skip(f"page is nested deeper than {READABILITY_LXML_MAX_DEPTH} levels")
        _stoplist_hashed_once()
        document = judge_document(page.snapshot.html, page.rules)
        # Bylines and captions are found by the page's class names, which trafilatura's
        # output no longer has: they are taken out of its page, not out of its reading.
        refine(document, page.refine_context, page.rules & JUDGE_FURNITURE)
        html = _reading_as_html(document, page.base_url, comments=self.comments)
        if not html or not html.strip():
            return Skip("trafilatura found no main content")
        document = lxml.html.document_fromstring(INLINE_PRE.sub(r"\1<code>\2</code>", html))
        body = document.find("body")
        if body is None:
            return Skip("trafilatura's output has no body")
        body.tag = "div"
        return Candidate(body, note="trafilatura's extraction")


def _reading_as_html(
    document: lxml.html.HtmlElement, url: str | None, *, comments: bool
) -> str | None:
    """trafilatura's reading of ``document`` as HTML, what it took for comments after the rest.

    Its HTML output leaves out the comments it extracted (only its text formats append them),
    and it routes a thread's replies into the body only where the page's JSON-LD says
    DiscussionForumPosting, which our page for it no longer carries (its scripts are gone).
    So on a forum, where the replies are the content, the two bodies are joined here. On
    wcxb-dev a Vanilla thread read 0.68 -> 0.99 (0559); the forums as a whole 0.815 -> 0.808,
    since some ground truths keep the opening post alone (4316, 24 replies left out)."""
    import trafilatura  # here, not at the top: see the module's docstring
    from trafilatura.htmlprocessing import convert_to_html

    if not comments:
        html = _read(trafilatura.extract, document, url, comments=False)
        return html if isinstance(html, str) else None
    result = _read(trafilatura.bare_extraction, document, url, comments=True)
    if result is None or isinstance(result, dict) or result.body is None:
        return None
    body = result.body
    if result.commentsbody is not None:
        body.extend(list(result.commentsbody))
    return lxml.etree.tostring(convert_to_html(body), encoding="unicode")


def _read(extraction: Callable[..., Any], document: lxml.html.HtmlElement, url: str | None, *,
          comments: bool) -> Any:  # fmt: skip
    """``extraction`` (trafilatura's ``extract`` or ``bare_extraction``) with the judge's
    options: HTML with its links, formatting and tables."""
    return extraction(
        document,
        url=url,
        output_format="html",
        include_links=True,
        include_formatting=True,
        include_tables=True,
        include_comments=comments,
    )
