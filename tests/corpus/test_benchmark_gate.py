"""Eval gate: shingle F1 of the static path on the shared article benchmark (134 real pages).

The floor is pinned in f1_floor.json with the corpus's hash. It cannot go down silently: only
``scripts/pin-f1-floor --lower --reason "..."`` lowers it, and the reason goes into the file
and the commit. A changed corpus fails until the floor is re-pinned for it.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
from pathlib import Path

import pytest

from extractor import NoContentError, aggregate, extract, shingle_score
from tests.conftest import SHARED

CORPUS = SHARED / "corpora" / "article-benchmark"
FLOOR_FILE = Path(__file__).with_name("f1_floor.json")


def corpus_digest(corpus: Path) -> str:
    digest = hashlib.sha256()
    digest.update((corpus / "ground-truth.json").read_bytes())
    for path in sorted((corpus / "html").glob("*.html.gz")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def static_f1(corpus: Path) -> tuple[float, float, float, int]:
    truth = json.loads((corpus / "ground-truth.json").read_text(encoding="utf-8"))
    scores = []
    for page_id, entry in sorted(truth.items()):
        raw = gzip.decompress((corpus / "html" / f"{page_id}.html.gz").read_bytes())
        try:
            text = extract(raw, url=entry.get("url")).text
        except NoContentError:
            text = ""
        scores.append(shingle_score(text, entry["articleBody"]))
    total = aggregate(scores)
    return total.f1, total.precision, total.recall, len(scores)


@pytest.mark.corpus
def test_static_f1_stays_above_the_pinned_floor() -> None:
    if not CORPUS.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"shared corpus missing at {CORPUS}: the eval gate cannot run")
        pytest.skip(f"shared corpus not found at {CORPUS}")
    pinned = json.loads(FLOOR_FILE.read_text(encoding="utf-8"))
    assert corpus_digest(CORPUS) == pinned["corpus_sha256"], (
        "the benchmark corpus changed: re-pin with scripts/pin-f1-floor and say why in the commit"
    )
    f1, precision, recall, pages = static_f1(CORPUS)
    print(
        f"static F1 {f1:.4f} (P {precision:.4f} R {recall:.4f}) on {pages} pages; floor {pinned['static_f1']}"
    )
    assert pages == pinned["pages"]
    assert f1 >= pinned["static_f1"], (
        f"F1 {f1:.4f} fell below the pinned floor {pinned['static_f1']}"
    )
