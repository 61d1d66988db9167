"""Page types from schema.org types, og:type, the URL and the DOM's shape, with evidence."""

from __future__ import annotations

import pytest

from extractor import extract
from extractor._pagetype import (
    DEFAULT_TYPE,
    MIN_WEIGHT,
    PAGE_TYPES,
    PageType,
    detect_page_type,
    page_reading,
    rule_type,
    url_weights,
)
from extractor._parse import parse_html
from tests.unit.pagetype_pages import DOCUSAURUS

PROSE = "<p>" + "The ferry schedule agreed after months of talks starts in spring. " * 4 + "</p>"


def page(head: str = "", body: str = PROSE) -> str:
    return f"<html><head><title>T</title>{head}</head><body>{body}</body></html>"


def detect(html: str, url: str | None = None) -> PageType:
    return detect_page_type(parse_html(html), url)


def rules(html: str, url: str | None = None) -> PageType:
    """The rules' pick alone (what the page-type model reads beside the page's features)."""
    weights, notes, _ = page_reading(parse_html(html), url)
    return rule_type(weights, notes)


def json_ld(kind: str) -> str:
    return f'<script type="application/ld+json">{{"@context": "https://schema.org", "@type": "{kind}"}}</script>'


@pytest.mark.parametrize(
    ("schema", "kind"),
    [
        ("DiscussionForumPosting", "forum"),
        ("QAPage", "forum"),
        ("Product", "product"),
        ("APIReference", "documentation"),
        ("NewsArticle", "article"),
    ],
)
def test_json_ld_type_decides(schema: str, kind: str) -> None:
    found = detect(page(json_ld(schema)))
    assert found.kind == kind
    assert any(schema in note for note in found.evidence)


def test_microdata_itemtype_counts_like_json_ld() -> None:
    body = f'<div itemscope itemtype="https://schema.org/Product">{PROSE}</div>'
    assert detect(page(body=body)).kind == "product"


def test_a_run_of_microdata_products_is_a_collection_not_also_a_product() -> None:
    """Eight product cards marked up as schema.org Products are a collection's grid; the
    items are not counted again as one product (they once were, with a count of 0, and
    outweighed the collection: Redfin's and Kress's listings read as product pages)."""
    cards = "".join(
        f'<div itemscope itemtype="https://schema.org/Product"><h3>Mower {n}</h3>'
        f"<p>A quiet robotic mower for lawns up to {n} acres.</p></div>"
        for n in range(8)
    )
    weights, notes, _ = page_reading(parse_html(page(body=cards)), None)
    assert "collection +3: 8 schema.org Product items" in notes
    assert not any("product" in note and "items" not in note for note in notes)
    assert weights.get("product", 0.0) == 0.0


def test_og_type_product_group_is_a_collection() -> None:
    found = detect(page('<meta property="og:type" content="product.group">'))
    assert found.kind == "collection"
    assert "collection +3: og:type product.group" in found.evidence


@pytest.mark.parametrize(
    ("url", "kind"),
    [
        ("https://forum.example.org/threads/which-lens-now.123/", "forum"),
        ("https://example.org/docs/api/fetch", "documentation"),
        ("https://docs.example.org/start", "documentation"),
        ("https://discuss.example.org/d/2068-types-of-threads", "forum"),
        ("https://community.example.com/some-question-about-lenses", "forum"),
        ("https://shop.example.org/products/blue-widget", "product"),
        ("https://example.org/services/seo", "service"),
    ],
)
def test_url_shape_decides_the_rules_when_the_page_says_nothing(url: str, kind: str) -> None:
    assert rules(page(), url).kind == kind


