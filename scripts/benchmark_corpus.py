"""Corpus benchmark: readermode against its peers on the article-extraction benchmark, offline.

Usage: benchmark_corpus.py [--corpus DIR] [--limit N] [--systems a,b,...] [--concurrency N]
[--out DIR]. ``--systems`` takes these short names (default: all five):

  static            readermode static: ``extractor.extract(bytes, url=truth url)``
  rendered          readermode rendered: the stored HTML served from memory at its original URL
                    in Chromium, ``RenderOptions(offline=True, budget=15)`` (every other request
                    refused), then ``extractor.extract(snapshot)``
  readability-js    Readability.js alone: ``snapshot.readability.text_content`` of that render
  readability-lxml  ``readability.Document(html).summary(html_partial=True)``, text via lxml
  trafilatura       ``trafilatura.extract(html, url=url, output_format="txt")``, defaults

Method: the corpus is html/<id>.html.gz (UTF-8, saved without JavaScript) and ground-truth.json
({id: {articleBody, url}}). Each text is scored against articleBody by ``extractor.shingle_score``
(``\\w+`` tokens, multisets of 4-token shingles, a page's true-positive / false-positive / miss
counts normalised to sum to 1); ``extractor.aggregate`` sums them over pages and precision,
recall and F1 come from the sums. An exception (or a failed Readability.js run) is empty output
and an error of that system. Phase 1 runs the in-process systems page by page, no browser up;
phase 2 renders in one Chromium, ``--concurrency`` pages at a time (default 2, for 2 cores).
One render feeds both rendered systems: their ms is the render's wall time (load, settle,
scroll, snapshot, Readability.js; overlapping pages share the CPU), plus the extraction for
rendered. Every render context's requests are watched: any that completes, other than a page
served from memory, is reported as a leak.

Output: the table, per-page rows in ``--out``/corpus-scores.csv (id, system, precision, recall,
f1, ms, stage), ``--out``/render-timings.csv (snapshot.timings per page), a scatter of
readermode's per-page F1 against the best peer's in ``--out``/f1-per-page.png, the pages
readermode static loses by more than 0.05 F1 to the best peer, and the pages where rendering
moves readermode's F1 by more than 0.2.
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import gzip
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urlsplit

import lxml.html
import matplotlib
import trafilatura
from readability import Document

import extractor
from extractor import ShingleScore as Score
from renderer import AsyncRenderer, RenderOptions

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = REPO.parent / "shared" / "corpora" / "article-benchmark"
SYSTEMS = {
    "static": "readermode static",
    "rendered": "readermode rendered",
    "readability-js": "Readability.js alone",
    "readability-lxml": "readability-lxml alone",
    "trafilatura": "trafilatura",
}
PEERS = ("readability-js", "readability-lxml", "trafilatura")
LOSS_MARGIN = 0.05
RENDER_SHIFT = 0.2
RENDER_OPTIONS = RenderOptions(offline=True, budget=15, block_private=False)
TIMING_KEYS = ("navigate", "quiet", "scroll", "images", "stability", "readability", "total")


@dataclass(frozen=True)
class Page:
    id: str
    url: str
    reference: str
    data: bytes


@dataclass(frozen=True)
class Outcome:
    text: str
    stage: str
    ms: float
    error: bool = False


Results = dict[str, dict[str, Outcome]]  # page id -> system -> outcome
Scores = dict[str, dict[str, Score]]
Row = dict[str, Any]


def timed(run: Callable[[], tuple[str, str]]) -> Outcome:
    started = time.perf_counter()
    try:
        text, stage = run()
        error = False
    except Exception as exc:
        text, stage, error = "", f"error:{type(exc).__name__}", True
    return Outcome(text, stage, (time.perf_counter() - started) * 1000, error)


def readermode(source: bytes | extractor.PageSnapshot, url: str | None) -> tuple[str, str]:
    result = extractor.extract(source, url=url)
    return result.text, result.stage


def readability_lxml(page: Page) -> tuple[str, str]:
    summary = Document(page.data.decode("utf-8", "replace")).summary(html_partial=True)
    return lxml.html.fromstring(summary).text_content(), "readability-lxml"


def trafilatura_txt(page: Page) -> tuple[str, str]:
    html = page.data.decode("utf-8", "replace")
    return trafilatura.extract(html, url=page.url, output_format="txt") or "", "trafilatura"


IN_PROCESS: dict[str, Callable[[Page], tuple[str, str]]] = {
    "static": lambda page: readermode(page.data, page.url),
    "readability-lxml": readability_lxml,
    "trafilatura": trafilatura_txt,
}


def readability_js(snap: extractor.PageSnapshot, render_ms: float) -> Outcome:
    """The in-page Readability.js result's text; a failed run is an error, no result is empty."""
    failed = any(warning.startswith("Readability.js") for warning in snap.warnings)
    result, text = snap.readability, ""
    if result is not None:
        text = result.text_content or ""
        if result.text_content is None and result.content:
            text = lxml.html.fromstring(result.content).text_content()
    stage = "error:readability-js" if failed else "readability-js" if result else "no result"
    return Outcome(text, stage, render_ms, failed)


