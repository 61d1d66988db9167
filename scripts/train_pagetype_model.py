"""Fit the page-type model (extractor/models/pagetype.json) on wcxb-dev's labels, and print how
it does on pages it was not fitted on.

Usage: train_pagetype_model.py [--corpus DIR] [--c C] [--jobs N] [--cv-only] [--out FILE]
[--fold-models DIR]

Each page is read as the static path reads it (decoded, parsed, ``page_reading`` on the
untouched page with the truth URL): the rules' weights and the page's row of
``extractor._pagefeatures.FEATURES``. Its label is ``_internal.page_type.primary``
(``category`` as ``collection``).

Two-fold cross-validation by a hash of the page id (the block model's folds,
``scripts/train_block_model.py``): a model fitted on one half types the other half; the
accuracy and confusion matrix printed are of those held-out types, beside the rules' alone on
the same pages. Then the model is fitted on every page and written with its provenance.
``--fold-models DIR`` also writes the two half models (``fold0.json`` types the pages of
fold 0 and was fitted on fold 1), which ``scripts/held_out_types.py`` swaps in so that
benchmarks score each page with a model that never saw it. Needs scikit-learn (the ``train``
extra); the shipped model is read with numpy alone. Deterministic: the same corpus gives the
same file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from extractor import ReadermodeError  # noqa: E402
from extractor._decode import decode_html  # noqa: E402
from extractor._pagefeatures import FEATURES, PAGE_TYPES  # noqa: E402
from extractor._pagemodel import from_dict  # noqa: E402
from extractor._pagetype import decide, page_reading, rule_type  # noqa: E402
from extractor._parse import parse_html  # noqa: E402
from tests.corpus.wcxb import CORPUS, WcxbPage, pages_for_script, sample_digest  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
MODEL_PATH = REPO / "extractor" / "models" / "pagetype.json"
C = 0.1
"""Inverse L2 strength, chosen by held-out accuracy: 0.822 at 0.01, 0.845 at 0.03, 0.846 at
0.1, 0.807 at 0.3 with balanced class weights (which cost articles: recall 0.95 -> 0.87, so
the classes keep their corpus weights)."""


def fold(page_id: str) -> int:
    """The page's half: the block model's folds, so a page held out there is held out here."""
    return int(hashlib.sha256(f"fold:{page_id}".encode()).hexdigest(), 16) % 2


Read = tuple[str, str, list[float], dict[str, float]]


def read(page: WcxbPage) -> Read | None:
    """(id, label, feature row, the rules' weights) for one page; None when the decoder
    refuses it, as the static path would."""
    try:
        document = parse_html(decode_html(page.html_bytes()).text)
    except ReadermodeError:
        return None
    weights, _, row = page_reading(document, page.url)
    return page.id, page.type, row.tolist(), weights


def fit(rows: np.ndarray, labels: np.ndarray, c: float = C):  # type: ignore[no-untyped-def]
    """A scaler and a multinomial logistic regression fitted on these rows."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    scaler = StandardScaler().fit(rows)
    scale = np.where(scaler.scale_ > 0, scaler.scale_, 1.0)
    model = LogisticRegression(C=c, max_iter=5000)
    model.fit((rows - scaler.mean_) / scale, labels)
    return scaler.mean_, scale, model


def export(mean, scale, model, provenance: dict[str, object]) -> dict[str, object]:  # type: ignore[no-untyped-def]
    """The fitted model as the plain arrays ``extractor._pagemodel.from_dict`` reads, its
    rows in ``PAGE_TYPES`` order."""
    order = [list(model.classes_).index(kind) for kind in PAGE_TYPES]
    return {
        "features": list(FEATURES),
        "types": list(PAGE_TYPES),
        "mean": [round(float(v), 9) for v in mean],
        "scale": [round(float(v), 9) for v in scale],
        "coef": [[round(float(v), 9) for v in model.coef_[i]] for i in order],
        "intercept": [round(float(model.intercept_[i]), 9) for i in order],
        "provenance": provenance,
    }


def held_out(pages: list[Read], c: float) -> np.ndarray:
    """Each page's type as ``detect_page_type`` decides it (``_pagetype.decide``: the rules
    when decisive, else the model) with the model fitted on the other half."""
    folds = np.array([fold(page[0]) for page in pages])
    rows, labels = _rows(pages), _labels(pages)
    found = np.empty(len(pages), dtype=object)
    for half in (0, 1):
        exported = export(*fit(rows[folds != half], labels[folds != half], c), {})
        model = from_dict(exported)
        for at in np.flatnonzero(folds == half):
            weights = pages[at][3]
            found[at] = decide(weights, (), model.probabilities(rows[at])).kind
    return found


def _rows(pages: list[Read]) -> np.ndarray:
    return np.array([page[2] for page in pages], dtype=np.float64)


def _labels(pages: list[Read]) -> np.ndarray:
    return np.array([page[1] for page in pages], dtype=object)


def print_confusion(title: str, labels: np.ndarray, found: np.ndarray) -> float:
    """The confusion matrix, recall and precision per type; returns the accuracy."""
    matrix = Counter(zip(labels, found, strict=True))
    accuracy = float(np.mean(labels == found))
    print(f"\n{title}: accuracy {accuracy:.3f}")
    print("true \\ found  " + " ".join(f"{k[:7]:>7}" for k in PAGE_TYPES) + "   recall")
    for true in PAGE_TYPES:
        row = [matrix[true, kind] for kind in PAGE_TYPES]
        print(f"{true[:13]:<13} " + " ".join(f"{n:>7}" for n in row)
              + f"   {matrix[true, true] / max(sum(row), 1):.3f}")  # fmt: skip
    precision = [matrix[k, k] / max(sum(matrix[t, k] for t in PAGE_TYPES), 1) for k in PAGE_TYPES]
    print(f"{'precision':<13} " + " ".join(f"{p:>7.3f}" for p in precision))
    return accuracy


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--c", type=float, default=C, help="inverse L2 strength")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cv-only", action="store_true", help="print, do not write the model")
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    parser.add_argument("--fold-models", type=Path, help="also write the two half models here")
    args = parser.parse_args()

    started = time.perf_counter()
    corpus = pages_for_script(parser, args.corpus)
    with Pool(args.jobs) as pool:
        read_pages = [found for found in pool.map(read, corpus, chunksize=16) if found]
    ids, rows, labels = [page[0] for page in read_pages], _rows(read_pages), _labels(read_pages)
    rules = np.array([rule_type(page[3], ()).kind for page in read_pages], dtype=object)
    print(f"{len(ids)} of {len(corpus)} pages read in {time.perf_counter() - started:.0f} s")
    print_confusion("the rules alone", labels, rules)
    accuracy = print_confusion(
        f"detection with the model, two-fold held out (C={args.c:g})",
        labels,
        held_out(read_pages, args.c),
    )
    if args.cv_only:
        return 0
    provenance = {
        "corpus": "wcxb-dev",
        "corpus_sha256": sample_digest(corpus, corpus, args.corpus),
        "pages": len(ids),
        "c": args.c,
        "cross_validated_accuracy": round(accuracy, 4),
        "rules_accuracy": round(float(np.mean(labels == rules)), 4),
        "trained_by": "scripts/train_pagetype_model.py",
    }
    args.out.write_text(json.dumps(export(*fit(rows, labels, args.c), provenance), indent=0))
    print(f"wrote {args.out}")
    if args.fold_models:
        args.fold_models.mkdir(parents=True, exist_ok=True)
        folds = np.array([fold(page_id) for page_id in ids])
        for half in (0, 1):
            model = fit(rows[folds != half], labels[folds != half], args.c)
            data = export(*model, {**provenance, "fitted_on_fold": 1 - half})
            (args.fold_models / f"fold{half}.json").write_text(json.dumps(data))
        print(f"wrote {args.fold_models}/fold0.json and fold1.json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
