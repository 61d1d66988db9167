"""The block model: gradient-boosted trees that say, for each block of a page, how likely it is
main content, read from ``models/blocks.json`` and evaluated with numpy.

The trees were grown by scikit-learn's ``HistGradientBoostingClassifier`` in
``scripts/train_block_model.py`` on wcxb-dev (each block labelled by how much of it the ground
truth holds) and written out as plain arrays, so reading a page needs numpy, not scikit-learn.
Every tree is walked for every block at once, one level per step.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from ._blockfeatures import FEATURES

MODEL_FILE = "blocks.json"
ROWS_AT_ONCE = 2048
"""Blocks walked together: 200 trees by 2,048 rows keep each step's arrays near 3 MB, where a
page of 200,000 blocks at once would need gigabytes."""


class ModelMismatchError(RuntimeError):
    """The model file was trained on other features than the code computes."""


@dataclass(frozen=True)
class BlockModel:
    """Trees as padded arrays (one row per tree), the threshold a block is kept at, and where
    the model came from."""

    feature: npt.NDArray[np.intp]
    split: npt.NDArray[np.float64]
    left: npt.NDArray[np.intp]
    right: npt.NDArray[np.intp]
    leaf: npt.NDArray[np.bool_]
    value: npt.NDArray[np.float64]
    baseline: float
    keep_at: float
    max_depth: int
    provenance: dict[str, Any]

    def probabilities(self, rows: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """Each row's probability of being main content (rows taken ``ROWS_AT_ONCE`` at a
        time: the walk holds a node per tree and row)."""
        if not len(rows):
            return np.zeros(0)
        parts = [
            self._chunk(rows[at : at + ROWS_AT_ONCE]) for at in range(0, len(rows), ROWS_AT_ONCE)
        ]
        return np.concatenate(parts)

    def _chunk(self, rows: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        trees = np.arange(len(self.feature))[:, None]
        node = np.zeros((len(self.feature), len(rows)), dtype=np.intp)
        for _ in range(self.max_depth):
            feature = self.feature[trees, node]
            goes_left = rows[np.arange(len(rows))[None, :], feature] <= self.split[trees, node]
            step = np.where(goes_left, self.left[trees, node], self.right[trees, node])
            node = np.where(self.leaf[trees, node], node, step)
        raw = self.baseline + self.value[trees, node].sum(axis=0)
        probability: npt.NDArray[np.float64] = 1.0 / (1.0 + np.exp(-raw))
        return probability


def from_dict(data: dict[str, Any]) -> BlockModel:
    """A model from its JSON form: ``features``, ``baseline``, ``keep_at``, ``trees`` (each
    with ``feature``, ``split``, ``left``, ``right``, ``leaf``, ``value`` node lists)."""
    if tuple(data["features"]) != FEATURES:
        raise ModelMismatchError("the block model was trained on other features; retrain it")
    trees = data["trees"]
    width = max(len(tree["value"]) for tree in trees)

    def padded(key: str, dtype: type, fill: float) -> npt.NDArray[Any]:
        array: npt.NDArray[Any] = np.full((len(trees), width), fill, dtype=dtype)
        for row, tree in enumerate(trees):
            array[row, : len(tree[key])] = tree[key]
        return array

    return BlockModel(
        feature=padded("feature", np.intp, 0),
        split=padded("split", np.float64, 0.0),
        left=padded("left", np.intp, 0),
        right=padded("right", np.intp, 0),
        leaf=padded("leaf", np.bool_, True),
        value=padded("value", np.float64, 0.0),
        baseline=float(data["baseline"]),
        keep_at=float(data["keep_at"]),
        max_depth=int(data["max_depth"]),
        provenance=dict(data.get("provenance", {})),
    )


@cache
def block_model() -> BlockModel | None:
    """The shipped model, read once; None when the package has none (then no block vote)."""
    path = resources.files("extractor").joinpath("models", MODEL_FILE)
    if not path.is_file():
        return None
    return from_dict(json.loads(path.read_text(encoding="utf-8")))