class Network:
    """Every request of every render context: pages served from memory, refusals, leaks."""

    def __init__(self, page_urls: set[str]) -> None:
        self.page_urls, self.counts, self.leaks = page_urls, Counter[str](), list[str]()

    def watch(self, context: Any) -> None:
        context.on("requestfinished", self._finished)
        context.on("requestfailed", lambda _: self.counts.update(["refused"]))
        context.on("page", lambda p: p.on("websocket", lambda ws: self.leaks.append(ws.url)))

    def _finished(self, request: Any) -> None:
        url = urldefrag(request.url).url
        if url in self.page_urls:
            self.counts["served"] += 1
        elif urlsplit(url).scheme not in ("data", "blob", "about"):
            self.leaks.append(url)


async def render_one(
    browser: AsyncRenderer, page: Page, path: Path, results: Results, timings: list[Row]
) -> None:
    path.write_bytes(page.data)
    began = time.perf_counter()
    try:
        snap = await browser.render(str(path), url=page.url, options=RENDER_OPTIONS)
    except Exception as exc:
        ms = (time.perf_counter() - began) * 1000
        failed = Outcome("", f"error:{type(exc).__name__}", ms, True)
        results[page.id].update({"rendered": failed, "readability-js": failed})
        timings.append({"id": page.id, "error": f"{type(exc).__name__}: {exc}"})
        return
    render_ms = (time.perf_counter() - began) * 1000
    got = await asyncio.to_thread(timed, lambda: readermode(snap, None))
    results[page.id]["rendered"] = Outcome(got.text, got.stage, render_ms + got.ms, got.error)
    results[page.id]["readability-js"] = readability_js(snap, render_ms)
    warnings = "; ".join(snap.warnings)
    timings.append(
        {"id": page.id, "settled_by": snap.settled_by, **snap.timings} | {"warnings": warnings}
    )


async def render_all(
    pages: list[Page], concurrency: int, results: Results, timings: list[Row]
) -> Network:
    """One Chromium for every page, ``concurrency`` renders at a time."""
    network = Network({urldefrag(page.url).url for page in pages})
    gate, started = asyncio.Semaphore(concurrency), time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="readermode-bench-") as tmp:
        async with AsyncRenderer(RENDER_OPTIONS) as browser:
            handle = browser._handle  # the one look inside: watch each context it opens
            assert handle is not None
            new_context = handle.new_context

            async def watched_context(*args: Any, **kwargs: Any) -> Any:
                # (the pool opens contexts with the renderer's options: pass them on)
                context = await new_context(*args, **kwargs)
                network.watch(context)
                return context

            handle.new_context = watched_context  # type: ignore[method-assign]

            async def one(page: Page) -> None:
                async with gate:
                    await render_one(browser, page, Path(tmp) / f"{page.id}.html", results, timings)
                if (done := len(timings)) % 10 == 0 or done == len(pages):
                    elapsed = time.perf_counter() - started
                    print(f"  rendered {done}/{len(pages)}, {elapsed:.0f} s", file=sys.stderr)

            await asyncio.gather(*(one(page) for page in pages))
    return network


