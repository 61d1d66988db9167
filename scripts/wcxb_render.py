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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

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


async def _render_one(
    renderer: AsyncRenderer, page: WcxbPage, folder: Path
) -> Rendered:
    path = folder / f"{page.id}.html"
    path.write_bytes(page.html_bytes())
    started = time.perf_counter()
    try:
        snapshot = await renderer.render(
            str(path), url=page.url or FALLBACK_URL, options=RENDER_OPTIONS
        )
    except Exception:  # a page that cannot be rendered scores 0 for both, as an error
        return Rendered("", "", (time.perf_counter() - started) * 1000, error=True)
    text = await asyncio.to_thread(readermode_text, snapshot)
    return Rendered(text, readability_js_text(snapshot), (time.perf_counter() - started) * 1000)


async def _render_all(
    pages: list[WcxbPage], concurrency: int, progress: Callable[[int], None]
) -> dict[str, Rendered]:
    gate = asyncio.Semaphore(concurrency)
    results: dict[str, Rendered] = {}
    with tempfile.TemporaryDirectory(prefix="readermode-wcxb-") as tmp:
        async with AsyncRenderer(RENDER_OPTIONS) as renderer:

            async def one(page: WcxbPage) -> None:
                async with gate:
                    results[page.id] = await _render_one(renderer, page, Path(tmp))
                progress(len(results))

            await asyncio.gather(*(one(page) for page in pages))
    return results


def render_pages(pages: list[WcxbPage], concurrency: int = 2) -> dict[str, Rendered]:
    """Every page rendered once, ``concurrency`` at a time; by page id."""
    started = time.perf_counter()

    def progress(done: int) -> None:
        if done % 20 == 0 or done == len(pages):
            elapsed = time.perf_counter() - started
            print(f"  rendered {done}/{len(pages)}, {elapsed:.0f} s", file=sys.stderr)

    return asyncio.run(_render_all(pages, concurrency, progress))
