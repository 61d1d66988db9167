"""Every script-injection vector of fixtures/xss/vectors.txt, through every path that emits HTML.

Each vector sits inside a paragraph of a real article, so the cascade keeps it (a marker word
just before it must reach the output, or the test would prove nothing). The article goes through
``extract`` on the static path, through each cascade stage alone (the Readability.js stage by a
snapshot whose ``readability`` content carries the vector), with the pre-clean rules on and off
(off, the sanitiser is the only defence), straight through ``sanitize_html``, and through the QA
report. The emitted HTML is parsed with lxml and checked against an allowlist of its own; the
Markdown is rendered back to HTML with markdown-it-py, raw HTML and every link scheme allowed (so
only the Markdown itself is judged), and checked the same way.

tests/browser/test_xss_browser.py loads the same outputs into Chromium and proves nothing runs.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from urllib.parse import urljoin, urlsplit

import lxml.etree
import lxml.html
import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from extractor import (
    ALL_RULES,
    STAGES_BY_NAME,
    Extraction,
    ExtractOptions,
    Metadata,
    PageSnapshot,
    ReadabilityResult,
    TraceEntry,
    extract,
    html_to_markdown,
    sanitize_html,
)
from extractor._sanitize import (
    ALLOWED_ATTRIBUTES,
    ALLOWED_TAGS,
    DOCUMENT_CSP,
    sanitize_document,
)
from renderer.qa.compare import (
    PageComparison,
    PageFailure,
    ReadermodeSide,
    ReaderViewSide,
    Scores,
)
from renderer.qa.report import CSP, STYLE, html_report
from tests.conftest import FIXTURES

CORPUS = FIXTURES / "xss" / "vectors.txt"
BASE_URL = "https://news.test/2024/harbour-wall"

# --- the corpus -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Vector:
    """One line of the corpus."""

    id: int
    family: str
    fires: bool
    """The raw vector runs its payload in Chromium (the browser control test holds it to that)."""
    html: str

    @property
    def marker(self) -> str:
        """A word placed just before the vector: its paragraph reached the output if this did."""
        return f"kittiwake{self.id}"


@cache
def load_vectors() -> tuple[Vector, ...]:
    vectors = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        number, family, fires, markup = line.split("\t")
        assert fires in ("fires", "-"), line
        vectors.append(Vector(int(number), family, fires == "fires", markup))
    return tuple(vectors)


PARAGRAPHS = (
    "The harbour wall was rebuilt over the winter by a team of twelve masons, who worked from "
    "first light until the tide came in and forced them back up the slipway.",
    "They used stone from the old quarry above the town, cut by hand and carried down on the "
    "same narrow-gauge railway that served the quarry a century ago.",
    "The council had argued for concrete, which is cheaper and quicker to lay, but the harbour "
    "trust raised the difference in a single summer of fairs, raffles and sponsored swims.",
    "Fishermen say the new wall already breaks the swell better than the old one did, and the "
    "boats moored behind it rode out the February storms without a scratch.",
    "Visitors can walk the length of the wall at low tide; a plaque at the far end lists the "
    "names of the masons and of everyone who gave to the appeal.",
)


def article_body(vector: Vector) -> str:
    """The article's HTML with the vector in its third paragraph (enough text on both sides for
    every stage to keep that paragraph)."""
    middle = (
        f"<p>Halfway through the work a {vector.marker} nested in the scaffolding {vector.html} "
        "and the masons moved their lifting gear to the other end of the wall until the chicks "
        "had fledged.</p>"
    )
    paragraphs = [f"<p>{text}</p>" for text in PARAGRAPHS]
    return "<h1>The harbour wall</h1>" + "".join(paragraphs[:2]) + middle + "".join(paragraphs[2:])


def article_page(vector: Vector) -> str:
    """A whole page: head, navigation, the article, a footer."""
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        "<title>The harbour wall | Harbour News</title></head><body>"
        "<nav><a href='/'>Home</a> <a href='/news'>News</a></nav>"
        f"<main><article>{article_body(vector)}</article></main>"
        "<footer><p>Harbour News, 1 Quay Street</p></footer></body></html>"
    )


def snapshot_with_readability_js(vector: Vector) -> PageSnapshot:
    """What the renderer would hand over had Readability.js returned the vector (and a title
    carrying one: the readability-js stage restores it as a heading)."""
    return PageSnapshot(
        html=article_page(vector),
        url=BASE_URL,
        final_url=BASE_URL,
        readability=ReadabilityResult(
            content=f"<div id='readability-page-1' class='page'>{article_body(vector)}</div>",
            title=f"Harbour {vector.html} wall",
        ),
    )


# --- what emitted HTML may hold -------------------------------------------------------------

SAFE_TAGS = frozenset(
    "a abbr b bdi bdo blockquote br caption cite code col colgroup dd del details dfn div dl dt "
    "em figcaption figure h1 h2 h3 h4 h5 h6 hr i img ins kbd li mark ol p pre q rp rt ruby s samp "
    "small span strong sub summary sup table tbody td tfoot th thead time tr u ul var wbr".split()
)
"""Inert formatting elements: what an article may keep. Written out here, independently of the
sanitiser's own list, so widening that list to anything else fails this test."""
FORBIDDEN_TAGS = frozenset(
    "script iframe frame frameset object embed applet base meta link form input button select "
    "textarea option svg math style template noscript noembed noframes xmp plaintext title "
    "video audio source track picture map area marquee portal fencedframe isindex".split()
)
SAFE_ATTRIBUTES = {
    "*": frozenset({"lang", "dir"}),
    "a": frozenset({"href"}),
    "img": frozenset({"src", "alt", "width", "height"}),
    "td": frozenset({"colspan", "rowspan"}),
    "th": frozenset({"colspan", "rowspan", "scope"}),
    "ol": frozenset({"start", "reversed"}),
    "time": frozenset({"datetime"}),
    "q": frozenset({"cite"}),
    "blockquote": frozenset({"cite"}),
    "code": frozenset({"class"}),
    "pre": frozenset({"class"}),
}
URL_ATTRIBUTES = frozenset(
    "href src srcset action formaction xlink:href poster data background cite longdesc usemap "
    "codebase dynsrc lowsrc ping manifest icon profile classid archive itemtype".split()
)
SAFE_SCHEMES = frozenset({"http", "https", "mailto"})
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*):")
_C0_OR_SPACE = "".join(chr(code) for code in range(0x21))
_TAB_OR_NEWLINE = re.compile(r"[\t\n\r]")


