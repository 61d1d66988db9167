"""Eval gate: readermode static's mean token F1 per page type on a fixed sample of wcxb-dev.

The whole corpus (1,497 pages) takes minutes statically, so the gate reads a deterministic
stratified sample: ``SAMPLE_PER_TYPE`` pages of each of the seven types, picked by a hash of
the id (``tests/corpus/wcxb.py``). Floors are pinned per type in wcxb_floor.json with the
sample's hash by ``scripts/pin-wcxb-floor``; like the article gate's, they never go down
silently (``--lower --reason``), and a changed corpus fails until they are re-pinned.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.corpus.wcxb import (
    CORPUS,
    WcxbPage,
    load_pages,
    per_type_f1,
    sample_digest,
    score_static,
    stratified_sample,
)

FLOOR_FILE = Path(__file__).with_name("wcxb_floor.json")
SAMPLE_PER_TYPE = 20
"""20 pages of each type, 140 in all: 9.7 s of wall time (9.4 s CPU) for this test on the
shared 2-core machine when quiet, 27 to 38 s under heavy load; the whole corpus (1,497 pages)
takes 1.5 to 3 minutes statically."""


def gate_sample() -> tuple[list[WcxbPage], str]:
    """The gate's pages and their digest (which also covers every page's id and type, so a
    corpus change that would move the sample changes it too)."""
    pages = load_pages(CORPUS)
    sample = stratified_sample(pages, SAMPLE_PER_TYPE)
    return sample, sample_digest(pages, sample)


def measure() -> tuple[dict[str, float], int]:
    """Mean F1 per type (and ``all``) on the gate's sample, and the number of pages."""
    sample, _ = gate_sample()
    return per_type_f1(score_static(sample)), len(sample)


@pytest.mark.corpus
def test_static_f1_per_type_stays_above_the_pinned_floors() -> None:
    if not CORPUS.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"shared corpus missing at {CORPUS}: the wcxb gate cannot run")
        pytest.skip(f"wcxb corpus not found at {CORPUS}")
    pinned = json.loads(FLOOR_FILE.read_text(encoding="utf-8"))
    sample, digest = gate_sample()
    assert digest == pinned["corpus_sha256"], (
        "the wcxb sample changed: re-pin with scripts/pin-wcxb-floor and say why in the commit"
    )
    assert len(sample) == pinned["pages"]
    measured = per_type_f1(score_static(sample))
    print("static F1 per type: " + ", ".join(f"{k} {v:.4f}" for k, v in measured.items()))
    below = {
        kind: f"{measured[kind]:.4f} < {floor}"
        for kind, floor in pinned["floors"].items()
        if measured[kind] < floor
    }
    assert not below, f"F1 fell below the pinned floor: {below}"
