"""WCXB's token metric: lower-cased ``\\w+`` multisets, per-page P/R/F1, means over pages."""

from __future__ import annotations

import pytest

from extractor._token_score import TokenScore, mean_scores, snippet_hits, token_score, tokens


def test_tokens_are_lower_cased_word_runs_counted_as_a_multiset() -> None:
    assert tokens("The cat, the HAT; café-2") == {"the": 2, "cat": 1, "hat": 1, "café": 1, "2": 1}


def test_identical_texts_score_one_whatever_the_case_and_punctuation() -> None:
    assert token_score("Hello, World!", "hello world") == TokenScore(1.0, 1.0, 1.0)


def test_precision_and_recall_count_repeated_tokens_once_each() -> None:
    # predicted: a a b c (4), reference: a b b (3); overlap: a 1 + b 1 = 2
    score = token_score("a a b c", "a b b")
    assert score.precision == pytest.approx(2 / 4)
    assert score.recall == pytest.approx(2 / 3)
    assert score.f1 == pytest.approx(2 * 0.5 * (2 / 3) / (0.5 + 2 / 3))


@pytest.mark.parametrize(
    ("predicted", "reference"), [("", "words here"), ("x y", "a b"), ("a", "")]
)
def test_empty_or_disjoint_scores_zero(predicted: str, reference: str) -> None:
    assert token_score(predicted, reference) == TokenScore(0.0, 0.0, 0.0)


def test_mean_scores_weighs_each_page_the_same() -> None:
    mean = mean_scores([TokenScore(1.0, 0.5, 0.6), TokenScore(0.0, 0.5, 0.2)])
    assert mean == TokenScore(0.5, 0.5, pytest.approx(0.4))
    assert mean_scores([]) == TokenScore(0.0, 0.0, 0.0)


def test_snippet_hits_are_case_insensitive_substrings() -> None:
    text = "Add to Cart\nThe Blue Widget is 20 cm long."
    assert snippet_hits(text, ["blue widget is", "add to cart", "free shipping", ""]) == 2