def url_scheme(value: str, base_url: str = BASE_URL) -> str:
    """The scheme a browser would see: WHATWG URL parsing strips leading and trailing C0
    controls and spaces and removes every tab and newline; entities are decoded once more (a
    consumer that decodes twice must not find a scheme either); relative URLs resolve."""
    url = _TAB_OR_NEWLINE.sub("", html.unescape(value).strip(_C0_OR_SPACE))
    match = _SCHEME.match(url)
    if match:
        return match.group(1).lower()
    return urlsplit(urljoin(base_url, url)).scheme.lower()


def _url_values(name: str, value: str) -> Iterator[str]:
    if name in ("srcset", "imagesrcset"):
        yield from (candidate.split()[0] for candidate in value.split(",") if candidate.split())
    else:
        yield value


def parse_output(markup: str) -> lxml.html.HtmlElement:
    """Emitted HTML as a browser would parse it (lxml's HTML parser, which keeps comments)."""
    if re.match(r"\s*<(!doctype|html)", markup, re.IGNORECASE):
        return lxml.html.document_fromstring(markup)
    return lxml.html.document_fromstring(f"<!DOCTYPE html><html><body>{markup}</body></html>")


def attribute_problems(element: lxml.html.HtmlElement, allowed: Iterable[str]) -> list[str]:
    """on* handlers, style, attributes outside ``allowed``, URLs with an unsafe scheme."""
    problems = []
    allowed = frozenset(allowed)
    for raw_name, value in element.attrib.items():
        name = raw_name.lower()
        where = f"<{element.tag} {name}={value!r}>"
        if name.startswith("on"):
            problems.append(f"event handler {where}")
        elif name == "style":
            problems.append(f"style attribute {where}")
        elif name not in allowed:
            problems.append(f"attribute not allowed {where}")
        if name in URL_ATTRIBUTES or name.endswith("href"):
            for url in _url_values(name, value):
                scheme = url_scheme(url)
                if scheme not in SAFE_SCHEMES:
                    problems.append(f"{scheme or 'no'} scheme {where}")
    return problems


