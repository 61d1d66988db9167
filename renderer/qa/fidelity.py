"""Reader View fidelity: run our in-page Readability.js pass exactly as Firefox Reader View does
and compare it with Mozilla's own expected output for its test pages.

Mozilla's test pages (``test/test-pages/<name>/`` in mozilla/readability) each hold
``source.html``, ``expected.html`` (``Readability.parse().content`` with
``classesToPreserve: ["caption"]``, serialised by JSDOMParser and pretty-printed by js-beautify)
and ``expected-metadata.json``. The source is read as UTF-8 and loaded at
``http://fakehost/test/page.html`` without running page scripts.

``reader_view`` (``reader_tab.py``) loads a source the same way in Chromium (page scripts disabled, every request
other than the page itself refused) and runs Readability.js on a clone of the live document, with
no filtering of ours: that is Firefox Reader View. ``compare_dom`` compares two serialised
Readability outputs the way Readability's test suite does (a walk over element and text nodes in
document order), ``compare_metadata`` compares the metadata fields, and ``text_score`` gives the
word-level precision/recall/F1 of the texts.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from extractor import WordScore, word_score
from renderer.browser.launch import BrowserHandle
from renderer.browser.readability import readability_expression
from renderer.qa.reader_tab import ReaderTab

READABILITY_METADATA_FIELDS = (
    "title", "byline", "excerpt", "siteName", "dir", "lang", "publishedTime",
)  # fmt: skip
"""Readability.js's metadata fields (its result's names, not ``extractor.Metadata``'s): those of
``expected-metadata.json`` compared with Readability's result of the same name."""

READERABLE = "readerable"
"""``expected-metadata.json``'s ``isProbablyReaderable`` verdict (the result's ``readerable``)."""

ALL_FIELDS = (*READABILITY_METADATA_FIELDS, READERABLE)


# --- DOM comparison -------------------------------------------------------------------------

_JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_JS_SPACES = re.compile(f"[{_JS_SPACE}]+")
"""JavaScript's ``\\s`` (which Readability's test uses), not Python's: U+FEFF is a space there,
U+001C..U+001F and U+0085 are not."""

VOID_ELEMENTS = frozenset(
    "area base basefont bgsound br col embed frame hr img input keygen link meta param source "
    "track wbr".split()
)
"""Elements that have no end tag in serialised HTML."""

INLINE_ELEMENTS = frozenset(
    "a abbr area audio b bdi bdo br button canvas cite code data datalist del dfn em embed i "
    "iframe img input ins kbd keygen label map mark math meter noscript object output progress q "
    "ruby s samp select small span strong sub sup svg template textarea time u var video wbr text "
    "acronym big strike tt".split()
)
"""js-beautify's inline elements: the pretty-printer Mozilla's test runs over both outputs
keeps the whitespace at their edges and re-indents (so drops) the whitespace at the edges of
every other element."""


@dataclass
class _Node:
    tag: str | None  # None for a text node
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[_Node] = field(default_factory=list)
    text: str = ""


