"""Train the block model (extractor/models/blocks.json) on wcxb-dev, and print how it does on
pages it was not trained on.

Usage: train_block_model.py [--corpus DIR] [--iterations N] [--keep-at P] [--jobs N]
[--cv-only] [--out FILE] [--held-out-types DIR] [--fold-models DIR]

Each page is extracted as ``readermode FILE --no-render`` does, with the block vote asked on
every page and its model replaced by a recorder: that gives each block's feature row (exactly
what ``extractor._blockfeatures`` computes at run time) and the page's reading without the vote.
A block's label is whether the ground truth holds at least half of its word trigrams (its
words, below three), and it weighs the square root of its word count: the metric counts words.

Two-fold cross-validation by a hash of the page id: trees grown on one half rate the other
half's blocks; per page type, the mean token F1 (the corpus's metric, on the kept blocks'
words without the title line) of the vote, of the reading without it, and of the vote where
``extractor._combine.voted`` applies it, at several thresholds. Then the model is grown on
every page and written, with its provenance. ``--held-out-types DIR`` types each page with the
half page-type model not fitted on it (``train_pagetype_model.py --fold-models DIR``): the
cross-validation then holds the page types out too, and the trees learn from types as noisy
as a new page's; the shipped model is grown that way. ``--fold-models DIR`` also writes the two
half models (``fold0.json`` rates the pages of fold 0 and was grown on fold 1), which
``benchmark_wcxb.py --held-out-blocks DIR`` swaps in so that the whole pipeline reads each
page with trees that never saw it. Needs scikit-learn (the ``train`` extra); the shipped model
is read with numpy alone.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from held_out_types import HeldOutTypes  # noqa: E402
from train_pagetype_model import fold  # noqa: E402

import extractor._blockvote as blockvote  # noqa: E402
import extractor._combine as combine  # noqa: E402
from extractor import PageSnapshot, ReadermodeError, extract  # noqa: E402
from extractor._blockfeatures import FEATURES, Reading  # noqa: E402
from extractor._blockvote import KEEP_AT_BY_TYPE, kept_blocks  # noqa: E402
from extractor._pagetype import PageType  # noqa: E402
from extractor._segment import PageBlock  # noqa: E402
from extractor._token_score import token_score  # noqa: E402
from tests.corpus.wcxb import CORPUS, TYPES, WcxbPage, pages_for_script, sample_digest  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
MODEL_PATH = REPO / "extractor" / "models" / "blocks.json"
LABEL_SHARE = 0.5
THRESHOLDS = (0.3, 0.35, 0.4, 0.45, 0.5, 0.55)
KEEP_AT = 0.35
GUARD_SHARES = (0.05, 0.1, 0.2, 0.3)
"""``combine.VOTE_MIN_SHARE`` values tried at ``KEEP_AT`` (rows ``min{share}@{KEEP_AT}``)."""
TREE_PARAMS = {"learning_rate": 0.1, "max_leaf_nodes": 31, "max_depth": 8, "l2_regularization": 1.0}


@dataclass
class PageRows:
    id: str
    type: str
    voted: bool  # would the shipped code vote on this page (its detected type)?
    kind: str  # the detected type, which picks the threshold (blockvote.KEEP_AT_BY_TYPE)
    rows: np.ndarray
    tokens: list[tuple[str, ...]]
    labels: np.ndarray
    weights: np.ndarray
    reading: str  # what the page reads without the vote (the title line left out)
    reference: str


class _Recorder:
    """Stands in for the model: keeps the rows it is asked about and keeps no block."""

    keep_at = 1.0

    def __init__(self) -> None:
        self.rows: list[np.ndarray] = []

    def probabilities(self, rows: np.ndarray) -> np.ndarray:
        self.rows.append(rows)
        return np.zeros(len(rows))


HELD: list[HeldOutTypes] = []
"""The half page-type models when ``--held-out-types`` is given (set before the workers fork)."""


def _record(
    page: WcxbPage,
    snapshot: PageSnapshot | None = None,
    extra: Callable[[list[PageBlock]], np.ndarray] | None = None,
) -> PageRows | None:
    """The page's block rows, read from its HTML as the static path does, or from
    ``snapshot`` (a render of it); ``extra`` adds columns of its own to the rows."""
    recorder, blocks_seen, types_seen = _Recorder(), [], []
    if HELD:
        HELD[0].select(page.id)
    real_segment, real_voted = blockvote.segment, combine.voted

    def segment(body: object) -> list[PageBlock]:
        found = real_segment(body)  # type: ignore[arg-type]
        blocks_seen.append(found)
        return found

    def voted(page_type: PageType) -> bool:
        types_seen.append((real_voted(page_type), page_type.kind))
        return True

    def nothing_kept(rows: np.ndarray, probabilities: np.ndarray, keep_at: float) -> np.ndarray:
        return np.zeros(len(rows), dtype=bool)  # the vote skips: the reading without it

    blockvote.block_model = lambda: recorder  # type: ignore[assignment]
    blockvote.segment, combine.voted = segment, voted  # type: ignore[assignment]
    blockvote.kept_blocks = nothing_kept  # type: ignore[assignment]
    try:
        if snapshot is None:
            extraction = extract(page.html_bytes(), url=page.url)
        else:
            extraction = extract(snapshot)
    except ReadermodeError:
        return None
    finally:
        blockvote.segment, combine.voted = real_segment, real_voted
        blockvote.kept_blocks = kept_blocks
    if not recorder.rows or not blocks_seen:
        return None
    blocks, truth = blocks_seen[-1], Reading(page.reference)
    rows = recorder.rows[-1] if extra is None else np.hstack([recorder.rows[-1], extra(blocks)])
    return PageRows(
        id=page.id,
        type=page.type,
        voted=types_seen[-1][0],
        kind=types_seen[-1][1],
        rows=rows,
        tokens=[block.tokens for block in blocks],
        labels=np.array([truth.vote(block.tokens) >= LABEL_SHARE for block in blocks]),
        weights=np.array([len(block.tokens) ** 0.5 for block in blocks]),
        reading=extraction.text,
        reference=page.reference,
    )


def _grow(pages: list[PageRows], iterations: int):  # type: ignore[no-untyped-def]
    from sklearn.ensemble import HistGradientBoostingClassifier

    model = HistGradientBoostingClassifier(max_iter=iterations, random_state=0, **TREE_PARAMS)
    model.fit(
        np.vstack([p.rows for p in pages]),
        np.concatenate([p.labels for p in pages]),
        sample_weight=np.concatenate([p.weights for p in pages]),
    )
    return model


def _kept_text(page: PageRows, probabilities: np.ndarray, keep_at: float) -> str:
    kept = kept_blocks(page.rows, probabilities, keep_at)
    return " ".join(" ".join(t) for t, keep in zip(page.tokens, kept, strict=True) if keep)


def half_models(pages: list[PageRows], iterations: int) -> list:  # type: ignore[type-arg]
    """Trees for each fold, grown on the other fold's pages (the first rates fold 0)."""
    return [_grow([p for p in pages if fold(p.id) != half], iterations) for half in (0, 1)]