@pytest.mark.parametrize(
    "generators",
    [
        ["Docusaurus v3.2.0"],
        ["mkdocs-1.6.1, mkdocs-material-9.5.0"],
        ["Docutils 0.19: https://docutils.sourceforge.io/"],
        ["rustdoc"],
        ["Astro v5.15.9", "Starlight v0.36.0"],  # the second of two generators
    ],
)
def test_a_documentation_generator_makes_documentation(generators: list[str]) -> None:
    head = "".join(f'<meta name="generator" content="{name}">' for name in generators)
    found = rules(page(head))
    assert found.kind == "documentation"
    assert any(note.startswith("documentation +3: made by") for note in found.evidence)


def test_other_generators_say_nothing() -> None:
    head = '<meta name="generator" content="WordPress 6.5"><meta name="generator" content="Hugo">'
    assert rules(page(head), "https://example.org/x").evidence == ()


def test_a_documentation_generators_blog_post_stays_an_article() -> None:
    head = (
        '<meta name="generator" content="Docusaurus v3.2.0">'
        '<meta property="og:type" content="article">'
        '<meta property="article:published_time" content="2025-03-04T08:00:00Z">'
        + json_ld("BlogPosting")
    )
    assert detect(page(head), "https://tasklet.dev/blog/release-3-2").kind == "article"


def test_a_generated_manual_without_its_url_reads_as_one() -> None:
    extraction = extract(DOCUSAURUS)  # as a saved file: no /docs/ path to go by
    assert extraction.page_type == "documentation"
    text = extraction.text
    for kept in ("each job has exactly one", "def nightly_report():", "for every missed slot"):
        assert kept in text
    for chrome in ("Edit this page", "Version: 3.2", "Previous", "Retries and backoff"):
        assert chrome not in text
    assert text.count("Interval schedules") == 1  # the heading, not the table of contents


def test_no_evidence_is_an_article_that_has_not_shown_itself() -> None:
    found = rules(page(), "https://example.org/x")
    assert found.kind == DEFAULT_TYPE
    assert not found.shown
    assert found.evidence == ()


def test_article_evidence_shows_an_article() -> None:
    head = '<meta property="og:type" content="article">'
    found = detect(page(head), "https://example.org/2024/05/the-ferry-schedule-starts-in-spring")
    assert found.kind == "article" and found.shown
    assert found.weights["article"] >= MIN_WEIGHT


def test_comment_sections_alone_do_not_make_a_forum() -> None:
    posts = "".join(
        f'<div class="reply"><span class="author">A{i}</span><p>Nice post number {i}.</p></div>'
        for i in range(8)
    )
    found = rules(page(body=PROSE + posts))
    assert found.kind == "article"
    assert any(note.startswith("forum +1") for note in found.evidence)


def test_a_grid_of_priced_cards_is_a_collection() -> None:
    cards = "".join(
        f'<li class="card"><a href="/p/{i}">Widget model {i}</a> <span>$1{i}.99</span></li>'
        for i in range(8)
    )
    found = rules(page(body=f"<ul>{cards}</ul>"))
    assert found.kind == "collection"
    assert "collection +2: 8 sibling records, 8 with prices" in found.evidence


def test_an_add_to_cart_button_makes_a_product() -> None:
    body = PROSE + '<span class="price">$12</span><button>Add to cart</button>'
    assert rules(page(body=body), "https://shop.example.org/blue-widget").kind == "product"


def test_extraction_reports_its_page_type_in_json_and_trace() -> None:
    extraction = extract(page(json_ld("Product")), url="https://shop.example.org/products/x")
    assert extraction.page_type == "product"
    data = extraction.to_dict()
    assert data["page_type"] == "product"
    assert any("schema.org Product" in note for note in data["page_type_evidence"])
    entry = extraction.trace[0]
    assert (entry.kind, entry.name, entry.outcome) == ("page-type", "product", "accepted")


def test_every_type_is_named() -> None:
    assert set(PAGE_TYPES) == {
        "article", "forum", "product", "collection", "listing", "documentation", "service"
    }  # fmt: skip