def content_problems(
    markup: str,
    *,
    tags: frozenset[str] = SAFE_TAGS,
    attributes: dict[str, frozenset[str]] = SAFE_ATTRIBUTES,
) -> list[str]:
    """Everything in emitted content HTML that is not inert formatting; empty when safe."""
    return tree_problems(parse_output(markup), tags=tags, attributes=attributes)


def tree_problems(
    root: lxml.html.HtmlElement,
    *,
    tags: frozenset[str] = SAFE_TAGS,
    attributes: dict[str, frozenset[str]] = SAFE_ATTRIBUTES,
) -> list[str]:
    """``content_problems`` of a parsed tree."""
    problems = []
    for node in root.iter():
        if not isinstance(node.tag, str):
            kind = "comment" if isinstance(node, lxml.etree._Comment) else "node"
            problems.append(f"{kind}: {lxml.html.tostring(node, encoding='unicode')[:80]}")
            continue
        tag = node.tag.lower()
        if tag in ("html", "body") or (tag == "head" and not len(node)):
            continue  # the parser's own wrappers
        if tag in FORBIDDEN_TAGS or tag not in tags:
            problems.append(f"element <{tag}>")
        allowed = attributes.get("*", frozenset()) | attributes.get(tag, frozenset())
        problems.extend(attribute_problems(node, allowed))
    return problems


MARKDOWN_TAGS = frozenset(
    "p a img em strong code pre h1 h2 h3 h4 h5 h6 ul ol li blockquote hr br table thead tbody "
    "tr th td".split()
)
MARKDOWN_ATTRIBUTES = {
    "*": frozenset(),
    "a": frozenset({"href", "title"}),
    "img": frozenset({"src", "alt", "title"}),
    "code": frozenset({"class"}),
    "ol": frozenset({"start"}),
    "th": frozenset(),
    "td": frozenset(),
}


@cache
def markdown_renderer() -> MarkdownIt:
    """CommonMark with tables, raw HTML passed through and every link accepted: markdown-it's
    own link filter would hide a ``javascript:`` destination our Markdown should never hold."""
    renderer = MarkdownIt("commonmark", {"html": True}).enable("table")
    renderer.validateLink = lambda url: True  # type: ignore[method-assign]
    return renderer


def markdown_as_html(markdown: str) -> str:
    return markdown_renderer().render(markdown)


def _raw_html(tokens: Iterable[Token]) -> Iterator[str]:
    for token in tokens:
        if token.type in ("html_inline", "html_block"):
            yield token.content
        yield from _raw_html(token.children or ())


def markdown_problems(markdown: str) -> list[str]:
    """The Markdown's links and images judged as HTML, and any raw HTML in it at all: our
    Markdown comes from sanitised HTML, so raw HTML anywhere (even where markdown-it would drop
    it, as inside an image's alt text) means page text escaped its escaping."""
    problems = [f"raw HTML {raw!r}" for raw in _raw_html(markdown_renderer().parse(markdown))]
    rendered = markdown_as_html(markdown)
    # th/td would carry style="text-align" only for aligned columns; we write none, so any
    # style attribute is still reported.
    return problems + content_problems(
        rendered, tags=MARKDOWN_TAGS, attributes=MARKDOWN_ATTRIBUTES
    )


# --- the extraction paths -------------------------------------------------------------------