def cross_validate(pages: list[PageRows], halves: list) -> dict[str, dict[str, float]]:  # type: ignore[type-arg]
    """Mean F1 per system and type on held-out halves (``vote@T``, ``shipped@T``, ``without``,
    and ``shipped@by-type``: each page at its detected type's threshold, ``KEEP_AT`` or
    ``blockvote.KEEP_AT_BY_TYPE``'s, as the shipped code reads it): each of ``halves``
    (``half_models``) rates the pages of its fold."""
    held: list[tuple[PageRows, np.ndarray]] = []
    for half, model in enumerate(halves):
        held += [(p, model.predict_proba(p.rows)[:, 1]) for p in pages if fold(p.id) == half]
    scores: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for page, probabilities in held:
        without = token_score(page.reading, page.reference).f1
        without_words = len(page.reading.split())
        for kind in ("all", page.type):
            scores["without"][kind].append(without)
            for keep_at in THRESHOLDS:
                kept = _kept_text(page, probabilities, keep_at)
                vote = token_score(kept, page.reference).f1
                scores[f"vote@{keep_at}"][kind].append(vote)
                # As combine._vote: a vote of under VOTE_MIN_SHARE of the words is rejected.
                share = combine.VOTE_MIN_SHARE
                kept_enough = len(kept.split()) >= share * without_words
                shipped = vote if page.voted and kept_enough else without
                scores[f"shipped@{keep_at}"][kind].append(shipped)
                if keep_at == KEEP_AT_BY_TYPE.get(page.kind, KEEP_AT):
                    scores["shipped@by-type"][kind].append(shipped)
                for share in GUARD_SHARES if keep_at == KEEP_AT else ():
                    kept_enough = len(kept.split()) >= share * without_words
                    guarded = vote if page.voted and kept_enough else without
                    scores[f"min{share}@{keep_at}"][kind].append(guarded)
    return {
        system: {kind: statistics.fmean(values) for kind, values in by_kind.items()}
        for system, by_kind in scores.items()
    }


