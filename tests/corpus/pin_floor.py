"""Writes tests/corpus/f1_floor.json (run through scripts/pin-f1-floor, never by a test)."""

from __future__ import annotations

import argparse
import datetime
import json
import math

from tests.corpus.test_benchmark_gate import CORPUS, FLOOR_FILE, corpus_digest, static_f1

FLOOR_MARGIN = 0.002
"""The floor sits this far below the measured F1, so an unrelated change of one page passes."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lower", action="store_true", help="allow the floor to go down")
    parser.add_argument("--reason", default="", help="why (required with --lower)")
    args = parser.parse_args()
    if args.lower and not args.reason.strip():
        parser.error("--lower needs --reason")

    f1, precision, recall, pages = static_f1(CORPUS)
    floor = math.floor((f1 - FLOOR_MARGIN) * 1000) / 1000
    old = json.loads(FLOOR_FILE.read_text(encoding="utf-8")) if FLOOR_FILE.exists() else None
    if (
        old
        and floor < old["static_f1"]
        and old["corpus_sha256"] == corpus_digest(CORPUS)
        and not args.lower
    ):
        print(f"refusing to lower the floor {old['static_f1']} -> {floor} (F1 {f1:.4f}); "
              "use --lower --reason '...' if this is intended")  # fmt: skip
        return 1
    FLOOR_FILE.write_text(
        json.dumps(
            {
                "static_f1": floor,
                "measured": {
                    "f1": round(f1, 4),
                    "precision": round(precision, 4),
                    "recall": round(recall, 4),
                },
                "pages": pages,
                "corpus_sha256": corpus_digest(CORPUS),
                "pinned_on": datetime.date.today().isoformat(),
                "reason": args.reason or (old or {}).get("reason", "initial pin"),
            },
            indent=2,
        )
        + "\n",
        encoding="utf-8",
    )
    print(
        f"F1 {f1:.4f} (P {precision:.4f} R {recall:.4f}) on {pages} pages; floor pinned at {floor}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