PATHS = (
    "static",
    "static,no-url",
    "readability-js",
    "readability-lxml",
    "scorer",
    "readability-js,no-rules",
    "readability-lxml,no-rules",
    "scorer,no-rules",
)
"""``static``: ``extract`` on page bytes with the default cascade (``no-url``: a file read without
``--url``, so links are not made absolute, which would normalise them). The others: one stage alone,
with every pre-clean rule and refinement on, or with none (the sanitiser alone defends)."""


@cache
def extraction(vector: Vector, path: str) -> Extraction:
    if path.startswith("static"):
        url = None if path.endswith("no-url") else BASE_URL
        return extract(article_page(vector).encode("utf-8"), url=url)
    stage_name, _, rules = path.partition(",")
    options = ExtractOptions(
        stages=(STAGES_BY_NAME[stage_name],),
        rules=frozenset() if rules == "no-rules" else ALL_RULES,
    )
    if stage_name == "readability-js":
        return extract(snapshot_with_readability_js(vector), options=options)
    return extract(article_page(vector), url=BASE_URL, options=options)


VECTORS = load_vectors()
IDS = [f"v{vector.id}-{vector.family}" for vector in VECTORS]


def describe(vector: Vector, problems: list[str]) -> str:
    return f"vector {vector.id} ({vector.family}) {vector.html!r}: " + "; ".join(problems)


# --- the corpus itself ----------------------------------------------------------------------


def test_corpus_is_large_and_well_formed() -> None:
    ids = [vector.id for vector in VECTORS]
    assert len(VECTORS) >= 80
    assert len(set(ids)) == len(ids), "duplicate ids"
    families = {vector.family for vector in VECTORS}
    assert {"script", "handler", "javascript-url", "data-url", "srcdoc", "svg", "mathml"} <= families
    assert {"raw-text", "css", "markdown"} <= families


def test_the_checker_catches_every_class_of_problem() -> None:
    """The checks below are only worth what this checker finds: it must flag raw vectors."""
    unflagged = {v.id for v in VECTORS if not content_problems(f"<p>{v.html}</p>")}
    # Raw, it flags every vector but those aimed at Markdown (inert as HTML), the two that a
    # browser reads as relative URLs (51, 52), and a second <body>, whose attributes lxml drops.
    markdown = {v.id for v in VECTORS if v.family == "markdown"}
    assert unflagged - markdown == {11, 51, 52}
    for markup, expected in [
        ('<a href="jav&#x09;ascript:x()">a</a>', "javascript scheme"),
        ('<a href="&#x01; JAVASCRIPT:x()">a</a>', "javascript scheme"),
        ('<a href="javascript&amp;colon;x()">a</a>', "javascript scheme"),
        ('<img src="https://a.test/i.png" srcset="https://a.test/i.png 1x, data:x 2x">', "data"),
        ("<q cite='vbscript:x'>q</q>", "vbscript scheme"),
        ("<p onclick=x>p</p>", "event handler"),
        ("<p><!-- a comment --></p>", "comment"),
        ("<svg></svg>", "element <svg>"),
    ]:
        assert any(expected in problem for problem in content_problems(markup)), markup


def test_markdown_checker_sees_links_and_raw_html() -> None:
    assert markdown_problems("[x](javascript:alert(1))")
    assert markdown_problems("[x](&#106;avascript:alert(1))")
    assert markdown_problems("<img src=x onerror=alert(1)>")
    assert markdown_problems("[r]\n\n[r]: javascript:alert(1)")
    assert markdown_problems("![<b onclick=x>](https://ok.test/i.png)")  # markdown-it drops it
    assert markdown_problems("[t](https://ok.test/<img\tsrc=x\tonerror=y>)")
    assert not markdown_problems("[x](https://ok.test/a) and ![i](https://ok.test/i.png)")


# --- the sanitiser on its own ---------------------------------------------------------------


