"""WCXB benchmark: readermode static against its peers on seven page types, in one run.

Usage: benchmark_wcxb.py [--corpus DIR] [--limit N] [--types a,b] [--systems a,b]
[--sample N] [--render-sample N] [--concurrency N] [--out DIR] [--held-out-types DIR]
[--held-out-blocks DIR]. ``--systems`` takes these
short names (default: all five):

  static            readermode static: what ``readermode FILE --no-render -f text`` prints,
                    computed in-process: ``extractor.extract(bytes, url=truth url)`` then
                    ``renderer.cli.output.render_output(extraction, "text")`` (the title line,
                    a blank line, the body)
  trafilatura       ``trafilatura.extract(html, url=url, output_format="txt")`` (defaults), with
                    the title of ``trafilatura.extract_metadata(html, default_url=url)`` and a
                    blank line put before it as we do for ours; its ms counts both calls (the
                    body alone is printed beside it)
  readability-lxml  ``readability.Document(html)``: ``.title()`` line, then the text of
                    ``.summary(html_partial=True)``
  rendered          readermode rendered: the page served from memory at its URL in one
                    offline Chromium (scripts/wcxb_render.py), then what
                    ``readermode URL -f text`` prints; its ms is the render's wall time
  readability-js    Readability.js alone: the title line and text of the same render's
                    in-page Readability.js result (charThreshold 0, as our cascade runs it)

Rendering every page takes about 1.5 s a page at two at a time, so the two rendered systems
run on a fixed stratified sample, ``--render-sample N`` pages of each type (default 20: 140
pages, the gate's sample; 0 renders every chosen page). The run then prints a second table:
every system on just those pages, so the rendered rows are compared on the same pages.

Method: the corpus's own (its README.md; ``extractor/_token_score.py``): per page, lower-cased
``\\w+`` token multisets, precision, recall and F1; the figures are means over pages, overall and
per page type (``_internal.page_type.primary``, ``category`` as ``collection``); ``with`` is the
share of the ground truth's ``with`` snippets found in the output, ``without`` the share of its
``without`` snippets present (lower is better). An exception is empty output and an error.
``--sample N`` takes N pages of each type by a hash of the id (tests/corpus/wcxb.py), the same
pages every run; ``--types`` and ``--limit`` (first N by id) apply after it.

Output: the table, per-page rows in ``--out``/wcxb-scores.csv (id, type, system, p, r, f1, ms,
with, without, error) and a per-type bar plot of mean F1 in ``--out``/wcxb-f1-by-type.png.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import lxml.html
import matplotlib
import trafilatura
from readability import Document

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from held_out_types import HeldOutBlocks, HeldOutTypes  # noqa: E402

from extractor._token_score import TokenScore, mean_scores, snippet_hits, token_score  # noqa: E402
from tests.corpus.wcxb import (  # noqa: E402
    CORPUS,
    TYPES,
    WcxbPage,
    pages_for_script,
    readermode_text,
    stratified_sample,
)

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

REPO = Path(__file__).resolve().parents[1]
SYSTEMS = {
    "static": "readermode static",
    "rendered": "readermode rendered",
    "trafilatura": "trafilatura",
    "readability-lxml": "readability-lxml",
    "readability-js": "Readability.js",
}
RENDERED = ("rendered", "readability-js")
"""The systems that need Chromium, run on the render sample."""


@dataclass(frozen=True)
class Outcome:
    text: str
    ms: float
    error: bool = False
    body_ms: float | None = None  # trafilatura: the body's extraction alone


@dataclass(frozen=True)
class Scored:
    page: WcxbPage
    system: str
    score: TokenScore
    outcome: Outcome
    with_found: int
    without_present: int


def run_static(page: WcxbPage, data: bytes, html: str) -> Outcome:
    started = time.perf_counter()
    text = readermode_text(data, page.url)
    return Outcome(text, (time.perf_counter() - started) * 1000)


def run_trafilatura(page: WcxbPage, data: bytes, html: str) -> Outcome:
    started = time.perf_counter()
    body = trafilatura.extract(html, url=page.url, output_format="txt") or ""
    body_ms = (time.perf_counter() - started) * 1000
    title = trafilatura.extract_metadata(html, default_url=page.url).title
    text = (" ".join(title.split()) + "\n\n" if title else "") + body
    return Outcome(text, (time.perf_counter() - started) * 1000, body_ms=body_ms)


def run_readability_lxml(page: WcxbPage, data: bytes, html: str) -> Outcome:
    started = time.perf_counter()
    document = Document(html)
    body = lxml.html.fromstring(document.summary(html_partial=True)).text_content()
    title = document.title()
    text = (" ".join(title.split()) + "\n\n" if title else "") + body
    return Outcome(text, (time.perf_counter() - started) * 1000)


RUNNERS: dict[str, Callable[[WcxbPage, bytes, str], Outcome]] = {
    "static": run_static,
    "trafilatura": run_trafilatura,
    "readability-lxml": run_readability_lxml,
}


def run_one(system: str, page: WcxbPage, data: bytes, html: str) -> Outcome:
    started = time.perf_counter()
    try:
        return RUNNERS[system](page, data, html)
    except Exception:
        return Outcome("", (time.perf_counter() - started) * 1000, error=True)


def score(page: WcxbPage, system: str, outcome: Outcome) -> Scored:
    return Scored(
        page=page,
        system=system,
        score=token_score(outcome.text, page.reference),
        outcome=outcome,
        with_found=snippet_hits(outcome.text, page.with_snippets),
        without_present=snippet_hits(outcome.text, page.without_snippets),
    )


def rate(rows: list[Scored], attribute: str, snippets: str) -> float:
    total = sum(len(getattr(row.page, snippets)) for row in rows)
    return sum(getattr(row, attribute) for row in rows) / total if total else 0.0


def summary_line(label: str, rows: list[Scored]) -> str:
    mean = mean_scores(row.score for row in rows)
    median = statistics.median(row.outcome.ms for row in rows)
    errors = sum(row.outcome.error for row in rows)
    found = rate(rows, "with_found", "with_snippets")
    present = rate(rows, "without_present", "without_snippets")
    return (
        f"{label:<20} {len(rows):>5} {mean.f1:>6.3f} {mean.precision:>6.3f} {mean.recall:>6.3f} "
        f"{found:>6.3f} {present:>8.3f} {median:>8.1f} {errors:>4}"
    )


def report(scored: list[Scored], systems: list[str], title: str) -> None:
    print(f"\n== {title}")
    header = f"{'':<20} {'pages':>5} {'F1':>6} {'P':>6} {'R':>6} {'with':>6} {'without':>8}"
    print(f"\n{header} {'med ms':>8} {'err':>4}")
    for kind in ("all", *TYPES):
        of_kind = [row for row in scored if kind == "all" or row.page.type == kind]
        if not of_kind:
            continue
        print(f"-- {kind}")
        for system in systems:
            rows = [row for row in of_kind if row.system == system]
            print(summary_line(SYSTEMS[system], rows))
    body = [row.outcome.body_ms for row in scored if row.outcome.body_ms is not None]
    if body:
        print(f"(trafilatura's body alone: median {statistics.median(body):.1f} ms/page)")
    print("(with: share of `with` snippets found; without: share of `without` snippets present)")
    print("\nF1 by type       " + " ".join(f"{kind[:6]:>7}" for kind in ("all", *TYPES)))
    for system in systems:
        if not any(row.system == system for row in scored):
            continue
        cells = []
        for kind in ("all", *TYPES):
            rows = [r for r in scored if r.system == system and kind in ("all", r.page.type)]
            cells.append(f"{mean_scores(r.score for r in rows).f1:>7.3f}" if rows else " " * 7)
        print(f"{system[:16]:<16} " + " ".join(cells))


def weighted_report(sample: list[Scored], pages: list[WcxbPage], systems: list[str]) -> None:
    """Each system's F1 on the sample, its types weighed by their shares of ``pages``: the
    sample's plain mean weighs every type alike (20 of each), so it is no estimate of the mean
    over every page, in which articles are over half."""
    shares = {kind: sum(page.type == kind for page in pages) / len(pages) for kind in TYPES}
    print("\nF1 of the render sample, each type weighed by its share of every chosen page:")
    for system in systems:
        total = 0.0
        for kind, share in shares.items():
            rows = [r for r in sample if r.system == system and r.page.type == kind]
            total += share * mean_scores(r.score for r in rows).f1 if rows else 0.0
        if any(row.system == system for row in sample):
            print(f"{SYSTEMS[system]:<20} {total:>6.3f}")


def write_rows(path: Path, scored: list[Scored]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "type", "system", "p", "r", "f1", "ms", "with", "without", "error"])
        for row in scored:
            writer.writerow(
                [row.page.id, row.page.type, row.system, f"{row.score.precision:.4f}"]
                + [f"{row.score.recall:.4f}", f"{row.score.f1:.4f}", f"{row.outcome.ms:.1f}"]
                + [f"{row.with_found}/{len(row.page.with_snippets)}"]
                + [f"{row.without_present}/{len(row.page.without_snippets)}"]
                + [int(row.outcome.error)]
            )


def plot(path: Path, scored: list[Scored], systems: list[str]) -> None:
    kinds = ["all", *(kind for kind in TYPES if any(row.page.type == kind for row in scored))]
    width = 0.8 / len(systems)
    fig, ax = plt.subplots(figsize=(10, 4.5), dpi=120)
    for index, system in enumerate(systems):
        if not any(row.system == system for row in scored):
            continue
        means = [
            mean_scores(
                r.score for r in scored if r.system == system and kind in ("all", r.page.type)
            ).f1
            for kind in kinds
        ]
        positions = [k + (index - (len(systems) - 1) / 2) * width for k in range(len(kinds))]
        ax.bar(positions, means, width, label=SYSTEMS[system])
    ax.set_xticks(range(len(kinds)), kinds)
    ax.set(ylim=(0, 1), ylabel="mean token F1")
    ax.set_title(f"wcxb-dev, {len({row.page.id for row in scored})} pages")
    ax.legend(loc="lower left")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def score_in_process(
    pages: list[WcxbPage],
    systems: list[str],
    started: float,
    held: Sequence[HeldOutTypes | HeldOutBlocks] = (),
) -> list[Scored]:
    """The systems that need no browser, page by page (read with the half models in ``held``,
    which never saw the page)."""
    scored: list[Scored] = []
    for n, page in enumerate(pages, 1):
        for half_models in held:
            half_models.select(page.id)
        data = page.html_bytes()
        html = data.decode("utf-8", "replace")
        scored.extend(score(page, s, run_one(s, page, data, html)) for s in systems)
        if n % 50 == 0 or n == len(pages):
            print(f"  {n}/{len(pages)}, {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return scored


def score_rendered(pages: list[WcxbPage], systems: list[str], concurrency: int) -> list[Scored]:
    """The rendered systems: one render per page feeds both."""
    from wcxb_render import render_pages  # here: only a run with a rendered system needs Chromium

    renders = render_pages(pages, concurrency)
    scored: list[Scored] = []
    for page in pages:
        got = renders[page.id]
        texts = {"rendered": got.readermode, "readability-js": got.readability_js}
        scored.extend(
            score(page, system, Outcome(texts[system], got.ms, error=got.error))
            for system in systems
            if system in RENDERED
        )
    return scored


def choose_pages(args: argparse.Namespace, parser: argparse.ArgumentParser) -> list[WcxbPage]:
    pages = pages_for_script(parser, args.corpus)
    if args.sample:
        pages = stratified_sample(pages, args.sample)
    if args.types:
        wanted = {kind.strip() for kind in args.types.split(",") if kind.strip()}
        if unknown := wanted - set(TYPES):
            parser.error(f"unknown types {sorted(unknown)}; choose from {', '.join(TYPES)}")
        pages = [page for page in pages if page.type in wanted]
    return pages[: args.limit] if args.limit else pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="wcxb corpus dir")
    parser.add_argument("--limit", type=int, default=None, help="first N pages by id")
    parser.add_argument("--types", default="", help="comma-separated page types")
    parser.add_argument("--systems", default=",".join(SYSTEMS), help="comma-separated subset")
    parser.add_argument("--sample", type=int, default=0, help="N pages per type (by id hash)")
    parser.add_argument(
        "--render-sample", type=int, default=20, help="N pages per type rendered (0: all)"
    )
    parser.add_argument("--concurrency", type=int, default=2, help="renders at a time")
    parser.add_argument("--out", type=Path, default=REPO / "benchmark-results", help="output dir")
    parser.add_argument(
        "--held-out-types",
        type=Path,
        metavar="DIR",
        help="type each page with the half page-type model not fitted on it (static only; "
        "DIR from train_pagetype_model.py --fold-models)",
    )
    parser.add_argument(
        "--held-out-blocks",
        type=Path,
        metavar="DIR",
        help="read each page with the half block model not grown on it (static only; "
        "DIR from train_block_model.py --fold-models)",
    )
    args = parser.parse_args()
    chosen = {s.strip() for s in args.systems.split(",") if s.strip()}
    if unknown := chosen - set(SYSTEMS):
        parser.error(f"unknown systems {sorted(unknown)}; choose from {', '.join(SYSTEMS)}")
    systems = [s for s in SYSTEMS if s in chosen]
    started = time.perf_counter()
    pages = choose_pages(args, parser)
    print(f"Corpus: {args.corpus} ({len(pages)} pages); systems: {', '.join(systems)}")
    held: list[HeldOutTypes | HeldOutBlocks] = []
    if args.held_out_types:
        held.append(HeldOutTypes(args.held_out_types))
    if args.held_out_blocks:
        held.append(HeldOutBlocks(args.held_out_blocks))
    in_process = [s for s in systems if s not in RENDERED]
    scored = score_in_process(pages, in_process, started, held)
    rendered_ids: set[str] = set()
    if any(s in RENDERED for s in systems):
        to_render = stratified_sample(pages, args.render_sample) if args.render_sample else pages
        rendered_ids = {page.id for page in to_render}
        scored.extend(score_rendered(to_render, systems, args.concurrency))
    args.out.mkdir(parents=True, exist_ok=True)
    write_rows(args.out / "wcxb-scores.csv", scored)
    plot(args.out / "wcxb-f1-by-type.png", scored, systems)
    report(scored, systems, f"every chosen page ({len(pages)})")
    if rendered_ids and len(rendered_ids) < len(pages):
        on_sample = [row for row in scored if row.page.id in rendered_ids]
        report(on_sample, systems, f"the render sample ({len(rendered_ids)} pages), all systems")
        weighted_report(on_sample, pages, systems)
    print(f"\nPer-page rows: {args.out / 'wcxb-scores.csv'}")
    print(f"Plot: {args.out / 'wcxb-f1-by-type.png'}")
    print(f"Total run time: {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
