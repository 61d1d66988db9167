"""The rendered half of the wcxb-dev benchmark: each page served from memory at its own URL
in one offline Chromium, read by readermode (what ``readermode URL -f text`` prints) and by
Readability.js alone (the in-page result of the same render, the title line before it).

Used by scripts/benchmark_wcxb.py; it needs Chromium (set up by ./scripts/setup). Every
request other than the page itself is refused (``RenderOptions(offline=True)``): nothing
leaves the machine.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import lxml.html

from extractor import PageSnapshot, ReadermodeError, extract
from renderer import AsyncRenderer, RenderOptions
from renderer.cli.output import render_output
from tests.corpus.wcxb import WcxbPage

RENDER_OPTIONS = RenderOptions(offline=True, budget=15, block_private=False)
"""As the article benchmark renders: the stored page at its URL, every other request refused,
the CLI's default budget."""

FALLBACK_URL = "https://wcxb.example/page.html"
"""For the few pages whose ground truth has no URL."""


T = TypeVar("T")


@dataclass(frozen=True)
class Rendered:
    """One page's two rendered readings and the render's wall time."""

    readermode: str
    readability_js: str
    ms: float
    error: bool = False


def _titled(title: str | None, body: str) -> str:
    return (" ".join(title.split()) + "\n\n" if title else "") + body


def readability_js_text(snapshot: PageSnapshot) -> str:
    """Readability.js's title line and text, as Firefox Reader View shows it."""
    result = snapshot.readability
    if result is None:
        return ""
    text = result.text_content or ""
    if not text and result.content:
        text = lxml.html.fromstring(result.content).text_content()
    return _titled(result.title, text)


def readermode_text(snapshot: PageSnapshot) -> str:
    """What the CLI prints for a rendered page with ``-f text`` (empty on our errors)."""
    try:
        return render_output(extract(snapshot), "text")
    except ReadermodeError:
        return ""


async def _snapshot_of(
    renderer: AsyncRenderer, page: WcxbPage, folder: Path, options: RenderOptions
) -> PageSnapshot:
    path = folder / f"{page.id}.html"
    path.write_bytes(page.html_bytes())
    return await renderer.render(str(path), url=page.url or FALLBACK_URL, options=options)


async def _render_one(
    renderer: AsyncRenderer, page: WcxbPage, folder: Path, options: RenderOptions
) -> Rendered:
    started = time.perf_counter()
    try:
        snapshot = await _snapshot_of(renderer, page, folder, options)
    except Exception:  # a page that cannot be rendered scores 0 for both, as an error
        return Rendered("", "", (time.perf_counter() - started) * 1000, error=True)
    text = await asyncio.to_thread(readermode_text, snapshot)
    return Rendered(text, readability_js_text(snapshot), (time.perf_counter() - started) * 1000)


async def _kept_snapshot(
    renderer: AsyncRenderer, page: WcxbPage, folder: Path, options: RenderOptions
) -> PageSnapshot | None:
    try:
        return await _snapshot_of(renderer, page, folder, options)
    except Exception:  # left out: the caller reads the pages that rendered
        return None


Read = Callable[[AsyncRenderer, WcxbPage, Path, RenderOptions], Awaitable[T]]


async def _render_all(
    pages: list[WcxbPage], concurrency: int, read: Read[T], options: RenderOptions
) -> dict[str, T]:
    gate = asyncio.Semaphore(concurrency)
    results: dict[str, T] = {}
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="readermode-wcxb-") as tmp:
        async with AsyncRenderer(options) as renderer:

            async def one(page: WcxbPage) -> None:
                async with gate:
                    results[page.id] = await read(renderer, page, Path(tmp), options)
                done = len(results)
                if done % 20 == 0 or done == len(pages):
                    elapsed = time.perf_counter() - started
                    print(f"  rendered {done}/{len(pages)}, {elapsed:.0f} s", file=sys.stderr)

            await asyncio.gather(*(one(page) for page in pages))
    return results


def render_pages(pages: list[WcxbPage], concurrency: int = 2) -> dict[str, Rendered]:
    """Every page rendered once, ``concurrency`` at a time, and read; by page id."""
    return asyncio.run(_render_all(pages, concurrency, _render_one, RENDER_OPTIONS))


def render_snapshots(
    pages: list[WcxbPage], options: RenderOptions, concurrency: int = 2
) -> dict[str, PageSnapshot]:
    """Every page rendered once with ``options``, ``concurrency`` at a time; the snapshots by
    page id (a page that fails to render is left out)."""
    found = asyncio.run(_render_all(pages, concurrency, _kept_snapshot, options))
    return {page_id: snapshot for page_id, snapshot in found.items() if snapshot is not None}