def test_sanitiser_allowlist_is_inside_the_safe_set() -> None:
    assert ALLOWED_TAGS <= SAFE_TAGS
    for tag, attributes in ALLOWED_ATTRIBUTES.items():
        assert attributes <= SAFE_ATTRIBUTES[tag], tag


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_sanitiser_on_the_bare_vector(vector: Vector) -> None:
    clean = sanitize_html(vector.html)
    problems = content_problems(clean) + markdown_problems(html_to_markdown(clean))
    assert not problems, describe(vector, problems)
    # Sanitised output is a fixed point: sanitising it again changes nothing (no mutation).
    assert sanitize_html(clean) == clean


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_sanitiser_on_the_whole_page(vector: Vector) -> None:
    problems = content_problems(sanitize_html(article_page(vector)))
    assert not problems, describe(vector, problems)


# --- every extraction path ------------------------------------------------------------------


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_emitted_html_and_markdown_are_inert(vector: Vector, path: str) -> None:
    result = extraction(vector, path)
    assert vector.marker in result.text, f"the vector's paragraph was not kept on path {path}"
    problems = content_problems(result.html)
    assert not problems, f"{path} html: " + describe(vector, problems)
    problems = markdown_problems(result.markdown)
    assert not problems, f"{path} markdown: " + describe(vector, problems)


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_json_output_carries_the_same_sanitised_html(vector: Vector) -> None:
    result = extraction(vector, "static")
    assert result.to_dict()["html"] == result.html
    assert result.to_dict()["markdown"] == result.markdown


_DOCUMENT_HEAD = [
    ("meta", {"charset": "utf-8"}),
    ("meta", {"http-equiv": "Content-Security-Policy", "content": DOCUMENT_CSP}),
    ("meta", {"name": "referrer", "content": "no-referrer"}),
    ("title", {}),
]


def document_problems(document: str) -> list[str]:
    """A sanitised whole document: its head exactly the sanitiser's own (the page's title as
    text), its body held to the content checks."""
    root = parse_output(document)
    head, body = root.find("head"), root.find("body")
    problems = []
    if [(child.tag, dict(child.attrib)) for child in head] != _DOCUMENT_HEAD:
        problems.append(f"head: {lxml.html.tostring(head, encoding='unicode')[:200]}")
    if len(head.find("title")):
        problems.append("elements inside the title")
    if set(root.attrib) - {"lang", "dir"}:
        problems.append(f"<html {dict(root.attrib)}>")
    return problems + tree_problems(body)


def vector_document(vector: Vector) -> str:
    """The viewable copy of a whole captured page (capture bundles), its title carrying the
    vector too."""
    return sanitize_document(article_page(vector).replace("<title>", f"<title>{vector.html}", 1))


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_sanitised_document_is_inert(vector: Vector) -> None:
    document = vector_document(vector)
    problems = document_problems(document)
    assert not problems, describe(vector, problems)
    assert vector.marker in document


# --- the QA report --------------------------------------------------------------------------


def vector_comparison(vector: Vector) -> PageComparison:
    """A comparison whose every page-supplied field carries the vector, HTML unsanitised."""
    body = article_body(vector)
    return PageComparison(
        target=f"javascript:__xss({vector.id})",
        url=f"javascript:__xss({vector.id})",
        final_url=None,
        reader_view=ReaderViewSide(
            found=True,
            title=vector.html,
            byline=vector.html,
            excerpt=vector.html,
            site_name=vector.html,
            lang=vector.html,
            published_time=vector.html,
            readerable=True,
            text="harbour wall",
            html=body,
        ),
        readermode=ReadermodeSide(
            stage=vector.html,
            stage_reason=vector.html,
            text="harbour wall masons",
            html=body.replace("masons", "builders") + f"<div>{vector.html}</div>",
            metadata=Metadata(
                title=vector.html, site_name=vector.html, description=vector.html
            ),
        ),
        scores=Scores(precision=0.5, recall=0.5, f1=0.5),
        trace=(TraceEntry(kind="rule", name=vector.html, outcome="removed", reason=vector.html),),
        warnings=(vector.html,),
    )


