"""The extractor's entry points: bytes, text or a snapshot in, an ``Extraction`` out."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import TypeAlias

import lxml.html
from lxml.html import HtmlElement

from ._agreement import WIDER_ON, cross_check
from ._buybox import read_spec_tables
from ._cascade import CascadeResult, Stage, StageInput, read_ahead, run_cascade
from ._codelang import page_hints, restore_code_languages
from ._combine import combine, fallback
from ._comments import read_comments, rules_before_comments
from ._counters import POST_COUNTERS, drop_counters
from ._decode import check_size, decode_html
from ._emptiness import judge_emptiness
from ._errors import ContentTooShortError, EmptyInputError, NoContentError, ReadermodeError
from ._filters import filter_content
from ._forms import unwrap_text_forms
from ._furniture import normalise_title, rewords
from ._markdown import html_to_markdown
from ._metadata import TitleSources, read_metadata, read_title, read_title_sources
from ._noscript import reveal_noscript_page
from ._options import CROSS_CHECK, NO_CONTENT, ExtractOptions
from ._pagetype import PageType, detect_page_type
from ._panels import open_collapsed_panels
from ._parse import parse_html
from ._postprocess import (
    CleanContent,
    html_to_text,
    resolve_base_url,
    without_trailing_headings,
)
from ._productfacts import ProductFacts, complete_product, read_product_facts
from ._quotes import REPEATED_QUOTES, drop_repeated_quotes
from ._refine import RefineContext, article_boundary
from ._repeats import DISTANT_REPEATS, REPEATED_BLOCKS, drop_distant_repeats, drop_repeated_blocks
from ._rules import apply_rules
from ._spacing import space_touching_words
from ._stages import DEFAULT_STAGES, READ_AHEAD_STAGES
from ._text import count_words
from ._title import title_from_page
from ._toggled import answer_panel_ids
from ._typed import KEEP_AUTHORS_ON, page_type_entry, typed_rules, typed_stages
from ._types import (
    Comments,
    Extraction,
    Metadata,
    PageSnapshot,
    TraceEntry,
    with_metadata_source,
    with_text,
)
from ._unhide import unhide

Source: TypeAlias = PageSnapshot | bytes | str | HtmlElement


def snapshot_from_bytes(
    data: bytes,
    *,
    url: str | None = None,
    declared_encoding: str | None = None,
    max_bytes: int | None = None,
    status: int | None = None,
) -> PageSnapshot:
    """The static path: decode raw page bytes into a snapshot with no Readability.js result."""
    limit = max_bytes if max_bytes is not None else ExtractOptions().max_bytes
    decoded = decode_html(data, declared_encoding=declared_encoding, max_bytes=limit)
    return PageSnapshot(html=decoded.text, url=url, final_url=url, status=status)


def _as_snapshot(source: Source, url: str | None, options: ExtractOptions) -> PageSnapshot:
    if isinstance(source, PageSnapshot):
        check_size(source.html.encode("utf-8", "surrogatepass"), options.max_bytes)
        return source
    if isinstance(source, bytes | bytearray | memoryview):
        return snapshot_from_bytes(bytes(source), url=url, max_bytes=options.max_bytes)
    if isinstance(source, str):
        check_size(source.encode("utf-8", "surrogatepass"), options.max_bytes)
        return PageSnapshot(html=source, url=url, final_url=url)
    if isinstance(source, HtmlElement):
        # Serialise rather than keep a reference: the caller's tree is never touched.
        return PageSnapshot(
            html=lxml.html.tostring(source, encoding="unicode"), url=url, final_url=url
        )
    raise TypeError(f"cannot extract from {type(source).__name__}")


def extract(
    source: Source,
    *,
    url: str | None = None,
    options: ExtractOptions | None = None,
    prepared: PreparedExtraction | None = None,
) -> Extraction:
    """Extract the main content of a page.

    ``source`` is raw bytes (charset detected), text, an lxml tree (left untouched) or a
    ``PageSnapshot`` from the renderer. ``url`` resolves relative links when the source does
    not carry one. ``prepared``: this snapshot's extraction read ahead
    (``prepare_extraction``), finished instead of read again; ignored when it was read from
    another page or with other options. Raises only ``ReadermodeError`` subclasses for bad
    input or empty pages.
    """
    options = options or ExtractOptions()
    snapshot = _as_snapshot(source, url, options)
    if snapshot.source_html is not None:
        return _prefer_served_document(snapshot, options)
    if prepared is not None and prepared.fits(snapshot, options):
        return _finish(prepared._reading, snapshot, options)
    return _extract_snapshot(snapshot, options)


SERVED_DOCUMENT_MIN_GAIN = 1.5
"""A render that stopped before DOMContentLoaded loses to the served document read statically
when that gives at least this many times its words: a stalled parser cuts the article short
(two benchmark pages stalled offline scored F1 0.003 and 0.002 rendered, against 1.0 and 0.97
static), while scripts that did run may have added to a page only a little longer as served.
Chosen, not tuned: of the three benchmark pages that stalled offline, the served reading had
573 words against 0, 993 against 13, and 524 against 524 (the render kept), so any value from
1.01 to 76 picks the same side for each."""


def _prefer_served_document(snapshot: PageSnapshot, options: ExtractOptions) -> Extraction:
    """The render's extraction, or the served document's when that reads far more: a render
    that stopped before DOMContentLoaded, or one whose served document keeps its page in
    ``<noscript>`` (which a browser running scripts never shows: an app that did not start
    leaves the render empty)."""
    rendered: Extraction | None = None
    if snapshot.html:  # empty: the browser side failed, only the served document is left
        try:
            rendered = _extract_snapshot(replace(snapshot, source_html=None), options)
        except (NoContentError, ContentTooShortError):
            pass
    served_snapshot = PageSnapshot(
        html=snapshot.source_html or "",
        url=snapshot.url,
        final_url=snapshot.final_url,
        status=snapshot.status,
        warnings=snapshot.warnings,
    )
    try:
        served = _extract_snapshot(served_snapshot, options)
    except (NoContentError, ContentTooShortError, EmptyInputError):
        if rendered is None:
            raise
        return rendered
    rendered_words = count_words(rendered.text) if rendered is not None else 0
    served_words = count_words(served.text)
    if rendered is not None and served_words < SERVED_DOCUMENT_MIN_GAIN * rendered_words:
        return rendered
    entry = TraceEntry(
        kind="stage",
        name="served-document",
        outcome="accepted",
        reason=(
            f"its served document read statically gave {served_words} words, the render "
            f"{rendered_words}"
            if rendered is not None
            else f"the browser side failed: its served document read statically gave "
            f"{served_words} words"
        ),
        words=served_words,
    )
    return served.revised(trace=(*served.trace, entry))


@dataclass(frozen=True, eq=False)
class _Reading:
    """A snapshot read up to its stages: everything the extraction reads before it needs
    Readability.js's result (which only the stages and the page's titles use)."""

    snapshot: PageSnapshot
    """The snapshot read, its hidden marks as ``unhide`` left them."""
    page: StageInput
    """What the stages see, without Readability.js's result and title yet."""
    page_type: PageType
    code_hints: dict[str, str]
    trace: list[TraceEntry]
    comments: Comments | None
    stages: tuple[Stage, ...]
    title_sources: TitleSources
    """The page's own title sources, read before the cleaning changed its parse."""
    product: ProductFacts | None = None
    """On a product page, its JSON-LD product's description and specifications (read before
    the rules removed the page's scripts)."""