def load(corpus: Path, limit: int | None) -> list[Page]:
    truth: dict[str, dict[str, str]] = json.loads((corpus / "ground-truth.json").read_text("utf-8"))
    pages = []
    for page_id in sorted(truth)[:limit] if limit else sorted(truth):
        data = gzip.decompress((corpus / "html" / f"{page_id}.html.gz").read_bytes())
        entry = truth[page_id]
        pages.append(Page(page_id, entry["url"], entry.get("articleBody") or "", data))
    return pages


def write_csv(path: Path, rows: list[Row]) -> None:
    fields = list(dict.fromkeys(key for row in rows for key in row)) or ["id"]
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields, restval="")
        writer.writeheader()
        writer.writerows(rows)


def plot(path: Path, scores: Scores, systems: list[str]) -> bool:
    """Readermode's per-page F1 (static and rendered) against the best peer's, with y = x."""
    peers = [s for s in PEERS if s in systems]
    ours = [s for s in ("static", "rendered") if s in systems]
    if not peers or not ours:
        return False
    fig, ax = plt.subplots(figsize=(6.5, 6.5), dpi=120)
    ax.plot([0, 1], [0, 1], color="grey", linewidth=1, linestyle="--", label="equal")
    best = [max(page[p].f1 for p in peers) for page in scores.values()]
    for system, colour in zip(ours, ("tab:blue", "tab:orange"), strict=False):
        ours_f1 = [page[system].f1 for page in scores.values()]
        ax.scatter(best, ours_f1, s=14, alpha=0.7, color=colour, label=SYSTEMS[system])
    ax.set(xlim=(-0.02, 1.02), ylim=(-0.02, 1.02), ylabel="readermode F1")
    ax.set_xlabel("best peer F1 (" + ", ".join(SYSTEMS[p] for p in peers) + ")")
    ax.set_title(f"Per-page shingle F1, {len(scores)} pages")
    ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return True


