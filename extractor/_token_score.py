"""WCXB's token metric: per-page precision/recall/F1 of lower-cased ``\\w+`` token multisets,
and the share of ``with`` snippets found and of ``without`` snippets present.

The method is the benchmark's own (../shared/corpora/wcxb-dev/README.md): both texts are
lower-cased, their ``\\w+`` tokens counted as multisets, precision = overlap / predicted tokens,
recall = overlap / reference tokens, and an empty prediction scores 0. A corpus figure is the
mean of the pages' figures (``mean_scores``), not a pooled count: each page weighs the same.
Snippet tests are case-insensitive substring tests on the text as given.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

_TOKEN = re.compile(r"\w+")


@dataclass(frozen=True)
class TokenScore:
    """One page's (or a mean over pages') token precision, recall and F1."""

    precision: float
    recall: float
    f1: float


def token_list(text: str) -> list[str]:
    """The lower-cased ``\\w+`` tokens of ``text``, in order."""
    return _TOKEN.findall((text or "").lower())


def tokens(text: str) -> Counter[str]:
    """The lower-cased ``\\w+`` tokens of ``text`` as a multiset."""
    return Counter(token_list(text))


def token_score(predicted: str, reference: str) -> TokenScore:
    """Token-multiset precision, recall and F1 of ``predicted`` against ``reference``.

    An empty prediction scores 0 on all three; an empty reference gives recall 0 too (nothing
    can be found), so such a page counts against every system alike."""
    got, want = tokens(predicted), tokens(reference)
    overlap = sum((got & want).values())
    if not got or not want or not overlap:
        return TokenScore(0.0, 0.0, 0.0)
    precision = overlap / sum(got.values())
    recall = overlap / sum(want.values())
    return TokenScore(precision, recall, 2 * precision * recall / (precision + recall))


def mean_scores(scores: Iterable[TokenScore]) -> TokenScore:
    """The mean of the pages' precision, recall and F1 (each page weighs the same)."""
    listed = list(scores)
    if not listed:
        return TokenScore(0.0, 0.0, 0.0)
    n = len(listed)
    return TokenScore(
        sum(s.precision for s in listed) / n,
        sum(s.recall for s in listed) / n,
        sum(s.f1 for s in listed) / n,
    )


def snippet_hits(text: str, snippets: Sequence[str]) -> int:
    """How many of ``snippets`` occur in ``text`` (case-insensitive substring test)."""
    folded = (text or "").lower()
    return sum(1 for snippet in snippets if snippet and snippet.lower() in folded)
