"""Static-path benchmark: how fast readermode's extractor is and how well it scores, offline.

Part 1, synthetic scaling: pages built in memory (many paragraphs in an <article>, deeply
nested divs, ~50,000 small elements, plus half- and double-size variants) are run through the
full ``extract()`` and through each stage alone; the median wall time of ``--repeat`` runs is
printed with the stage that won. The target is under 1 s per page.

Part 2, corpus: every page of the article-extraction benchmark (html/<id>.html.gz plus
ground-truth.json) is run, in one pass, through readermode's default static cascade,
readermode's scorer stage alone, and readability-lxml used the plain way (``Document(html)
.summary(html_partial=True)`` then ``text_content()``). Scoring is ``extractor.shingle_score``:
``\\w+`` tokens, multisets of 4-token shingles, each page's true-positive / false-positive /
miss counts normalised to sum to 1; ``extractor.aggregate`` sums the normalised counts over
pages and precision, recall and F1 come from the sums. An error counts as empty output (score
0) and is counted. Per-page rows go to ``--out``/static-corpus.csv; pages where the default
cascade's F1 is more than 0.1 below readability-lxml's are listed at the end.

Timings include decoding and parsing; the machine is shared and noisy, so medians are shown.

Usage: benchmark_static.py [--repeat N] [--corpus DIR] [--limit N] [--out DIR] [--skip-corpus].
``--skip-corpus`` runs part 1 only: ./scripts/benchmark does that, then runs
scripts/benchmark_corpus.py, which scores readermode (static and rendered) against
Readability.js, readability-lxml and trafilatura on the same corpus.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import lxml.etree
import lxml.html
from readability import Document

import extractor
from extractor import ExtractOptions, ShingleScore
from extractor._scorer import MAX_ELEMENTS

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = REPO.parent / "shared" / "corpora" / "article-benchmark"
TARGET_MS = 1000.0
LOSS_MARGIN = 0.1
VOCAB = (
    "alpha river stone quiet market signal harbour winter lantern orchard copper meadow "
    "engine thunder velvet garden sailor compass marble thistle canyon bramble ember falcon"
).split()
ONLY_LXML = ExtractOptions(stages=(extractor.ReadabilityLxmlStage(),))
ONLY_SCORER = ExtractOptions(stages=(extractor.ScorerStage(),))
Run = Callable[[], tuple[str, str]]  # -> (text, stage)


def sentence(n: int, seed: int) -> str:
    words = [VOCAB[(seed * 7 + i * 3 + i // len(VOCAB)) % len(VOCAB)] for i in range(n)]
    return " ".join(words).capitalize() + "."


def page_paragraphs(count: int) -> str:
    # Each paragraph carries its number: the sentences repeat every 24 paragraphs, and the
    # ``repeated-blocks`` refinement drops a run that repeats the run right before it.
    body = "".join(f"<p>{sentence(40, i)} Paragraph {i}.</p>\n" for i in range(count))
    return f"<html><head><title>Paragraphs</title></head><body><article>{body}</article></body>"


def page_nested(depth: int) -> str:
    opened = "".join(
        f"<div class='level{i}'>" + (f"<p>{sentence(30, i)}</p>" if i % 25 == 0 else "")
        for i in range(depth)
    )
    return f"<html><body>{opened}<p>{sentence(30, depth)}</p>{'</div>' * depth}</body></html>"


def page_many(elements: int) -> str:
    # <html><head><title><body> plus blocks of 3 elements: <div><span>..</span> <a>..</a></div>.
    blocks = "".join(
        f"<div class=c{i % 9}><span>{VOCAB[i % 24]} {i}</span> <a href=/{i}>{VOCAB[i % 7]}</a>"
        "</div>"
        for i in range((elements - 4) // 3)
    )
    return f"<html><head><title>Many</title></head><body>{blocks}</body></html>"


def shape(html: str) -> str:
    """Elements and max depth as lxml's HTML parser keeps them, KB, and words in the source."""
    root = lxml.html.document_fromstring(html)
    elements = list(root.iter(lxml.etree.Element))
    depth = max(sum(1 for _ in e.iterancestors()) for e in elements)
    words = len(re.sub(r"<[^>]*>", " ", html).split())
    return f"{len(elements):>9,} {depth:>5} {len(html.encode()) // 1024:>6} {words:>8,}"