class _TreeBuilder(HTMLParser):
    """Serialised DOM -> tree, node for node: a serialiser closes every non-void element, so no
    HTML5 tree-construction (re-parenting) is wanted; comments are dropped (Mozilla's test
    removes them too) and adjacent text is merged."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = _Node(tag="#root")
        self.stack = [self.root]

    def _append(self, node: _Node) -> None:
        self.stack[-1].children.append(node)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values: dict[str, str] = {}
        for name, value in attrs:
            values.setdefault(name, value or "")  # the DOM keeps the first of a duplicate
        node = _Node(tag=tag, attrs=values)
        self._append(node)
        if tag not in VOID_ELEMENTS:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID_ELEMENTS and self.stack[-1].tag == tag:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data: str) -> None:
        siblings = self.stack[-1].children
        if siblings and siblings[-1].tag is None:
            siblings[-1].text += data
        else:
            self._append(_Node(tag=None, text=data))


def parse_fragment(html: str) -> _Node:
    """The tree of a serialised fragment, under a synthetic root."""
    builder = _TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder.root


def _is_blank(text: str) -> bool:
    return not _JS_SPACES.sub("", text)


def _normalised_text(parent: _Node, index: int) -> str:
    """A text node's text as the test sees it after pretty-printing: whitespace runs collapsed
    to one space, and none left at an edge that touches a block (non-inline) element."""
    node = parent.children[index]
    text = _JS_SPACES.sub(" ", node.text)
    block_parent = parent.tag not in INLINE_ELEMENTS
    before = parent.children[index - 1] if index > 0 else None
    after = parent.children[index + 1] if index + 1 < len(parent.children) else None
    if (before is None and block_parent) or (before is not None and _is_block(before)):
        text = text.lstrip(" ")
    if (after is None and block_parent) or (after is not None and _is_block(after)):
        text = text.rstrip(" ")
    return text


def _is_block(node: _Node) -> bool:
    return node.tag is not None and node.tag not in INLINE_ELEMENTS


@dataclass(frozen=True)
class _Visit:
    path: str
    node: _Node
    text: str  # normalised text (text nodes only)


def _walk(root: _Node) -> Iterator[_Visit]:
    """Element and non-blank text nodes in document order, each with its XPath-like path."""

    def visit(parent: _Node, prefix: str) -> Iterator[_Visit]:
        counts: dict[str, int] = {}
        for index, child in enumerate(parent.children):
            if child.tag is None:
                if _is_blank(child.text):
                    continue
                key, step = "#text", "text()"
            else:
                key = step = child.tag
            counts[key] = counts.get(key, 0) + 1
            path = f"{prefix}/{step}[{counts[key]}]"
            if child.tag is None:
                yield _Visit(path, child, _normalised_text(parent, index))
            else:
                yield _Visit(path, child, "")
                yield from visit(child, path)

    yield from visit(root, "")


def _describe(visit: _Visit | None) -> str:
    if visit is None:
        return "nothing"
    if visit.node.tag is None:
        return f"text {_clip(visit.text)!r}"
    attrs = "".join(f" {k}={v!r}" for k, v in visit.node.attrs.items())
    return f"<{visit.node.tag}{attrs}>"


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _text_difference(actual: str, expected: str) -> str:
    at = next(
        (i for i, (a, e) in enumerate(zip(actual, expected, strict=False)) if a != e),
        min(len(actual), len(expected)),
    )
    start = max(0, at - 20)
    return (
        f"text differs at character {at}: expected {_clip(expected[start : at + 40])!r}, "
        f"got {_clip(actual[start : at + 40])!r}"
    )


@dataclass(frozen=True)
class DomDiff:
    """Result of ``compare_dom``: ``equal``, else where the trees first differ and how."""

    equal: bool
    path: str | None = None
    """Path of the first differing node, e.g. ``/div[1]/p[3]`` or ``/div[1]/p[3]/text()[1]``
    (in the actual tree; in the expected tree when the actual one has ended)."""
    description: str = ""
    nodes_compared: int = 0


def compare_dom(actual_html: str, expected_html: str) -> DomDiff:
    """Compare two serialised DOMs the way Readability's test suite compares its outputs.

    Both trees are walked in document order over element nodes and text nodes that are not
    whitespace-only. Elements must agree on tag name, attributes (as a dict) and place in the
    tree (their path); text nodes on their text with whitespace runs collapsed (and, as after the
    suite's pretty-printing of both sides, no whitespace at an edge touching a block element).
    The first disagreement is returned with its path; the placement check is stricter than the
    suite's, which would miss a node moved to another depth.
    """
    actual_walk, expected_walk = (
        _walk(parse_fragment(actual_html)),
        _walk(parse_fragment(expected_html)),
    )
    compared = 0
    while True:
        actual, expected = next(actual_walk, None), next(expected_walk, None)
        if actual is None and expected is None:
            return DomDiff(equal=True, nodes_compared=compared)
        if actual is None or expected is None:
            where = (actual or expected).path  # type: ignore[union-attr]
            what = "extra node" if expected is None else "missing node"
            return DomDiff(
                equal=False,
                path=where,
                description=f"{what}: expected {_describe(expected)}, got {_describe(actual)}",
                nodes_compared=compared,
            )
        compared += 1
        a, e = actual.node, expected.node
        if a.tag != e.tag:
            return DomDiff(
                equal=False,
                path=actual.path,
                description=f"expected {_describe(expected)}, got {_describe(actual)}",
                nodes_compared=compared,
            )
        if actual.path != expected.path:
            return DomDiff(
                equal=False,
                path=actual.path,
                description=f"node is at {actual.path}, expected at {expected.path}",
                nodes_compared=compared,
            )
        if a.tag is None:
            if actual.text != expected.text:
                return DomDiff(
                    equal=False,
                    path=actual.path,
                    description=_text_difference(actual.text, expected.text),
                    nodes_compared=compared,
                )
        elif a.attrs != e.attrs:
            names = sorted(set(a.attrs) | set(e.attrs))
            diffs = [
                f"{n}: expected {_clip(e.attrs[n]) if n in e.attrs else None!r}, "
                f"got {_clip(a.attrs[n]) if n in a.attrs else None!r}"
                for n in names
                if a.attrs.get(n) != e.attrs.get(n) or (n in a.attrs) != (n in e.attrs)
            ]
            return DomDiff(
                equal=False,
                path=actual.path,
                description="attributes differ: " + "; ".join(diffs),
                nodes_compared=compared,
            )


# --- metadata and text ----------------------------------------------------------------------


def compare_metadata(result: dict[str, Any], expected_metadata: dict[str, Any]) -> dict[str, bool]:
    """Per field: does the result agree with ``expected-metadata.json``?

    The expected files were written with ``JSON.stringify``, which drops a field whose value was
    ``undefined`` (Readability leaves ``lang`` undefined when no element has one, and ``excerpt``
    when there is no paragraph): a missing field and ``null`` both mean "no value" and agree
    with a result of ``None``/missing. ``readerable`` compares the expected
    ``isProbablyReaderable`` verdict with the result's ``readerable``. A missing result (no
    article) agrees on nothing but ``readerable``.
    """
    agree: dict[str, bool] = {}
    has_article = result.get("content") is not None
    for name in READABILITY_METADATA_FIELDS:
        agree[name] = has_article and result.get(name) == expected_metadata.get(name)
    agree[READERABLE] = result.get("readerable") == expected_metadata.get(READERABLE)
    return agree


class _TextCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def text_of(html: str) -> str:
    """The text content of serialised HTML (every text node, joined by spaces)."""
    collector = _TextCollector()
    collector.feed(html)
    collector.close()
    return " ".join(collector.parts)


def text_score(actual_html: str, expected_html: str) -> WordScore:
    """Word-level precision/recall (``.f1``) of the actual output's text against the expected."""
    return word_score(text_of(actual_html), text_of(expected_html))


