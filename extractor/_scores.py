"""Scoring extracted text against a reference: word-level and shingle-level precision/recall/F1.

``shingle_score`` is the article-extraction benchmark's method: tokens are ``\\w+`` runs
(case kept), texts become multisets of 4-token shingles, each page's true-positive /
false-positive / miss counts are normalised to sum to 1 so long pages weigh no more than short
ones, the normalised counts are summed over pages, and precision, recall and F1 come from the
sums. ``word_score`` is the simpler bag-of-words measure used for fixtures and for comparing
readermode with Reader View.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from ._text import words

SHINGLE_SIZE = 4
_TOKEN = re.compile(r"\w+")


@dataclass(frozen=True)
class WordScore:
    precision: float
    recall: float

    @property
    def f1(self) -> float:
        total = self.precision + self.recall
        return 2 * self.precision * self.recall / total if total else 0.0


def word_score(predicted: str, reference: str) -> WordScore:
    """Bag-of-words precision and recall of ``predicted`` against ``reference`` (case-folded)."""
    got = Counter(word.casefold() for word in words(predicted))
    want = Counter(word.casefold() for word in words(reference))
    overlap = sum((got & want).values())
    precision = overlap / sum(got.values()) if got else (1.0 if not want else 0.0)
    recall = overlap / sum(want.values()) if want else 1.0
    return WordScore(precision=precision, recall=recall)


@dataclass(frozen=True)
class ShingleScore:
    """Normalised true-positive, false-positive and miss shares of one page (sum to 1, or 0)."""

    tp: float
    fp: float
    fn: float

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def f1(self) -> float:
        total = self.precision + self.recall
        return 2 * self.precision * self.recall / total if total else 0.0


def shingle_counts(text: str, size: int = SHINGLE_SIZE) -> Counter[str]:
    """The multiset of ``size``-token shingles of ``text`` (its only one when shorter)."""
    tokens = _TOKEN.findall(text or "")
    return Counter(
        " ".join(tokens[i : i + size]) for i in range(max(1, len(tokens) - size + 1))
    ) - Counter({"": 1 << 30})


def shingle_score(predicted: str, reference: str, size: int = SHINGLE_SIZE) -> ShingleScore:
    """One page's normalised shingle counts."""
    got, want = shingle_counts(predicted, size), shingle_counts(reference, size)
    tp = sum((got & want).values())
    fp = sum((got - want).values())
    fn = sum((want - got).values())
    total = tp + fp + fn
    if not total:
        return ShingleScore(0.0, 0.0, 0.0)
    return ShingleScore(tp / total, fp / total, fn / total)


def aggregate(scores: Iterable[ShingleScore]) -> ShingleScore:
    """Corpus score: the pages' normalised counts summed (precision/recall/F1 read from it)."""
    tp = fp = fn = 0.0
    for score in scores:
        tp, fp, fn = tp + score.tp, fp + score.fp, fn + score.fn
    return ShingleScore(tp, fp, fn)
