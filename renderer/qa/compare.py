"""Reader View QA: one page, Firefox Reader View's result next to readermode's.

``compare_page`` renders a page once with ``RenderOptions.reader_view`` on, so the snapshot
carries two Readability.js results from the same page: ours (on the flattened, filtered snapshot,
which the cascade reads) and Reader View's (on a clone of the live document, unfiltered,
``charThreshold`` 500: what Firefox Reader View shows). It then runs the extractor and scores
readermode's text against Reader View's, word by word.

Reader View shows its title as a heading above Readability.js's content. Readermode's content
leaves its headline out too (the title is metadata), so bodies are compared with bodies:
``ReaderViewSide.html``/``text`` are Reader View's content, its title is ``ReaderViewSide.title``;
both are sanitised like every HTML readermode emits.
"""

from __future__ import annotations

import asyncio
import dataclasses
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from extractor import (
    ExtractOptions,
    Metadata,
    NoContentError,
    PageSnapshot,
    ReadabilityResult,
    TraceEntry,
    extract,
    html_to_text,
    inner_html,
    parse_fragment,
    sanitize_html,
    word_score,
)
from renderer.browser.options import RenderOptions

if TYPE_CHECKING:
    from renderer.browser.api import AsyncRenderer, Renderer

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@dataclass(frozen=True, kw_only=True)
class ReaderViewSide:
    """Firefox Reader View's result: pure Readability.js on the live document."""

    found: bool
    """Readability.js found an article (Reader View would show one)."""
    title: str | None = None
    byline: str | None = None
    excerpt: str | None = None
    site_name: str | None = None
    lang: str | None = None
    dir: str | None = None
    published_time: str | None = None
    readerable: bool | None = None
    """``isProbablyReaderable`` on the live document: would Firefox offer Reader View?"""
    text: str = ""
    html: str = ""

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True, kw_only=True)
class ReadermodeSide:
    """readermode's final result: which cascade stage won and why, and what it gave."""

    stage: str | None
    """None when no stage gave content (``stage_reason`` then says why)."""
    stage_reason: str
    text: str = ""
    html: str = ""
    metadata: Metadata = field(default_factory=Metadata)

    def to_dict(self) -> dict[str, Any]:
        return {
            "stage": self.stage,
            "stage_reason": self.stage_reason,
            "text": self.text,
            "html": self.html,
            "metadata": self.metadata.to_dict(),
        }


@dataclass(frozen=True, kw_only=True)
class Scores:
    """Word-level precision/recall/F1 of readermode's text against Reader View's."""

    precision: float
    recall: float
    f1: float

    def to_dict(self) -> dict[str, float]:
        return {
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "f1": round(self.f1, 4),
        }


@dataclass(frozen=True, kw_only=True)
class PageComparison:
    """One page, Reader View against readermode."""

    target: str
    url: str | None
    final_url: str | None
    reader_view: ReaderViewSide
    readermode: ReadermodeSide
    scores: Scores
    trace: tuple[TraceEntry, ...] = ()
    warnings: tuple[str, ...] = ()
    screenshot_png: bytes | None = field(default=None, repr=False, compare=False)
    """The rendered page as PNG (for the HTML report); never in ``to_dict``."""
    snapshot: PageSnapshot | None = field(default=None, repr=False, compare=False)
    """The snapshot both results came from; never in ``to_dict``."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "url": self.url,
            "final_url": self.final_url,
            "reader_view": self.reader_view.to_dict(),
            "readermode": self.readermode.to_dict(),
            "scores": self.scores.to_dict(),
            "trace": [entry.to_dict() for entry in self.trace],
            "warnings": list(self.warnings),
        }


@dataclass(frozen=True, kw_only=True)
class PageFailure:
    """A target of a multi-page comparison that could not be rendered (its row says why)."""

    target: str
    error: str
    exit_code: int = 1

    def to_dict(self) -> dict[str, Any]:
        return {"target": self.target, "error": self.error, "exit_code": self.exit_code}


def _shown_html(result: ReadabilityResult) -> str:
    """Reader View's article body, sanitised. Its title, shown above the body, is left out as
    ours is: the title is ``ReaderViewSide.title``."""
    return sanitize_html(inner_html(parse_fragment(result.content or ""))).strip()


def reader_view_side(result: ReadabilityResult | None) -> ReaderViewSide:
    """The Reader View side from the snapshot's ``reader_view`` result."""
    if result is None:
        return ReaderViewSide(found=False)
    found = bool(result.content and result.content.strip())
    shown = _shown_html(result) if found else ""
    return ReaderViewSide(
        found=found,
        title=result.title,
        byline=result.byline,
        excerpt=result.excerpt,
        site_name=result.site_name,
        lang=result.lang,
        dir=result.dir,
        published_time=result.published_time,
        readerable=result.readerable,
        text=html_to_text(shown),
        html=shown,
    )


