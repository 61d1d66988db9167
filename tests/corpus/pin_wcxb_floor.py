"""Writes tests/corpus/wcxb_floor.json (run through scripts/pin-wcxb-floor, never by a test)."""

from __future__ import annotations

import argparse
import datetime
import json
import math
import time

from tests.corpus.test_wcxb_gate import FLOOR_FILE, SAMPLE_PER_TYPE, gate_sample
from tests.corpus.wcxb import per_type_f1, score_static

FLOOR_MARGIN = 0.0005
"""The floors sit this far under the measured F1 (then rounded down to 4 places): the static
path is deterministic, so the margin only absorbs float noise between machines."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lower", action="store_true", help="allow a floor to go down")
    parser.add_argument("--reason", default="", help="why (required with --lower)")
    args = parser.parse_args()
    if args.lower and not args.reason.strip():
        parser.error("--lower needs --reason")

    started = time.perf_counter()
    sample, digest = gate_sample()
    measured = per_type_f1(score_static(sample))
    seconds = time.perf_counter() - started
    floors = {
        kind: math.floor((f1 - FLOOR_MARGIN) * 10000) / 10000 for kind, f1 in measured.items()
    }
    old = json.loads(FLOOR_FILE.read_text(encoding="utf-8")) if FLOOR_FILE.exists() else None
    if old and old["corpus_sha256"] == digest and not args.lower:
        lowered = {
            k: (old["floors"][k], v) for k, v in floors.items() if v < old["floors"].get(k, 0)
        }
        if lowered:
            print(f"refusing to lower floors {lowered}; use --lower --reason '...' if intended")
            return 1
    record = {
        "floors": floors,
        "measured": {kind: round(f1, 4) for kind, f1 in measured.items()},
        "sample_per_type": SAMPLE_PER_TYPE,
        "pages": len(sample),
        "corpus_sha256": digest,
        "pinned_on": datetime.date.today().isoformat(),
        "reason": args.reason or (old or {}).get("reason", "initial pin"),
    }
    FLOOR_FILE.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    print(", ".join(f"{k} {v:.4f}" for k, v in measured.items()))
    print(f"{len(sample)} pages in {seconds:.1f} s; floors pinned in {FLOOR_FILE.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
