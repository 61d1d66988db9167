"""Page-type detection against wcxb-dev's labels: accuracy and the confusion matrix.

Usage: pagetype_confusion.py [--sample N] [--errors N] [--held-out-types DIR]. Reads each page as the static path does
(``extractor._pagetype.detect_page_type`` on the decoded, parsed page, with the truth URL) and
compares the result with ``_internal.page_type.primary`` (``category`` as ``collection``).
``--errors N`` prints N misread pages per true type with their evidence. The shipped page-type
model was fitted on these pages: ``--held-out-types DIR`` (the half models of
``train_pagetype_model.py --fold-models DIR``) types each page with the half model that never
saw it, the figure to expect on other pages.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from held_out_types import HeldOutTypes  # noqa: E402

from extractor import ReadermodeError  # noqa: E402
from extractor._decode import decode_html  # noqa: E402
from extractor._pagetype import PAGE_TYPES, detect_page_type  # noqa: E402
from extractor._parse import parse_html  # noqa: E402
from tests.corpus.wcxb import CORPUS, pages_for_script, stratified_sample  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--sample", type=int, default=0, help="N pages per type (by id hash)")
    parser.add_argument("--errors", type=int, default=0, help="misread pages shown per type")
    parser.add_argument("--held-out-types", type=Path, metavar="DIR", help="half models' dir")
    args = parser.parse_args()
    held = HeldOutTypes(args.held_out_types) if args.held_out_types else None
    pages = pages_for_script(parser, args.corpus)
    if args.sample:
        pages = stratified_sample(pages, args.sample)
    matrix: Counter[tuple[str, str]] = Counter()
    misread: dict[str, list[str]] = {}
    ms: list[float] = []
    skipped = 0
    for page in pages:
        try:
            document = parse_html(decode_html(page.html_bytes()).text)
        except ReadermodeError:  # as the static path: too large or undecodable, no type
            skipped += 1
            continue
        if held is not None:
            held.select(page.id)
        started = time.perf_counter()
        found = detect_page_type(document, page.url)
        ms.append((time.perf_counter() - started) * 1000)
        matrix[page.type, found.kind] += 1
        if found.kind != page.type:
            misread.setdefault(page.type, []).append(
                f"  {page.id} {page.type} -> {found.kind}  {page.url}\n    "
                + "; ".join(found.evidence)
            )
    correct, read = sum(matrix[kind, kind] for kind in PAGE_TYPES), sum(matrix.values())
    print(f"{read} pages ({skipped} refused by the decoder), accuracy {correct / read:.3f}, "
          f"median {statistics.median(ms):.2f} ms/page (detection alone)")  # fmt: skip
    print("\ntrue \\ found  " + " ".join(f"{k[:7]:>7}" for k in PAGE_TYPES) + "   recall")
    for true in PAGE_TYPES:
        row = [matrix[true, found] for found in PAGE_TYPES]
        recall = matrix[true, true] / sum(row) if sum(row) else 0.0
        print(f"{true[:13]:<13} " + " ".join(f"{n:>7}" for n in row) + f"   {recall:.3f}")
    precision = [
        matrix[k, k] / total if (total := sum(matrix[t, k] for t in PAGE_TYPES)) else 0.0
        for k in PAGE_TYPES
    ]
    print(f"{'precision':<13} " + " ".join(f"{p:>7.3f}" for p in precision))
    for kind in PAGE_TYPES:
        for line in misread.get(kind, [])[: args.errors]:
            print(line)


if __name__ == "__main__":
    main()