def stage_reason(trace: tuple[TraceEntry, ...]) -> str:
    """Why the winning stage won: its own note, after why each stage before it gave way."""
    stages = [entry for entry in trace if entry.kind == "stage"]
    # The last accepted entry is the winner: a combination with trafilatura's reading comes
    # after the cascade stage it started from.
    accepted = next((entry for entry in reversed(stages) if entry.outcome == "accepted"), None)
    before = [
        f"{entry.name} {entry.outcome}: {entry.reason}"
        for entry in stages
        if entry is not accepted and entry.outcome in ("skipped", "rejected")
    ]
    if accepted is None:
        return "; ".join(before) or "no stage ran"
    reason = accepted.reason or "accepted"
    return f"{reason} (after {'; '.join(before)})" if before else reason


def compare_snapshot(
    snapshot: PageSnapshot,
    *,
    target: str | None = None,
    extract_options: ExtractOptions | None = None,
    screenshot_png: bytes | None = None,
) -> PageComparison:
    """Compare a snapshot rendered with ``reader_view`` on (no browser needed from here)."""
    reader_view = reader_view_side(snapshot.reader_view)
    try:
        extraction = extract(snapshot, options=extract_options)
    except NoContentError as exc:
        readermode = ReadermodeSide(stage=None, stage_reason=str(exc))
        trace: tuple[TraceEntry, ...] = ()
        warnings = snapshot.warnings
    else:
        readermode = ReadermodeSide(
            stage=extraction.stage,
            stage_reason=stage_reason(extraction.trace),
            text=extraction.text,
            html=extraction.html,
            metadata=extraction.metadata,
        )
        trace, warnings = extraction.trace, extraction.warnings
    score = word_score(readermode.text, reader_view.text)
    return PageComparison(
        target=target or snapshot.url or "",
        url=snapshot.url,
        final_url=snapshot.final_url,
        reader_view=reader_view,
        readermode=readermode,
        scores=Scores(precision=score.precision, recall=score.recall, f1=score.f1),
        trace=trace,
        warnings=warnings,
        screenshot_png=screenshot_png,
        snapshot=snapshot,
    )


async def compare_page(
    renderer: AsyncRenderer,
    target: str,
    *,
    url: str | None = None,
    options: RenderOptions | None = None,
    extract_options: ExtractOptions | None = None,
    screenshot: bool = False,
) -> PageComparison:
    """Render ``target`` once and compare Reader View's result with readermode's.

    ``options`` default to the renderer's; ``reader_view`` is switched on whatever they say.
    With ``screenshot`` the page's full-page PNG is kept on the comparison (taken into
    ``options.screenshot`` when set, else into a temporary file).
    """
    options = dataclasses.replace(options or renderer.options, reader_view=True)
    extract_options = extract_options or ExtractOptions()
    with tempfile.TemporaryDirectory(prefix="readermode-compare-") as scratch:
        if screenshot and not options.screenshot:
            options = dataclasses.replace(options, screenshot=str(Path(scratch) / "page.png"))
        snapshot = await renderer.render(
            target, url=url, options=options, max_bytes=extract_options.max_bytes
        )
        png = None
        if screenshot and options.screenshot:
            shot = Path(options.screenshot)
            if shot.is_file() and shot.read_bytes()[:8] == PNG_SIGNATURE:
                png = shot.read_bytes()
    return await asyncio.to_thread(
        compare_snapshot,
        snapshot,
        target=target,
        extract_options=extract_options,
        screenshot_png=png,
    )


def compare_page_sync(
    renderer: Renderer,
    target: str,
    *,
    url: str | None = None,
    options: RenderOptions | None = None,
    extract_options: ExtractOptions | None = None,
    screenshot: bool = False,
) -> PageComparison:
    """``compare_page`` through a synchronous ``Renderer`` (its private event loop)."""
    return renderer._call(
        compare_page(
            renderer._core,
            target,
            url=url,
            options=options,
            extract_options=extract_options,
            screenshot=screenshot,
        )
    )