# --- one test page --------------------------------------------------------------------------


@dataclass(frozen=True)
class CorpusPage:
    """One of Mozilla's test pages on disk."""

    name: str
    directory: Path

    @property
    def source(self) -> bytes:
        return (self.directory / "source.html").read_bytes()

    @property
    def expected_html(self) -> str:
        return (self.directory / "expected.html").read_text(encoding="utf-8")

    @property
    def expected_metadata(self) -> dict[str, Any]:
        path = self.directory / "expected-metadata.json"
        metadata: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return metadata


def corpus_pages(corpus: Path, only: str | None = None) -> list[CorpusPage]:
    """The test pages under ``corpus`` (folders with a source.html), sorted by name."""
    pages = [
        CorpusPage(name=folder.name, directory=folder)
        for folder in sorted(corpus.iterdir())
        if (folder / "source.html").is_file() and (only is None or folder.name == only)
    ]
    return pages


@dataclass(frozen=True)
class PageFidelity:
    """How one test page's Reader View output compares with Mozilla's expected output."""

    name: str
    dom: DomDiff
    f1: float
    precision: float
    recall: float
    metadata: dict[str, bool]
    ms: float
    error: str | None = None
    actual: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def exact(self) -> bool:
        return self.dom.equal

    @property
    def metadata_disagreements(self) -> list[str]:
        return [name for name, ok in self.metadata.items() if not ok]

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "exact_dom": self.dom.equal,
            "first_difference": self.dom.path,
            "difference": self.dom.description,
            "f1": round(self.f1, 6),
            "precision": round(self.precision, 6),
            "recall": round(self.recall, 6),
            "metadata": self.metadata,
            "ms": round(self.ms, 1),
            "error": self.error,
            "actual_metadata": {
                name: self.actual.get("readerable" if name == READERABLE else name)
                for name in ALL_FIELDS
            },
        }