def report(pages: list[Page], systems: list[str], results: Results, scores: Scores) -> None:
    print(f"\n{'system':<24} {'F1':>6} {'prec':>6} {'recall':>6} {'median ms':>9} {'errors':>6}")
    print("-" * 62)
    for system in systems:
        total = extractor.aggregate(scores[p.id][system] for p in pages)
        median = statistics.median(results[p.id][system].ms for p in pages)
        errors = sum(results[p.id][system].error for p in pages)
        print(
            f"{SYSTEMS[system]:<24} {total.f1:>6.3f} {total.precision:>6.3f} "
            f"{total.recall:>6.3f} {median:>9.1f} {errors:>6}"
        )
    if "rendered" in systems or "readability-js" in systems:
        print("(rendered and Readability.js ms: one render's wall time, pages overlapping;")
        print(" rendered adds its extraction)")
    for system in ("static", "rendered"):
        if system in systems:
            stages = Counter(results[p.id][system].stage for p in pages).most_common()
            print(f"{SYSTEMS[system]} stages: " + ", ".join(f"{n} {c}" for n, c in stages))
    peers = [s for s in PEERS if s in systems]
    if "static" in systems and peers:
        lost = []
        for p in pages:
            best = max(peers, key=lambda s: scores[p.id][s].f1)
            ours, theirs = scores[p.id]["static"].f1, scores[p.id][best].f1
            if ours < theirs - LOSS_MARGIN:
                lost.append((ours - theirs, p.id, ours, best, theirs))
        print(
            f"\nPages readermode static loses by > {LOSS_MARGIN} F1 to the best peer: {len(lost)}"
        )
        for _, page_id, ours, best, theirs in sorted(lost):
            stage = results[page_id]["static"].stage
            print(f"  {page_id[:16]}  ours {ours:.3f}  {SYSTEMS[best]} {theirs:.3f}  {stage}")
    if "static" in systems and "rendered" in systems:
        deltas = [(scores[p.id]["rendered"].f1 - scores[p.id]["static"].f1, p.id) for p in pages]
        moved = sorted((d, page_id) for d, page_id in deltas if abs(d) > RENDER_SHIFT)
        print(f"\nPages where rendering moves readermode's F1 by > {RENDER_SHIFT}: {len(moved)}")
        for delta, page_id in moved:
            a, b = scores[page_id]["static"].f1, scores[page_id]["rendered"].f1
            stages = f"{results[page_id]['static'].stage} -> {results[page_id]['rendered'].stage}"
            print(f"  {page_id[:16]}  static {a:.3f}  rendered {b:.3f}  ({delta:+.3f})  {stages}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="benchmark dir")
    parser.add_argument("--limit", type=int, default=None, help="first N pages by id")
    parser.add_argument("--systems", default=",".join(SYSTEMS), help="comma-separated subset")
    parser.add_argument("--concurrency", type=int, default=2, help="pages rendered at once")
    parser.add_argument("--out", type=Path, default=REPO / "benchmark-results", help="output dir")
    args = parser.parse_args()
    chosen = {s.strip() for s in args.systems.split(",") if s.strip()}
    if unknown := chosen - set(SYSTEMS):
        parser.error(f"unknown systems {sorted(unknown)}; choose from {', '.join(SYSTEMS)}")
    systems = [s for s in SYSTEMS if s in chosen]
    started = time.perf_counter()
    pages = load(args.corpus, args.limit)
    print(f"Corpus: {args.corpus} ({len(pages)} pages); systems: {', '.join(systems)}")
    results: Results = {p.id: {} for p in pages}
    local = [s for s in systems if s in IN_PROCESS]
    for n, page in enumerate(pages, 1):
        for system in local:
            results[page.id][system] = timed(lambda: IN_PROCESS[system](page))  # noqa: B023
        if local and (n % 10 == 0 or n == len(pages)):
            elapsed = time.perf_counter() - started
            print(f"  in-process {n}/{len(pages)}, {elapsed:.0f} s", file=sys.stderr)
    args.out.mkdir(parents=True, exist_ok=True)
    if "rendered" in systems or "readability-js" in systems:
        timings: list[Row] = []
        network = asyncio.run(render_all(pages, max(1, args.concurrency), results, timings))
        write_csv(args.out / "render-timings.csv", timings)
        if ok := [t for t in timings if "total" in t]:
            medians = [f"{k} {statistics.median(t.get(k, 0) for t in ok):.2f}" for k in TIMING_KEYS]
            print(f"Render medians, s ({len(ok)} snapshots): " + ", ".join(medians))
        print(
            f"Offline check: {network.counts['served']} pages served from memory, "
            f"{network.counts['refused']} requests refused, {len(network.leaks)} other requests "
            f"completed{': ' + ', '.join(network.leaks[:5]) if network.leaks else ''}"
        )
    scores = {
        p.id: {s: extractor.shingle_score(results[p.id][s].text, p.reference) for s in systems}
        for p in pages
    }
    rows = [
        {"id": p.id, "system": SYSTEMS[s], "precision": f"{sc.precision:.4f}"}
        | {"recall": f"{sc.recall:.4f}", "f1": f"{sc.f1:.4f}"}
        | {"ms": f"{results[p.id][s].ms:.1f}", "stage": results[p.id][s].stage}
        for p in pages
        for s, sc in scores[p.id].items()
    ]
    write_csv(args.out / "corpus-scores.csv", rows)
    report(pages, systems, results, scores)
    if plot(args.out / "f1-per-page.png", scores, systems):
        print(f"\nPlot: {args.out / 'f1-per-page.png'}")
    print(f"Per-page rows: {args.out / 'corpus-scores.csv'}")
    print(f"Total run time: {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
