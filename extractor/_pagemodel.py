"""The page-type model: a multinomial logistic regression over ``_pagefeatures.FEATURES`` that
gives each of the seven page types a probability, read from ``models/pagetype.json`` and
evaluated with numpy.

It was fitted by scikit-learn in ``scripts/train_pagetype_model.py`` on wcxb-dev's labels
(its two-fold cross-validated accuracy is in the file's provenance) and written out as plain
arrays: each feature is centred and scaled, then a linear score per type, then a softmax.
A linear model was chosen over trees for a few hundred pages a type: it cannot memorise a
site's quirks, and each type's score is a sum of named parts.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from ._pagefeatures import FEATURES, PAGE_TYPES

MODEL_FILE = "pagetype.json"


class PageModelMismatchError(RuntimeError):
    """The model file was fitted on other features or types than the code computes."""


@dataclass(frozen=True)
class PageModel:
    """Centring, scaling, one weight row and intercept per type, and where it came from."""

    mean: npt.NDArray[np.float64]
    scale: npt.NDArray[np.float64]
    coef: npt.NDArray[np.float64]  # (types, features)
    intercept: npt.NDArray[np.float64]
    provenance: dict[str, Any]

    def scores(self, row: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """Each type's linear score for one page's feature row."""
        scores: npt.NDArray[np.float64] = self.coef @ ((row - self.mean) / self.scale)
        return scores + self.intercept

    def probabilities(self, row: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """Each type's probability (in ``PAGE_TYPES`` order) for one page's feature row."""
        scores = self.scores(row)
        exp = np.exp(scores - scores.max())
        probabilities: npt.NDArray[np.float64] = exp / exp.sum()
        return probabilities


def from_dict(data: dict[str, Any]) -> PageModel:
    """A model from its JSON form: ``features``, ``types``, ``mean``, ``scale``, ``coef``,
    ``intercept`` and ``provenance``."""
    if tuple(data["features"]) != FEATURES or tuple(data["types"]) != PAGE_TYPES:
        raise PageModelMismatchError("the page-type model was fitted on other features; refit it")
    return PageModel(
        mean=np.array(data["mean"], dtype=np.float64),
        scale=np.array(data["scale"], dtype=np.float64),
        coef=np.array(data["coef"], dtype=np.float64),
        intercept=np.array(data["intercept"], dtype=np.float64),
        provenance=dict(data.get("provenance", {})),
    )


@cache
def page_model() -> PageModel | None:
    """The shipped model, read once; None when the package has none (then the rules decide)."""
    path = resources.files("extractor").joinpath("models", MODEL_FILE)
    if not path.is_file():
        return None
    return from_dict(json.loads(path.read_text(encoding="utf-8")))