async def check_page(
    tab: ReaderTab, page: CorpusPage, *, budget: float = 15.0, keep_comments: bool = False
) -> PageFidelity:
    """Run Reader View on one test page in ``tab`` and compare everything with the expected
    files."""
    started = time.perf_counter()
    error = None
    try:
        result = await tab.read(page.source, budget=budget, keep_comments=keep_comments)
    except Exception as exc:  # noqa: BLE001 - one broken page must not end the whole run
        result, error = {}, f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    ms = (time.perf_counter() - started) * 1000
    error = error or result.get("error")
    expected_html = page.expected_html
    content = result.get("content")
    if content is None:
        dom = DomDiff(equal=False, path="/", description=error or "Readability.js found no article")
        score = WordScore(precision=0.0, recall=0.0)
    else:
        dom = compare_dom(content, expected_html)
        score = text_score(content, expected_html)
    return PageFidelity(
        name=page.name,
        dom=dom,
        f1=score.f1,
        precision=score.precision,
        recall=score.recall,
        metadata=compare_metadata(result, page.expected_metadata),
        ms=ms,
        error=error,
        actual=result,
    )


async def check_corpus(
    handle: BrowserHandle,
    pages: list[CorpusPage],
    *,
    jobs: int = 2,
    budget: float = 15.0,
    keep_comments: bool = False,
) -> list[PageFidelity]:
    """Every page through one browser, in ``jobs`` reused tabs; results in page order."""
    readability_expression()  # ReadabilityUnavailable now, not once per page
    queue: asyncio.Queue[int] = asyncio.Queue()
    for index in range(len(pages)):
        queue.put_nowait(index)
    results: list[PageFidelity | None] = [None] * len(pages)

    async def work() -> None:
        async with ReaderTab(handle) as tab:
            while not queue.empty():
                index = queue.get_nowait()
                results[index] = await check_page(
                    tab, pages[index], budget=budget, keep_comments=keep_comments
                )

    await asyncio.gather(*(work() for _ in range(max(1, min(jobs, len(pages))))))
    return [result for result in results if result is not None]


@dataclass(frozen=True)
class Summary:
    """Corpus-level counts of a fidelity run."""

    pages: int
    exact_dom: int
    f1_ge_099: int
    metadata: dict[str, int]
    median_ms: float

    def pins(self) -> dict[str, Any]:
        """The counts ``tests/browser/fidelity_pins.json`` pins."""
        return {
            "pages": self.pages,
            "exact_dom": self.exact_dom,
            "f1_ge_099": self.f1_ge_099,
            "metadata": dict(self.metadata),
        }


def summarise(results: list[PageFidelity]) -> Summary:
    times = sorted(r.ms for r in results)
    median = 0.0
    if times:
        mid = len(times) // 2
        median = times[mid] if len(times) % 2 else (times[mid - 1] + times[mid]) / 2
    return Summary(
        pages=len(results),
        exact_dom=sum(r.exact for r in results),
        f1_ge_099=sum(r.f1 >= 0.99 for r in results),
        metadata={name: sum(r.metadata.get(name, False) for r in results) for name in ALL_FIELDS},
        median_ms=median,
    )
