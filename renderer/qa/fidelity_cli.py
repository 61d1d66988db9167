"""``scripts/reader-fidelity``: is our in-page Readability.js pass Firefox Reader View?

Runs every page of Mozilla's Readability test corpus (``test/test-pages`` of mozilla/readability:
``<name>/source.html``, ``expected.html``, ``expected-metadata.json``) through one Chromium,
exactly as Reader View reads it (``renderer.qa.fidelity.reader_view``), and prints per page whether
the output DOM matches Mozilla's expected output exactly (and where it first differs), the
word-level F1 of the text, and the metadata fields that disagree; then a summary. Exits 0 whatever
the counts (tests/browser/test_reader_fidelity.py is the gate); 1 when no browser can be started,
2 on a usage error (no corpus, no such page).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from extractor import BrowserMissingError
from renderer.browser.launch import launch_browser
from renderer.qa.fidelity import (
    ALL_FIELDS,
    PageFidelity,
    Summary,
    check_corpus,
    corpus_pages,
    summarise,
)

REPO = Path(__file__).resolve().parents[2]  # renderer/qa/fidelity_cli.py: the repository
DEFAULT_CORPUS = REPO.parent / "shared" / "corpora" / "readability-test-pages"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="reader-fidelity",
        description="Compare our in-page Readability.js pass (Firefox Reader View mode) with "
        "Mozilla's expected outputs for its test pages.",
    )
    parser.add_argument(
        "--corpus",
        type=Path,
        default=DEFAULT_CORPUS,
        help="folder of test pages (default: ../shared/corpora/readability-test-pages)",
    )
    parser.add_argument("--only", metavar="NAME", help="run this one test page")
    parser.add_argument("--json", metavar="FILE", type=Path, help="write per-page results here")
    parser.add_argument(
        "--jobs", type=int, default=2, help="pages in flight at once in the one browser (default 2)"
    )
    parser.add_argument(
        "--budget", type=float, default=30.0, help="seconds allowed per page (default 30)"
    )
    parser.add_argument(
        "--keep-comments",
        action="store_true",
        help="leave comment nodes in the document (Reader View's JSDOMParser drops them)",
    )
    parser.add_argument(
        "--browser", metavar="PATH", help="Chromium executable (default: found automatically)"
    )
    return parser


def _table(results: list[PageFidelity]) -> list[str]:
    width = max([len("page"), *(len(r.name) for r in results)])
    lines = [
        f"{'page':<{width}}  exact  {'F1':>6}  {'ms':>6}  metadata disagreeing  first difference"
    ]
    for r in results:
        where = "" if r.exact else f"{r.dom.path}: {r.dom.description}"
        if len(where) > 110:
            where = where[:109] + "…"
        fields = ",".join(r.metadata_disagreements) or "-"
        lines.append(
            f"{r.name:<{width}}  {'yes' if r.exact else 'no':<5}  {r.f1:6.4f}  {r.ms:6.0f}  "
            f"{fields:<20}  {where}"
        )
    return lines


def _summary(summary: Summary, seconds: float) -> list[str]:
    lines = [
        "",
        f"{'pages':<22}{summary.pages}",
        f"{'exact DOM match':<22}{summary.exact_dom}/{summary.pages}",
        f"{'word F1 >= 0.99':<22}{summary.f1_ge_099}/{summary.pages}",
    ]
    for name in ALL_FIELDS:
        lines.append(f"{name + ' agrees':<22}{summary.metadata[name]}/{summary.pages}")
    lines.append(f"{'median ms/page':<22}{summary.median_ms:.0f}")
    lines.append(f"{'wall time':<22}{seconds:.1f} s")
    return lines


async def run(args: argparse.Namespace) -> tuple[list[PageFidelity], float]:
    pages = corpus_pages(args.corpus, args.only)
    handle = await launch_browser(args.browser)
    started = time.perf_counter()
    try:
        results = await check_corpus(
            handle, pages, jobs=args.jobs, budget=args.budget, keep_comments=args.keep_comments
        )
    finally:
        await handle.close()
    return results, time.perf_counter() - started


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if not args.corpus.is_dir():
        print(f"reader-fidelity: no test corpus at {args.corpus}", file=sys.stderr)
        return 2
    if not corpus_pages(args.corpus, args.only):
        what = f"no test page named {args.only!r}" if args.only else "no test pages"
        print(f"reader-fidelity: {what} in {args.corpus}", file=sys.stderr)
        return 2
    try:
        results, seconds = asyncio.run(run(args))
    except BrowserMissingError as exc:
        print(f"reader-fidelity: {exc}", file=sys.stderr)
        return 1
    summary = summarise(results)
    print("\n".join(_table(results) + _summary(summary, seconds)))
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "summary": {**summary.pins(), "median_ms": round(summary.median_ms, 1)},
                    "pages": [r.to_json() for r in results],
                },
                indent=2,
                ensure_ascii=False,
            )
            + "\n",
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
