"""Deeply nested pages (thousands of levels, which lxml keeps) are read, not lost to recursion."""

from __future__ import annotations

import pytest

import extractor
from extractor import STAGES_BY_NAME, ExtractOptions

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
    assert extractor.element_text(extractor.parse_fragment(nested_page(depth))).count(
        "Deep words"
    ) == 30