def timed(run: Run) -> tuple[float, str, str, bool]:
    """(ms, text, stage, failed): an exception is empty output with stage 'error:<Type>'."""
    started = time.perf_counter()
    try:
        text, stage = run()
        failed = False
    except Exception as exc:
        text, stage, failed = "", f"error:{type(exc).__name__}", True
    return (time.perf_counter() - started) * 1000, text, stage, failed


def readermode(data: bytes | str, url: str | None, options: ExtractOptions | None) -> Run:
    def run() -> tuple[str, str]:
        result = extractor.extract(data, url=url, options=options)
        return result.text, result.stage

    return run


def readability_plain(data: bytes) -> Run:
    def run() -> tuple[str, str]:
        summary = Document(data.decode("utf-8", "replace")).summary(html_partial=True)
        return lxml.html.fromstring(summary).text_content(), "readability-lxml"

    return run


def synthetic(repeat: int) -> None:
    a, b, c, full, every = 2000, 400, 50_000, ("full",), ("full", "readability-lxml", "scorer")
    pages: list[tuple[str, str, tuple[str, ...]]] = [
        (f"(a) {a // 2:,} <p> half", page_paragraphs(a // 2), full),
        (f"(a) {a:,} <p>", page_paragraphs(a), every),
        (f"(a) {a * 2:,} <p> double", page_paragraphs(a * 2), full),
        (f"(b) {b} nested divs", page_nested(b), every),
        (f"(c) ~{c // 2:,} elements half", page_many(c // 2), full),
        (f"(c) ~{c:,} elements", page_many(c), every),
        (f"(c) ~{c * 2:,} elements double", page_many(c * 2), full),
    ]
    options = {"full": None, "readability-lxml": ONLY_LXML, "scorer": ONLY_SCORER}
    extractor.extract("<p>warm up the imports and caches</p>")
    print(f"Synthetic scaling: median of {repeat} runs; target < {TARGET_MS:.0f} ms each")
    head = f"{'page':<28} {'elements':>9} {'depth':>5} {'KB':>6} {'words in':>8}  {'run':<16}"
    print(f"{head} {'median ms':>9}  {'<1s':<3} {'words out':>9}  stage")
    print("-" * (len(head) + 40))
    for name, html, modes in pages:
        facts = shape(html)
        for mode in modes:
            runs = [timed(readermode(html, None, options[mode])) for _ in range(repeat)]
            ms = statistics.median(r[0] for r in runs)
            out = len(runs[-1][1].split())
            ok = "yes" if ms < TARGET_MS else "NO"
            print(f"{name:<28} {facts}  {mode:<16} {ms:>9.1f}  {ok:<3} {out:>9,}  {runs[-1][2]}")
    print("(elements and depth: what lxml keeps; libxml2 drops nesting past depth 255 and the")
    print(f" content inside it. Scorer cap: {MAX_ELEMENTS:,} elements, then it skips.)\n")


def corpus(path: Path, limit: int | None, out: Path) -> None:
    truth: dict[str, dict[str, str]] = json.loads((path / "ground-truth.json").read_text("utf-8"))
    ids = sorted(truth)[:limit] if limit else sorted(truth)
    systems = ("readermode static", "readermode scorer-only", "readability-lxml")
    scores: dict[str, list[ShingleScore]] = {s: [] for s in systems}
    times: dict[str, list[float]] = {s: [] for s in systems}
    errors: Counter[str] = Counter()
    rows: list[dict[str, object]] = []
    by_page: dict[str, dict[str, tuple[float, str]]] = {}
    started = time.perf_counter()
    for n, page_id in enumerate(ids, 1):
        data = gzip.decompress((path / "html" / f"{page_id}.html.gz").read_bytes())
        url, reference = truth[page_id].get("url"), truth[page_id].get("articleBody") or ""
        runs: dict[str, Run] = {
            "readermode static": readermode(data, url, None),
            "readermode scorer-only": readermode(data, url, ONLY_SCORER),
            "readability-lxml": readability_plain(data),
        }
        for system, run in runs.items():
            ms, text, stage, failed = timed(run)
            score = extractor.shingle_score(text, reference)
            scores[system].append(score)
            times[system].append(ms)
            errors[system] += failed
            by_page.setdefault(page_id, {})[system] = (score.f1, stage)
            rows.append(
                {
                    "id": page_id,
                    "system": system,
                    "precision": f"{score.precision:.4f}",
                    "recall": f"{score.recall:.4f}",
                    "f1": f"{score.f1:.4f}",
                    "ms": f"{ms:.1f}",
                    "stage": stage,
                }
            )
        if n % 20 == 0 or n == len(ids):
            elapsed = time.perf_counter() - started
            print(f"  corpus: {n}/{len(ids)} pages, {elapsed:.0f} s", file=sys.stderr, flush=True)

    out.mkdir(parents=True, exist_ok=True)
    csv_path = out / "static-corpus.csv"
    with csv_path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]) if rows else ["id"])
        writer.writeheader()
        writer.writerows(rows)

    print(f"Corpus: {path} ({len(ids)} pages); shingle score, normalised counts summed")
    head = f"{'system':<24} {'F1':>6} {'prec':>6} {'recall':>6} {'median ms':>9} {'p90 ms':>8}"
    print(f"{head} {'max ms':>8} {'errors':>6}")
    print("-" * (len(head) + 16))
    for system in systems:
        total = extractor.aggregate(scores[system])
        ms = sorted(times[system])
        p90 = ms[min(len(ms) - 1, int(0.9 * len(ms)))] if ms else 0.0
        print(
            f"{system:<24} {total.f1:>6.3f} {total.precision:>6.3f} {total.recall:>6.3f} "
            f"{statistics.median(ms) if ms else 0:>9.1f} {p90:>8.1f} {max(ms, default=0):>8.1f} "
            f"{errors[system]:>6}"
        )
    stages = Counter(result["readermode static"][1] for result in by_page.values())
    print(
        "readermode static, pages won by stage: "
        + ", ".join(f"{name} {count}" for name, count in stages.most_common())
    )
    print(f"Per-page results: {csv_path}\n")

    lost = [
        (page_id, r["readermode static"], r["readability-lxml"][0])
        for page_id, r in by_page.items()
        if r["readermode static"][0] < r["readability-lxml"][0] - LOSS_MARGIN
    ]
    lost.sort(key=lambda item: item[1][0] - item[2])
    print(
        f"Pages we lose (readermode static F1 > {LOSS_MARGIN} below readability-lxml): {len(lost)}"
    )
    if lost:
        print(f"{'id':<64} {'static':>6} {'r-lxml':>6}  stage")
        for page_id, (f1, stage), lxml_f1 in lost:
            print(f"{page_id:<64} {f1:>6.3f} {lxml_f1:>6.3f}  {stage}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per synthetic timing")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="benchmark dir")
    parser.add_argument("--limit", type=int, default=None, help="first N corpus pages by id")
    parser.add_argument("--out", type=Path, default=REPO / "benchmark-results", help="CSV dir")
    parser.add_argument("--skip-corpus", action="store_true", help="synthetic part only")
    args = parser.parse_args()
    started = time.perf_counter()
    synthetic(max(1, args.repeat))
    if not args.skip_corpus:
        corpus(args.corpus, args.limit, args.out)
    print(f"\nTotal run time: {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
