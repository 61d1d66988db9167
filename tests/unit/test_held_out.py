"""The half models of scripts/held_out_types.py: before each page, the benchmark reads it with
the page-type and block models fitted on the other half of the corpus."""

from __future__ import annotations

import json
import sys
from importlib import resources
from pathlib import Path

import pytest

import extractor._blockvote as blockvote
import extractor._pagetype as pagetype

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from held_out_types import HeldOutBlocks, HeldOutTypes  # noqa: E402
from train_pagetype_model import fold  # noqa: E402


def page_in(half: int) -> str:
    return next(page_id for page_id in (f"{n:04d}" for n in range(100)) if fold(page_id) == half)


def write_halves(folder: Path, model_file: str, key: str) -> None:
    """The shipped model twice, told apart by ``key`` in its provenance: the fold it rates."""
    shipped = json.loads(resources.files("extractor").joinpath("models", model_file).read_text())
    for half in (0, 1):
        data = {**shipped, "provenance": {**shipped.get("provenance", {}), key: half}}
        (folder / f"fold{half}.json").write_text(json.dumps(data))


def test_each_page_is_read_with_the_block_model_not_grown_on_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(blockvote, "block_model", blockvote.block_model)  # restored after
    write_halves(tmp_path, "blocks.json", "rates_fold")
    held = HeldOutBlocks(tmp_path)
    for half in (1, 0, 1):
        held.select(page_in(half))
        model = blockvote.block_model()
        assert model is not None and model.provenance["rates_fold"] == half


def test_each_page_is_typed_with_the_page_model_not_fitted_on_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pagetype, "page_model", pagetype.page_model)
    write_halves(tmp_path, "pagetype.json", "types_fold")
    held = HeldOutTypes(tmp_path)
    for half in (1, 0):
        held.select(page_in(half))
        model = pagetype.page_model()
        assert model is not None and model.provenance["types_fold"] == half
