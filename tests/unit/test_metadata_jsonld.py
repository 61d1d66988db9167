"""JSON-LD: the shapes pages write it in, broken blocks, and which node is the page's."""

from __future__ import annotations

import json

import pytest

from extractor._jsonld import MAX_NODES, json_ld_nodes, read_json_ld
from extractor._parse import parse_html


def page(*blocks: str, title: str = "") -> str:
    scripts = "".join(f"<script type='application/ld+json'>{block}</script>" for block in blocks)
    return f"<html><head><title>{title}</title>{scripts}</head><body><p>x</p></body></html>"


def fields(*blocks: object, title: str = ""):
    texts = [b if isinstance(b, str) else json.dumps(b) for b in blocks]
    return read_json_ld(parse_html(page(*texts, title=title)), title or None)


@pytest.mark.parametrize(
    "block",
    [
        '{"@type": "Article", "headline": "Broken", ',  # cut short
        "{'@type': 'Article', 'headline': 'single quotes'}",
        "not json at all",
        "",
        "[]",
        "null",
        '"just a string"',
    ],
)
def test_unreadable_blocks_are_skipped(block: str) -> None:
    assert json_ld_nodes(parse_html(page(block))) == []


@pytest.mark.parametrize(
    "block",
    [
        '<!-- {"@type": "Article", "headline": "Wrapped"} -->',
        '//<![CDATA[\n{"@type": "Article", "headline": "Wrapped"}\n//]]>',
        '{"@type": "Article", "headline": "Wrapped",}',
        '{"@type": "Article", "headline": "Wrapped", "keywords": ["a", "b",],}',
        '{"@type": "Article", "headline": "Wrapped\nover two lines"}',  # raw newline in a string
    ],
)
def test_cheap_repairs(block: str) -> None:
    assert (fields(block).title or "").startswith("Wrapped")


def test_a_broken_block_does_not_hide_a_good_one() -> None:
    assert (
        fields('{"@type": "Article", "headline": ', {"@type": "Article", "headline": "Good"}).title
        == "Good"
    )


def test_article_outranks_web_page_and_web_page_fills_in() -> None:
    result = fields(
        {"@type": "WebPage", "name": "Page name", "description": "Page description",
         "inLanguage": "sv"},
        {"@type": "BlogPosting", "headline": "Post headline"},
    )  # fmt: skip
    assert (result.title, result.description, result.lang) == (
        "Post headline",
        "Page description",
        "sv",
    )


def test_web_page_alone_gives_its_name() -> None:
    assert fields({"@type": "WebPage", "name": "Just a page"}).title == "Just a page"


def test_other_types_alone_give_nothing() -> None:
    result = fields({"@type": "Organization", "name": "Acme"}, {"@type": "BreadcrumbList"})
    assert result.title is None and result.site_name is None


def test_type_lists_and_full_iris() -> None:
    assert fields({"@type": ["Thing", "NewsArticle"], "headline": "A"}).title == "A"
    assert fields({"@type": "https://schema.org/Article", "headline": "B"}).title == "B"


def test_main_entity_is_found_inside_a_web_page() -> None:
    block = {"@type": "WebPage", "mainEntity": {"@type": "Article", "headline": "Inner"}}
    assert fields(block).title == "Inner"


def test_graph_references_are_resolved() -> None:
    block = {
        "@graph": [
            {"@type": "Article", "headline": "H", "author": [{"@id": "#a"}, {"@id": "#b"}],
             "publisher": {"@id": "#org"}, "image": {"@id": "#img"}},
            {"@id": "#a", "@type": "Person", "name": "First Author"},
            {"@id": "#b", "@type": "Person", "name": "Second Author"},
            {"@id": "#org", "@type": "Organization", "name": "Publisher Ltd"},
            {"@id": "#img", "@type": "ImageObject", "contentUrl": "https://x.example/i.png"},
        ]
    }  # fmt: skip
    result = fields(block)
    assert result.authors == ("First Author", "Second Author")
    assert result.site_name == "Publisher Ltd"
    assert result.image == "https://x.example/i.png"


def test_website_name_outranks_publisher() -> None:
    block = {
        "@graph": [
            {"@type": "WebSite", "name": "The Site"},
            {"@type": "Article", "headline": "H", "publisher": {"name": "The Company"}},
        ]
    }
    assert fields(block).site_name == "The Site"