def test_discussion_hosts_without_a_forum_word_are_forum_evidence() -> None:
    """A Lemmy instance's thread (/post/123) and a Hacker News item (/item?id=1) say nothing
    of a forum in their paths: their hosts do."""
    assert url_weights("https://lemmy.world/post/21018364").get("forum") == 2.0
    assert url_weights("https://news.ycombinator.com/item?id=41230400").get("forum") == 2.0
    assert "forum" not in url_weights("https://www.lemmyfans.example/post/12")
    assert "forum" not in url_weights("https://news.ycombinator.com.example/item?id=1")


def test_a_flarum_discussion_path_makes_a_forum() -> None:
    """Flarum serves a thread with no type, no forum word in its host and posts without
    classes that say so: its /d/ path says it."""
    url = "https://circle.selfhosted.example/d/1287-offsite-backups-for-proxmox/2"
    assert url_weights(url).get("forum") == 3.0
    assert detect(page(), url).kind == "forum"
    assert "forum" not in url_weights("https://example.org/d/downloads")
    assert "forum" not in url_weights("https://example.org/d/1287-guide/edit")


@pytest.mark.parametrize("schema", ["LegalService", "Dentist", "Plumber", "Hotel", "Course"])
def test_a_local_businesss_own_kind_is_service_evidence(schema: str) -> None:
    # Evidence, not a decision: firms' SEO plugins put it on their blog posts too.
    found = rules(page(json_ld(schema)))
    assert found.weights.get("service") == 1.0
    assert f"service +1: schema.org {schema}" in found.evidence


def magento_category(count: int) -> str:
    """A Magento category of ``count`` products, as its Luma theme serves it: no JSON-LD, a
    URL with no shop word, a price and an "Add to Cart" button on each card."""
    cards = "".join(
        f'<li class="item product product-item"><div class="product-item-info">'
        f'<a class="product-item-photo" href="/tent-{i}.html"><img alt="Tent {i}" src="t.jpg">'
        f'</a><strong class="product-item-name"><a href="/tent-{i}.html">Ridge tent {i}</a>'
        f'</strong><span class="price">${i}49.00</span><button class="action tocart primary">'
        "<span>Add to Cart</span></button></div></li>"
        for i in range(1, count + 1)
    )
    return (
        "<html><head><title>Tents - Outfitters</title></head>"
        '<body class="page-products categorypath-gear-tents category-tents catalog-category-view'
        ' page-layout-2columns-left"><main id="maincontent"><h1>Tents</h1>'
        '<div class="toolbar toolbar-products"><p class="toolbar-amount">'
        f"{count} Items</p></div>"
        f'<ol class="products list items product-items">{cards}</ol></main></body></html>'
    )


def test_a_shop_platforms_body_template_decides_the_type() -> None:
    """A Magento category of five products shows five prices and five carts, which read as a
    product page; its <body> names the category template."""
    found = detect(magento_category(5), "https://outfitters.example/gear/tents.html")
    assert found.kind == "collection"
    assert "collection +3: the shop's catalog-category-view template" in found.evidence
    without = magento_category(5).replace(" catalog-category-view", "")
    assert detect(without, "https://outfitters.example/gear/tents.html").kind != "collection"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('<body class="product-template-default single single-product woocommerce">', "product"),
        ('<body class="archive tax-product_cat woocommerce">', "collection"),
        ('<body class="template-product">', "product"),
        ('<body class="catalog-product-view">', "product"),
        ('<body id="category" class="lang-fr page-category">', "collection"),
        ('<body id="product" class="page-product">', "product"),
    ],
)
def test_each_platforms_template_names_its_type(body: str, expected: str) -> None:
    found = rules(page().replace("<body>", body))
    assert found.kind == expected


@pytest.mark.parametrize(
    "body",
    [
        '<body class="single-product tax-product_cat">',  # two types named: neither
        '<body id="product">',  # an id alone: not PrestaShop's
        '<body class="single-post">',
    ],
)
def test_a_body_naming_no_one_template_says_nothing(body: str) -> None:
    found = rules(page().replace("<body>", body))
    assert not any("template" in note for note in found.evidence)