@dataclass(frozen=True, eq=False)
class PreparedExtraction:
    """A rendered snapshot's extraction read ahead, as far as it goes without Readability.js's
    result (``prepare_extraction``): the parse, the page's type, the rules and the stages that
    read the document alone. ``extract(snapshot, prepared=...)`` finishes it once the result
    is there, for the snapshot with the same HTML, URLs and options only."""

    html: str
    url: str | None
    final_url: str | None
    options: ExtractOptions
    _reading: _Reading

    def fits(self, snapshot: PageSnapshot, options: ExtractOptions) -> bool:
        """Whether this was read ahead from ``snapshot``'s page with ``options``."""
        return (
            snapshot.source_html is None
            and (snapshot.html is self.html or snapshot.html == self.html)
            and (snapshot.url, snapshot.final_url) == (self.url, self.final_url)
            and options == self.options
        )


def prepare_extraction(
    snapshot: PageSnapshot, *, options: ExtractOptions | None = None
) -> PreparedExtraction | None:
    """``snapshot``'s extraction read ahead while its Readability.js result is still on its way
    (the renderer runs both at once); None where nothing can be read ahead: a snapshot with its
    served document to compare, or one whose reading raised (``extract`` raises it then)."""
    options = options or ExtractOptions()
    if snapshot.source_html is not None:
        return None
    try:
        checked = _as_snapshot(snapshot, None, options)
        reading = _read_up_to_stages(checked, options, ahead=True)
    except ReadermodeError:
        return None
    return PreparedExtraction(snapshot.html, snapshot.url, snapshot.final_url, options, reading)