@pytest.mark.parametrize(
    ("image", "expected"),
    [
        ("https://x.example/a.png", "https://x.example/a.png"),
        (["https://x.example/a.png", "https://x.example/b.png"], "https://x.example/a.png"),
        ({"@type": "ImageObject", "url": "https://x.example/a.png"}, "https://x.example/a.png"),
        ([{"@type": "ImageObject", "url": ["https://x.example/a.png"]}], "https://x.example/a.png"),
        ({"@type": "ImageObject"}, None),
    ],
)
def test_image_shapes(image: object, expected: str | None) -> None:
    assert fields({"@type": "Article", "image": image}).image == expected


@pytest.mark.parametrize(
    ("author", "expected"),
    [
        ("Solo Writer", ("Solo Writer",)),
        ({"@type": "Person", "name": "Obj Writer"}, ("Obj Writer",)),
        ([{"name": "One"}, "Two", {"givenName": "Three", "familyName": "Four"}],
         ("One", "Two", "Three Four")),
        ({"@type": "Person", "name": {"@value": "Wrapped Name"}}, ("Wrapped Name",)),
        ([], ()),
        (None, ()),
        (42, ()),
    ],
)  # fmt: skip
def test_author_shapes(author: object, expected: tuple[str, ...]) -> None:
    assert fields({"@type": "Article", "author": author}).authors == expected


@pytest.mark.parametrize(
    ("keywords", "expected"),
    [
        ("a, b,c", ("a", "b", "c")),
        (["a", "b"], ("a", "b")),
        (["a, b", "c"], ("a", "b", "c")),
        (None, ()),
    ],
)
def test_keywords_string_or_list(keywords: object, expected: tuple[str, ...]) -> None:
    assert (
        tuple(t for t in fields({"@type": "Article", "keywords": keywords}).tags if t) == expected
    )


def test_name_wins_over_headline_when_only_the_name_is_in_the_title() -> None:
    # Wikipedia: headline is a one-line description, name the article's title.
    block = {
        "@type": "Article",
        "name": "Hermitian matrix",
        "headline": "matrix equal to its conjugate-transpose",
    }
    assert fields(block, title="Hermitian matrix - Wikipedia").title == "Hermitian matrix"
    assert fields(block).title == "matrix equal to its conjugate-transpose"


def test_a_name_that_is_the_sites_is_not_the_title() -> None:
    block = {"@type": "NewsArticle", "name": "Daily Paper", "headline": "Real headline",
             "publisher": {"@type": "Organization", "name": "Daily Paper"}}  # fmt: skip
    assert fields(block, title="Other story | Daily Paper").title == "Real headline"
    assert fields({"@type": "WebSite", "name": "Daily Paper"}, block).site_name == "Daily Paper"


def test_canonical_from_url_or_main_entity_of_page() -> None:
    assert (
        fields({"@type": "Article", "url": "https://x.example/a"}).canonical_url
        == "https://x.example/a"
    )
    block = {
        "@type": "Article",
        "mainEntityOfPage": {"@type": "WebPage", "@id": "https://x.example/b"},
    }
    assert fields(block).canonical_url == "https://x.example/b"


def test_node_count_is_capped() -> None:
    block = [{"@type": "Thing", "name": str(i)} for i in range(MAX_NODES * 2)]
    assert len(json_ld_nodes(parse_html(page(json.dumps(block))))) == MAX_NODES


def test_other_script_types_are_not_read() -> None:
    html = '<html><head><script type=\'application/json\'>{"@type": "Article", "headline": "No"}</script></head></html>'
    assert json_ld_nodes(parse_html(html)) == []


def test_html_entities_left_in_strings_are_decoded() -> None:
    found = fields(
        {
            "@type": "Article",
            "headline": "Budget Traveler&#8217;s Guide &#8211; Insurance &amp; Claims",
            "author": ["Ana &amp; Bo"],
            "keywords": "travel, safety &bull; tips",
        }
    )
    assert found.title == "Budget Traveler’s Guide – Insurance & Claims"
    assert found.authors == ("Ana & Bo",)
    assert "safety • tips" in found.tags
