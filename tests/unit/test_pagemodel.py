"""The page-type model and its features: handwritten pages of each kind, the model file's
contract, and what the features read (scripts are not text, calls to action are counted)."""

from __future__ import annotations

import json
from importlib import resources

import numpy as np
import pytest

from extractor import extract
from extractor._pagefeatures import FEATURES, PAGE_TYPES, page_features
from extractor._pagemodel import PageModelMismatchError, from_dict, page_model
from extractor._pagetype import decide, detect_page_type, page_reading
from extractor._parse import parse_html
from tests.unit.pagetype_pages import ARTICLE, DOCS, FORUM, SERVICE


def detect(html: str, url: str | None = None):  # type: ignore[no-untyped-def]
    return detect_page_type(parse_html(html), url)


def features(html: str, url: str | None = None) -> dict[str, float]:
    _, _, row = page_reading(parse_html(html), url)
    return dict(zip(FEATURES, row.tolist(), strict=True))


@pytest.mark.parametrize("url", ["https://ledgerly.example/", "https://ledgerly.example/invoicing"])
def test_a_saas_page_of_sections_and_calls_to_action_is_a_service(url: str) -> None:
    found = detect(SERVICE, url)
    assert found.kind == "service" and found.model and found.shown
    assert found.evidence[-1].startswith("service model: service ")


@pytest.mark.parametrize(
    "url", ["https://news.example/2025/03/harbour-ferry-returns-after-repairs", None]
)
def test_a_dated_bylined_article_stays_an_article_that_shows_itself(url: str | None) -> None:
    found = detect(ARTICLE, url)
    assert found.kind == "article" and found.shown


def test_a_thread_of_posts_with_authors_is_a_forum_without_schema_or_url() -> None:
    assert detect(FORUM).kind == "forum"


def test_declared_evidence_outweighs_the_model_and_both_are_in_the_evidence() -> None:
    found = detect(DOCS, "https://example.dev/docs/guide/routing")
    assert found.kind == "documentation" and not found.model
    assert "outweigh the model's documentation" in found.evidence[-1]


def test_the_model_line_is_in_json_output_and_the_trace() -> None:
    extraction = extract(SERVICE, url="https://ledgerly.example/")
    assert extraction.page_type == "service"
    assert any(" model: " in note for note in extraction.to_dict()["page_type_evidence"])
    assert " model: " in extraction.trace[0].reason


def test_probabilities_are_one_per_type_and_sum_to_one() -> None:
    model = page_model()
    assert model is not None
    _, _, row = page_reading(parse_html(ARTICLE), None)
    probabilities = model.probabilities(row)
    assert probabilities.shape == (len(PAGE_TYPES),)
    assert probabilities.sum() == pytest.approx(1.0)
    assert PAGE_TYPES[int(np.argmax(probabilities))] == "article"


def test_the_shipped_model_says_where_it_came_from_and_how_it_did_held_out() -> None:
    text = resources.files("extractor").joinpath("models", "pagetype.json").read_text()
    provenance = json.loads(text)["provenance"]
    assert provenance["trained_by"] == "scripts/train_pagetype_model.py"
    assert provenance["cross_validated_accuracy"] > provenance["rules_accuracy"]


def test_a_model_of_other_features_is_refused() -> None:
    text = resources.files("extractor").joinpath("models", "pagetype.json").read_text()
    data = json.loads(text)
    data["features"] = [*data["features"][:-1], "something_else"]
    with pytest.raises(PageModelMismatchError):
        from_dict(data)


def test_script_text_is_not_page_text() -> None:
    plain = features("<html><body><p>Short words here.</p></body></html>")
    scripted = features(
        "<html><body><p>Short words here.</p><script>var x = '"
        + "y" * 5000
        + "';</script></body></html>"
    )
    assert scripted["log_chars"] == plain["log_chars"]


def test_calls_to_action_prices_per_month_and_bylines_are_read() -> None:
    service, article = features(SERVICE), features(ARTICLE)
    assert service["log_cta"] > 1.5 and service["log_per_period"] > 1.0
    assert service["og_website"] == 1.0 and service["published_meta"] == 0.0
    assert article["published_meta"] == 1.0 and article["author_meta"] == 1.0
    assert article["log_cta"] == 0.0 and article["p_share"] > service["p_share"]


def test_url_shape_features() -> None:
    row = features(
        "<html><body><p>x</p></body></html>",
        "https://a.example/blog/2024/how-to-fix-a-bike.html?x=1",
    )
    assert row["url_depth"] == 3 and row["url_slug_words"] == 5
    assert row["url_html"] == 1.0 and row["url_query"] == 1.0 and row["url_root"] == 0.0


def test_features_take_the_rules_weights_as_given() -> None:
    row = page_features(parse_html("<p>x</p>"), None, {"forum": 2.5}, {}, {})
    assert row[FEATURES.index("rule_forum")] == 2.5 and row[FEATURES.index("rule_article")] == 0.0


def test_type_words_are_counted_in_the_path_and_the_title() -> None:
    html = "<html><head><title>Cloud Consulting Services | Acme</title></head><body><p>x</p></body></html>"
    row = features(html, "https://acme.example/what-we-do/generative-ai-consulting-services/")
    assert row["url_words_service"] == 2 and row["title_words_service"] == 2
    assert row["url_words_forum"] == 0 and row["title_words_docs"] == 0
    # A segment that is not exactly /services/ gives the rules nothing: only the words see it.
    assert row["url_service"] == 0


def test_the_model_says_forum_only_where_the_rules_saw_a_sign_of_one() -> None:
    # An article that mentions a members' forum: no posts, schema or URL of one.
    probabilities = np.array([0.28, 0.50, 0.02, 0.02, 0.02, 0.13, 0.03])
    found = decide({"article": 0.5}, (), probabilities)
    assert found.kind == "article" and found.evidence[-1].startswith("article model: forum 0.50")
    assert decide({"forum": 1.0}, (), probabilities).kind == "forum"


def test_a_sure_model_outweighs_decisive_rules_but_not_a_threads() -> None:
    # og:type product (3 of product evidence) on a grid the model is sure is a collection.
    sure = np.zeros(len(PAGE_TYPES))
    sure[PAGE_TYPES.index("collection")] = 0.97
    sure[PAGE_TYPES.index("product")] = 0.03
    found = decide({"product": 3.0}, ("product +3: og:type product",), sure)
    assert found.kind == "collection" and found.model
    assert found.evidence[-1].endswith("(sure enough to outweigh 3 of product rules)")
    # Less sure, the declared type stands; a thread the rules read is never overruled.
    unsure = np.where(sure > 0.5, 0.9, 0.1)
    assert decide({"product": 3.0}, (), unsure).kind == "product"
    assert decide({"forum": 3.0}, (), sure).kind == "forum"