def _extract_snapshot(snapshot: PageSnapshot, options: ExtractOptions) -> Extraction:
    return _finish(_read_up_to_stages(snapshot, options), snapshot, options)


def _read_up_to_stages(
    snapshot: PageSnapshot, options: ExtractOptions, *, ahead: bool = False
) -> _Reading:
    """Parse, type, unhide and clean the page; ``ahead``: also run the stages that read the
    document alone (``read_ahead``), as Readability.js's result is not there yet."""
    document = parse_html(snapshot.html)
    base_url = resolve_base_url(document, snapshot.base_url)
    title_sources = read_title_sources(document, snapshot.base_url)
    titles = page_titles(title_sources)

    code_hints = page_hints(document)
    page_type = detect_page_type(document, snapshot.final_url or snapshot.url)
    product = read_product_facts(document) if page_type.kind == "product" else None
    # Our own parse, changed in place from here on: no copy, as all that is read from the
    # untouched page (metadata, base URL, code languages) was read above.
    cleaned = document
    trace: list[TraceEntry] = [page_type_entry(page_type)]
    snapshot, unhidden = unhide(page_type, snapshot, cleaned)
    if unhidden is not None:
        trace.append(unhidden)
    if (revealed := reveal_noscript_page(cleaned)) is not None:
        trace.append(revealed)
    comments: Comments | None = None
    rules = typed_rules(page_type, options.rules)
    if options.include_comments:
        section_trace, section = read_comments(cleaned, rules=rules, base_url=base_url)
        trace.extend(section_trace)
        rules = rules_before_comments(rules)[1]
        comments = _comments_output(section, options) if section is not None else None
    trace.extend(apply_rules(cleaned, rules, snapshot.html))
    unwrap_text_forms(cleaned)
    # Where the collapsed rule runs, the answers it spares (an FAQ's) are opened alone.
    answers = answer_panel_ids(cleaned) if "collapsed" in rules else None
    if (opened := open_collapsed_panels(cleaned, answers)) is not None:
        trace.append(opened)
    if page_type.kind == "product" and (tables := read_spec_tables(cleaned)):
        # read once the rules have taken the reviews and the shelves, whose tables are theirs
        product = replace(product or ProductFacts(), tables=tables)
    stages = (
        options.stages if options.stages is not None else typed_stages(page_type, DEFAULT_STAGES)
    )
    page = StageInput(
        snapshot=snapshot,
        document=cleaned,
        base_url=base_url,
        refine_context=RefineContext(
            boundary=article_boundary(cleaned),
            titles=titles,
            keep_authors=page_type.kind in KEEP_AUTHORS_ON,
        ),
        rules=typed_rules(page_type, options.rules),  # the refinements the type allows
    )
    if ahead:
        stages = read_ahead(stages, page, READ_AHEAD_STAGES)
    return _Reading(
        snapshot, page, page_type, code_hints, trace, comments, stages, title_sources, product
    )


def _finish(reading: _Reading, snapshot: PageSnapshot, options: ExtractOptions) -> Extraction:
    """The stages, with Readability.js's result and title from ``snapshot``, and the output."""
    read = reading.page
    context = read.refine_context
    page = replace(
        read,
        # the snapshot as given (its result, warnings), with the marks ``unhide`` left
        snapshot=replace(snapshot, html=reading.snapshot.html),
        refine_context=replace(context, titles=context.titles | readability_title(snapshot)),
    )
    page_type, code_hints, trace = reading.page_type, reading.code_hints, reading.trace
    comments = reading.comments
    result = _read(page, reading.stages, page_type, options)
    if reading.product is not None and options.stages is None:
        result = complete_product(result, reading.product)

    content = without_trailing_headings(result.content)
    html = restore_code_languages(content.html, code_hints)
    text = content.text
    if not (options.links and options.tables and options.images):
        html = filter_content(
            html, links=options.links, tables=options.tables, images=options.images
        )
        text = html_to_text(html)
    warnings = snapshot.warnings
    if NO_CONTENT in options.rules and (
        empty := judge_emptiness(read.document, result.content.text)
    ):
        if empty.certain:
            raise NoContentError(empty.message())
        warnings = (*warnings, empty.message())
    if options.min_length:
        found = count_words(text)
        if found < options.min_length:
            raise ContentTooShortError(found, options.min_length)

    extraction = Extraction(
        url=snapshot.final_url or snapshot.url,
        html=html,
        # markdown left out: converted when first read (most callers never read it).
        stage=result.stage,
        trace=(*trace, *result.trace),
        warnings=warnings,
        comments=comments,
        page_type=page_type.kind,
        page_type_evidence=page_type.evidence,
    )
    extraction = with_text(extraction, text)  # read already: no second reading of the html
    return with_metadata_source(
        extraction,
        partial(_page_metadata, snapshot, reading.product),
        title=partial(read_title, reading.title_sources, snapshot),
    )