@cache
def corpus_report() -> str:
    """One report holding every vector (a summary, a section each, and a failed page)."""
    entries: list[PageComparison | PageFailure] = [vector_comparison(v) for v in VECTORS]
    entries.append(PageFailure(target=VECTORS[0].html, error=VECTORS[1].html))
    return html_report(entries, title=VECTORS[2].html)


REPORT_TAGS = SAFE_TAGS | frozenset(
    "html head body meta title style main header section svg rect text line".split()
)
_REPORT_ATTRIBUTES = frozenset(
    "class id title aria-label aria-labelledby colspan href lang start alt src role".split()
)
_SVG_ATTRIBUTES = frozenset(
    "class xmlns width height viewbox role aria-labelledby x y x1 x2 y1 y2 text-anchor transform "
    "data-bin data-count id".split()
)
_REPORT_METAS = (
    {"charset": "utf-8"},
    {"http-equiv": "Content-Security-Policy", "content": CSP},
    {"name": "referrer", "content": "no-referrer"},
    {"name": "viewport", "content": "width=device-width, initial-scale=1"},
)


def report_problems(report: str) -> list[str]:
    """The whole report page: the content checks, except for the report's own head, its one
    stylesheet, its histogram and its screenshot, each allowed only where the report puts it."""
    root = parse_output(report)
    head = root.find("head")
    metas = [dict(meta.attrib) for meta in root.iter("meta")]
    problems = [f"unexpected <meta {meta}>" for meta in metas if meta not in _REPORT_METAS]
    styles = list(root.iter("style"))
    if len(styles) != 1 or styles[0].text != STYLE or styles[0].getparent() is not head:
        problems.append("a <style> other than the report's own")
    for node in root.iter():
        if not isinstance(node.tag, str):
            problems.append("comment or processing instruction")
            continue
        tag = node.tag.lower()
        in_svg = any(a.tag == "svg" for a in node.iterancestors())
        if tag in ("meta", "title", "style"):
            if node.getparent() is not head and not (tag == "title" and in_svg):
                problems.append(f"<{tag}> outside the head")
            continue
        if tag in ("html", "head", "body"):
            continue
        if tag in ("svg", "rect", "text", "line") or in_svg:
            if tag == "svg" and "hist" not in node.get("class", ""):
                problems.append("an <svg> that is not the histogram")
            if tag not in ("svg", "rect", "text", "line", "title"):
                problems.append(f"<{tag}> inside the histogram")
            problems.extend(attribute_problems(node, _SVG_ATTRIBUTES))
            continue
        if tag not in REPORT_TAGS:
            problems.append(f"element <{tag}>")
        if tag == "img" and not (node.get("src") or "").startswith("data:image/png;base64,"):
            problems.append(f"an image other than the screenshot: {node.get('src')!r}")
        if tag == "img":
            continue  # the screenshot's data: URL is checked just above
        problems.extend(attribute_problems(node, _REPORT_ATTRIBUTES))
    return problems


def test_report_checker_catches_a_page_script() -> None:
    report = corpus_report()
    assert not report_problems(report)
    assert report_problems(report.replace("</main>", "<script>x()</script></main>"))
    assert report_problems(report.replace("</main>", "<p onclick=x>p</p></main>"))
    assert report_problems(report.replace("</main>", "<a href='javascript:x'>a</a></main>"))
    assert report_problems(report.replace("</main>", "<svg><a href='#'>a</a></svg></main>"))


def test_the_report_of_the_whole_corpus_is_inert() -> None:
    report = corpus_report()
    problems = report_problems(report)
    assert not problems, "; ".join(problems[:20])
    # The vectors are in it, as text: every one of them reached the report.
    for vector in VECTORS:
        assert html.escape(vector.html) in report, vector.id


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_report_of_one_vector_is_inert(vector: Vector) -> None:
    problems = report_problems(html_report([vector_comparison(vector)]))
    assert not problems, describe(vector, problems)
