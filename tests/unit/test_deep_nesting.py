"""Deeply nested pages (thousands of levels, which lxml keeps) are read, not lost to recursion."""

from __future__ import annotations

import pytest

import extractor
from extractor import STAGES_BY_NAME, ExtractOptions
from extractor._depth import flatten_deep_nesting
from extractor._parse import parse_html
from extractor._text import element_text
from tests.conftest import FIXTURES

SENTENCE = "Deep words are still read by the extractor. "


def nested_page(depth: int) -> str:
    return (
        "<html><body><article>"
        + "<div>" * depth
        + f"<p>{SENTENCE * 20}</p><p>{SENTENCE * 10}</p>"
        + "</div>" * depth
        + "</article></body></html>"
    )


@pytest.mark.parametrize("depth", [1_200, 2_000])  # lxml keeps up to ~2,047 levels
def test_text_of_a_deeply_nested_page(depth: int) -> None:
    options = ExtractOptions(stages=(STAGES_BY_NAME["scorer"],))
    result = extractor.extract(nested_page(depth), options=options)
    assert result.text.count("Deep words") == 30
    assert (
        extractor.element_text(extractor.parse_fragment(nested_page(depth))).count("Deep words")
        == 30
    )


@pytest.mark.parametrize("depth", [3_000, 10_000])  # past libxml2's 2,048, which stops parsing
def test_text_past_libxml2s_depth_limit_is_kept(depth: int) -> None:
    page = nested_page(depth).replace(
        "</article>", "<p>The closing words come after.</p></article>"
    )
    assert element_text(parse_html(page)).count("Deep words") == 30
    fragment_text = extractor.element_text(extractor.parse_fragment(page))
    assert fragment_text.count("Deep words") == 30 and "closing words" in fragment_text


def test_the_deep_nesting_fixture_keeps_its_article() -> None:
    page = (FIXTURES / "hostile" / "deep-nesting.html").read_bytes()
    text = extractor.extract(page).text
    assert "Hidden deep inside five thousand nested boxes" in text
    assert "walked home along the cliff path" in text  # after the 5,000 end tags


def test_flattening_drops_only_the_tags_past_the_limit() -> None:
    page = "<div>" * 4 + "<p>words<br>more</p><script>'<div>'</script><!-- <div> -->" + "</div>" * 4
    flat = flatten_deep_nesting(page, max_depth=2)
    assert flat == "<div>" * 2 + "<p>words<br>more</p><script>'<div>'</script><!-- <div> -->" + (
        "</div>" * 2
    )
    assert flatten_deep_nesting(page, max_depth=4) == page