FINAL_REFINEMENTS: tuple[
    tuple[str, Callable[[CleanContent], tuple[CleanContent, TraceEntry | None]]], ...
] = (
    (POST_COUNTERS, drop_counters),
    (REPEATED_QUOTES, drop_repeated_quotes),
    (DISTANT_REPEATS, drop_distant_repeats),
    (REPEATED_BLOCKS, drop_repeated_blocks),
)
"""The refinements of the page's final reading, in order, each with its switch: a quote
repeated in full is dropped before a block could be dropped from inside it."""


def _read(
    page: StageInput, stages: tuple[Stage, ...], page_type: PageType, options: ExtractOptions
) -> CascadeResult:
    """The cascade's reading, cross-checked, then combined with trafilatura's as the page's
    type says; trafilatura's alone when the cascade found nothing. Stages a caller chose are
    a reading of their own: neither combined nor completed."""
    chosen = options.stages is not None
    try:
        result = run_cascade(page, stages, min_words=options.min_words)
    except NoContentError:
        if chosen or (found := fallback(page, page_type, options.min_words)) is None:
            raise
        return found
    if CROSS_CHECK in options.rules:
        result = cross_check(page, result, stages, wider=page_type.kind in WIDER_ON)
    if not chosen:
        result = combine(page, result, page_type)
    for rule, refine in FINAL_REFINEMENTS:
        if rule in page.rules:  # the type's rules (_typed): quotes on forums, repeats not on docs
            content, entry = refine(result.content)
            if entry is not None:
                result = CascadeResult(result.stage, content, [*result.trace, entry])
    return CascadeResult(result.stage, space_touching_words(result.content), result.trace)


def read_page_metadata(snapshot: PageSnapshot) -> Metadata:
    """The page's metadata, from a parse of its own: the extraction changed its parse."""
    return read_metadata(parse_html(snapshot.html), snapshot)


def _page_metadata(snapshot: PageSnapshot, product: ProductFacts | None) -> Metadata:
    """``read_page_metadata``; a product page that describes itself nowhere else gets the
    first paragraph of its JSON-LD product's description."""
    metadata = read_page_metadata(snapshot)
    if metadata.description or product is None or not (summary := product.summary()):
        return metadata
    sources = {**metadata.sources, "description": "json-ld"}
    return replace(metadata, description=summary, sources=sources)


def page_titles(sources: TitleSources) -> frozenset[str]:
    """The page's titles as the headline refinement matches them, read before any rule ran:
    its ``<title>`` (whole, and without the site's name after a separator), og:title and
    JSON-LD's headline, and its first ``<h1>`` when that rewords one of them (Readability.js
    turns the ``<h1>`` into an ``<h2>`` when it keeps it)."""
    title = sources.tags.title
    from_title = title_from_page(title, [], []) if title else None
    found = {
        title,
        from_title[0] if from_title else None,
        sources.tags.first("og:title", "twitter:title"),
        sources.ld.title,
    }
    titles = frozenset(normal for text in found if text and (normal := normalise_title(text)))
    h1 = normalise_title(sources.tags.h1s[0]) if sources.tags.h1s else ""
    return titles | {h1} if h1 and (not titles or rewords(h1, titles)) else titles


def readability_title(snapshot: PageSnapshot) -> frozenset[str]:
    """The title Readability.js read, as the headline refinement matches it (none or one)."""
    title = snapshot.readability.title if snapshot.readability else None
    normal = normalise_title(title) if title else None
    return frozenset([normal]) if normal else frozenset()


def _comments_output(section: CleanContent, options: ExtractOptions) -> Comments:
    """The comment section with the same content options as the main content."""
    html = filter_content(
        section.html, links=options.links, tables=options.tables, images=options.images
    )
    text = section.text if html is section.html else html_to_text(html)
    return Comments(html=html, text=text, markdown=html_to_markdown(html))
