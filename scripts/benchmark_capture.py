"""Capture speed: readermode's rendered capture against a bare Playwright load of the same
pages, in one warm Chromium, offline.

Usage: benchmark_capture.py [--corpus DIR] [--limit N] [--jobs 1,2,4]

Pages: the article benchmark's stored pages (complete at load: saved without JavaScript), the
first ``--limit`` by id (default 40), each served from memory at its original URL; every other
request is refused, by both systems.

- bare: ``browser.new_context()``, a route answering the page, ``goto(wait_until="load")``,
  ``page.content()``, ``context.close()``: the least a capture can do.
- readermode: what ``AsyncRenderer.capture(file, url=…, RenderOptions(offline=True,
  budget=15))`` does: load, settle, snapshot, Readability.js, the extraction read ahead on a
  thread while Readability.js runs, then finished.

Printed: each system's median seconds per page with one page at a time, the ratio of the
medians and the median of the per-page ratios (measured in the same run, pages interleaved, so
machine noise hits both alike),
readermode's phase medians, then pages/s with 1, 2 and 4 pages at once. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from urllib.parse import urldefrag

from playwright.async_api import Route

from extractor import ExtractOptions
from renderer import AsyncRenderer, RenderOptions
from renderer.browser.api import _for_snapshots  # what capture extracts a snapshot with
from renderer.browser.launch import BrowserHandle

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = REPO.parent / "shared" / "corpora" / "article-benchmark"
OPTIONS = RenderOptions(offline=True, budget=15, block_private=False)
EXTRACT_OPTIONS = _for_snapshots(ExtractOptions(), OPTIONS)
PHASES = ("navigate", "quiet", "prepare", "scroll", "stability", "snapshot", "readability")
"""The phases printed (``snapshot.timings``; ``snapshot`` and ``readability`` are in-page times
within ``stability``), then ``outside``: the capture's time outside the render's own clock
(taking a tab, and what of the extraction was not read ahead while Readability.js ran)."""

Page = tuple[str, str, bytes]  # id, url, html
Run = Callable[[Page], Awaitable[None]]


def load(corpus: Path, limit: int) -> list[Page]:
    truth: dict[str, dict[str, str]] = json.loads((corpus / "ground-truth.json").read_text("utf-8"))
    return [
        (
            page_id,
            truth[page_id]["url"],
            gzip.decompress((corpus / "html" / f"{page_id}.html.gz").read_bytes()),
        )
        for page_id in sorted(truth)[:limit]
    ]


def bare_load(handle: BrowserHandle) -> Run:
    async def run(page: Page) -> None:
        _, url, body = page
        target = urldefrag(url).url
        context = await handle.browser.new_context()

        async def answer(route: Route) -> None:
            if urldefrag(route.request.url).url == target:
                await route.fulfill(status=200, body=body, content_type="text/html; charset=utf-8")
            else:
                await route.abort()

        try:
            await context.route("**/*", answer)
            tab = await context.new_page()
            await tab.goto(url, wait_until="load", timeout=15_000)
            await tab.content()
        finally:
            await context.close()

    return run


def readermode_capture(
    renderer: AsyncRenderer, folder: Path, phases: dict[str, list[float]] | None = None
) -> Run:
    """``AsyncRenderer.capture`` as it runs (``_render_and_extract``); each
    page's phase timings (``snapshot.timings``, in seconds) are added to ``phases``."""

    async def run(page: Page) -> None:
        page_id, url, body = page
        path = folder / f"{page_id}.html"
        if not path.exists():
            path.write_bytes(body)
        started = time.perf_counter()
        snapshot, _ = await renderer._render_and_extract(str(path), url, OPTIONS, EXTRACT_OPTIONS)
        if phases is not None:
            for name in PHASES:
                if name in snapshot.timings:
                    phases.setdefault(name, []).append(snapshot.timings[name])
            # outside the render's own clock: taking a tab, and the extraction's part that was
            # not read ahead while Readability.js ran
            outside = time.perf_counter() - started - snapshot.timings.get("total", 0.0)
            phases.setdefault("outside", []).append(outside)

    return run


async def timed(run: Run, page: Page) -> float:
    started = time.perf_counter()
    try:
        await run(page)
    except Exception as exc:  # noqa: BLE001 - a failed page is reported, the run goes on
        print(f"  {page[0]}: {type(exc).__name__}: {exc}"[:160], file=sys.stderr)
    return time.perf_counter() - started


async def throughput(run: Run, pages: list[Page], jobs: int) -> float:
    """Pages per second with ``jobs`` pages at once."""
    gate = asyncio.Semaphore(jobs)

    async def one(page: Page) -> None:
        async with gate:
            await timed(run, page)

    started = time.perf_counter()
    await asyncio.gather(*(one(page) for page in pages))
    return len(pages) / (time.perf_counter() - started)


async def main(pages: list[Page], jobs: list[int]) -> None:
    with tempfile.TemporaryDirectory(prefix="readermode-capture-") as tmp:
        async with AsyncRenderer(OPTIONS) as renderer:
            await renderer.start()
            handle = renderer._handle  # the same warm browser for both systems
            assert handle is not None
            systems = {
                "bare load": bare_load(handle),
                "readermode": readermode_capture(renderer, Path(tmp)),
            }
            for run in systems.values():  # warm-up: first contexts and imports
                await timed(run, pages[0])
            phases: dict[str, list[float]] = {}
            timed_runs = dict(systems, readermode=readermode_capture(renderer, Path(tmp), phases))
            seconds: dict[str, list[float]] = {name: [] for name in systems}
            for page in pages:  # interleaved, so noise falls on both
                for name, run in timed_runs.items():
                    seconds[name].append(await timed(run, page))
            medians = {name: statistics.median(values) for name, values in seconds.items()}
            print(
                f"capture speed, {len(pages)} article-benchmark pages served from memory, one at a time"
            )
            for name, median in medians.items():
                print(f"  {name:12s} median {median:6.3f} s/page")
            print(
                f"  ratio readermode / bare load: {medians['readermode'] / medians['bare load']:.2f}"
            )
            # steadier between runs than the ratio of medians, which the pages in the middle
            # of the distribution set (0.1 apart between runs of one tree)
            per_page = statistics.median(
                ours / bare
                for ours, bare in zip(seconds["readermode"], seconds["bare load"], strict=True)
            )
            print(f"  median of the per-page ratios: {per_page:.2f}")
            print(
                "  readermode phase medians (s): "
                + ", ".join(f"{name} {statistics.median(v):.3f}" for name, v in phases.items())
            )
            print("pages/s with N pages at once")
            for name, run in systems.items():
                rates = [await throughput(run, pages, n) for n in jobs]
                print(
                    f"  {name:12s} "
                    + "  ".join(f"{n}: {rate:5.2f}" for n, rate in zip(jobs, rates, strict=True))
                )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--limit", type=int, default=40, help="pages (first by id)")
    parser.add_argument("--jobs", default="1,2,4", help="pages at once for pages/s")
    args = parser.parse_args()
    if not (args.corpus / "ground-truth.json").is_file():
        sys.exit(f"benchmark_capture: no corpus at {args.corpus}")
    asyncio.run(main(load(args.corpus, args.limit), [int(n) for n in args.jobs.split(",")]))
