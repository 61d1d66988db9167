"""Parsing stage results and pages: whatever the markup, a tree or a ReadermodeError."""

from __future__ import annotations

import lxml.html
import pytest

from extractor import PageSnapshot, ReadabilityResult, extract, parse_fragment
from extractor._parse import MISNESTED_VOID_TAGS, parse_html

SWALLOWED_BODY = '<html><head><meta charset="ut></head><body><p>hi there</p></body></html>'


def test_fragment_that_is_a_whole_document_without_a_body() -> None:
    # lxml's fragment parser asserts one <body>; the unterminated attribute leaves none.
    wrapper = parse_fragment(SWALLOWED_BODY)
    assert wrapper.tag == "div"


def test_fragment_keeps_document_bodies() -> None:
    wrapper = parse_fragment("<html><body><p>one</p><p>two</p></body></html>")
    assert [p.text for p in wrapper.iter("p")] == ["one", "two"]
    assert lxml.html.tostring(parse_fragment("<p>plain</p>")) == b"<div><p>plain</p></div>"


def test_readability_result_that_swallowed_its_body_falls_through_the_cascade() -> None:
    article = "<article>" + "<p>Words of the real article, read by the next stage.</p>" * 8
    snapshot = PageSnapshot(
        html=f"<html><body>{article}</article></body></html>",
        readability=ReadabilityResult(content=SWALLOWED_BODY),
    )
    result = extract(snapshot)
    assert result.stage != "readability-js" and "real article" in result.text


@pytest.mark.parametrize("tag", MISNESTED_VOID_TAGS)
def test_void_elements_libxml2_misnests_give_back_what_follows(tag: str) -> None:
    page = parse_html(f"<p>before <{tag} src=x> after <i>in</i> end</p><p>next</p>")
    element = page.find(f".//{tag}")
    assert len(element) == 0 and not element.text
    assert element.getparent().text_content() == "before  after in end"
    # Removing the element (as the executable rule does with <embed>) keeps that text.
    element.drop_tree()
    assert page.find(".//p").text_content() == "before  after in end"


def test_a_late_body_tags_attributes_are_kept_as_a_browser_keeps_them() -> None:
    """An element out of place in <head> opens the body early; the <body> tag met after it
    gives its attributes to that body (WordPress's template classes)."""
    root = parse_html(
        '<html><head><title>T</title><div id="early">early</div></head>'
        '<body class="single-product woocommerce" data-theme="x"><p>Text.</p></body></html>'
    )
    body = root.find("body")
    assert body.get("class") == "single-product woocommerce"
    assert body.get("data-theme") == "x"
    # A "<body" in a script's string is not a tag: the body keeps no attributes from it.
    scripted = parse_html(
        "<html><head><script>var s = '<body class=\"x\">';</script>"
        "<div>early</div></head><body><p>Text.</p></body></html>"
    )
    assert not scripted.find("body").attrib