def export(model, keep_at: float, provenance: dict[str, object]) -> dict[str, object]:  # type: ignore[no-untyped-def]
    """The grown trees as the plain arrays ``extractor._blockmodel.from_dict`` reads."""
    trees = []
    for (predictor,) in model._predictors:
        nodes = predictor.nodes
        trees.append(
            {
                "feature": nodes["feature_idx"].tolist(),
                "split": nodes["num_threshold"].tolist(),  # exact: a value can equal a split
                "left": nodes["left"].tolist(),
                "right": nodes["right"].tolist(),
                "leaf": nodes["is_leaf"].astype(bool).tolist(),
                "value": nodes["value"].tolist(),
            }
        )
    depth = max(int(predictor.nodes["depth"].max()) for (predictor,) in model._predictors)
    return {
        "features": list(FEATURES),
        "baseline": float(np.ravel(model._baseline_prediction)[0]),
        "keep_at": keep_at,
        "max_depth": depth,
        "provenance": provenance,
        "trees": trees,
    }


def _print_table(figures: dict[str, dict[str, float]]) -> None:
    print(f"{'system':14s}" + "".join(f"{kind[:6]:>8s}" for kind in ("all", *TYPES)))
    for system, by_kind in figures.items():
        print(f"{system:14s}" + "".join(f"{by_kind.get(k, 0):8.3f}" for k in ("all", *TYPES)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--keep-at", type=float, default=KEEP_AT, help="threshold written out")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cv-only", action="store_true", help="print, do not write the model")
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    parser.add_argument(
        "--held-out-types",
        type=Path,
        metavar="DIR",
        help="type each page with the half page-type model not fitted on it "
        "(DIR from train_pagetype_model.py --fold-models): then the cross-validation holds "
        "out the page types too",
    )
    parser.add_argument(
        "--fold-models",
        type=Path,
        metavar="DIR",
        help="also write the two half models here (for benchmark_wcxb.py --held-out-blocks)",
    )
    args = parser.parse_args()
    if args.held_out_types:
        HELD.append(HeldOutTypes(args.held_out_types))

    started = time.perf_counter()
    corpus = pages_for_script(parser, args.corpus)
    with Pool(args.jobs) as pool:
        recorded = pool.map(_record, corpus, chunksize=8)
    pages = [page for page in recorded if page is not None and len(page.rows)]
    print(f"{len(pages)} of {len(corpus)} pages recorded in {time.perf_counter() - started:.0f} s")
    halves = half_models(pages, args.iterations)  # scored here, written with --fold-models
    figures = cross_validate(pages, halves)
    _print_table(figures)
    if args.cv_only:
        return 0
    model = _grow(pages, args.iterations)
    provenance = {
        "corpus": "wcxb-dev",
        "corpus_sha256": sample_digest(corpus, corpus, args.corpus),
        "pages": len(pages),
        "blocks": int(sum(len(p.rows) for p in pages)),
        "iterations": args.iterations,
        "params": TREE_PARAMS,
        "label_share": LABEL_SHARE,
        "cross_validated_f1": {
            k: round(v, 4) for k, v in figures[f"shipped@{args.keep_at}"].items()
        }
        if args.keep_at in THRESHOLDS
        else {},
        "trained_by": "scripts/train_block_model.py",
        "page_types": "each page typed by the half page-type model not fitted on it"
        if HELD
        else "the shipped page-type model",
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(export(model, args.keep_at, provenance), separators=(",", ":")))
    print(
        f"wrote {args.out} ({args.out.stat().st_size // 1024} KB) in {time.perf_counter() - started:.0f} s"
    )
    if args.fold_models:
        args.fold_models.mkdir(parents=True, exist_ok=True)
        for half, model in enumerate(halves):
            data = export(model, args.keep_at, {**provenance, "grown_on_fold": 1 - half})
            (args.fold_models / f"fold{half}.json").write_text(
                json.dumps(data, separators=(",", ":"))
            )
        print(f"wrote {args.fold_models}/fold0.json and fold1.json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
