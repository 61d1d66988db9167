"""The ``facets`` rule: a collection's or listing's filter and sort panels go, on those types
only; the items stay, and boxes that are only named like filters are left alone."""

from __future__ import annotations

import lxml.html

from extractor import ALL_RULES, ExtractOptions, extract
from extractor._rules import PRECLEAN_RULES, apply_rules

FILTERS = (
    "<form class='{name}'><h3>Filter by</h3><label><input type=checkbox> FACETTEXT Merino"
    "</label><label><input type=checkbox> Cotton</label><select><option>Sort by: Newest"
    "</option></select></form>"
)
LINK_FILTERS = (
    "<div class='{name}'><h3>Brand</h3><ul>"
    + "".join(f"<li><a href='/b/{b}'>FACETTEXT {b}</a></li>" for b in ("Acme", "Zenith", "Orbit"))
    + "</ul></div>"
)


def card(i: int) -> str:
    return (
        f"<div class='product-card'><h3><a href='/p/{i}'>ITEMTEXT Wool jumper {i}</a></h3>"
        f"<p>A warm knitted jumper in merino wool, made to last for many winters.</p>"
        f"<span class='price'>${40 + i}</span></div>"
    )


GRID = "<div class='product-grid'>" + "".join(card(i) for i in range(10)) + "</div>"


def text_after_rules(body: str, rules: frozenset[str] = PRECLEAN_RULES) -> tuple[str, set]:
    root = lxml.html.document_fromstring(f"<html><body>{body}</body></html>")
    trace = apply_rules(root, rules)
    return root.text_content(), {entry.name for entry in trace}


def test_filter_panels_go_and_the_items_stay() -> None:
    for panel in (
        FILTERS.format(name="facets__form"),
        FILTERS.format(name="collection-filters"),
        LINK_FILTERS.format(name="refinements"),
        LINK_FILTERS.format(name="plp-filter-group"),
        LINK_FILTERS.format(name="widget woocommerce widget_layered_nav"),
    ):
        text, names = text_after_rules(panel + GRID)
        assert "FACETTEXT" not in text, panel
        assert text.count("ITEMTEXT") == 10 and "facets" in names
        kept, _ = text_after_rules(panel + GRID, PRECLEAN_RULES - {"facets"})
        assert "FACETTEXT" in kept


def test_boxes_only_named_like_filters_are_left_alone() -> None:
    for body in (
        # Tailwind's "filter" utility on a card: no controls, no links.
        "<div class='filter grayscale'><p>FACETTEXT A photo essay from the harbour at dawn, "
        "when the boats come in.</p></div>" + GRID,
        # A product named for what it filters, with the word in its class.
        "<div class='coffee-filter-papers'><p>FACETTEXT Unbleached paper filters.</p></div>" + GRID,
        # A box so named that holds the items themselves.
        f"<div class='filters-and-results'>{FILTERS.format(name='x')}{GRID}</div>",
    ):
        text, names = text_after_rules(body)
        assert "FACETTEXT" in text and "facets" not in names, body[:60]


def listing_page(head: str) -> str:
    return (
        f"<html><head><title>Jumpers</title>{head}</head><body><main><h1>Jumpers</h1>"
        f"{FILTERS.format(name='facets')}{GRID}</main></body></html>"
    )


def test_only_collections_and_listings_lose_their_filters() -> None:
    listing = extract(
        listing_page('<script type="application/ld+json">{"@type": "CollectionPage"}</script>'),
        url="https://shop.example.org/collections/jumpers",
    )
    assert listing.page_type in ("collection", "listing")
    assert "FACETTEXT" not in listing.text and "ITEMTEXT" in listing.text
    kept = extract(
        listing_page('<script type="application/ld+json">{"@type": "CollectionPage"}</script>'),
        url="https://shop.example.org/collections/jumpers",
        options=ExtractOptions(rules=ALL_RULES - {"facets"}),
    )
    assert "FACETTEXT" in kept.text
    article = extract(
        listing_page('<script type="application/ld+json">{"@type": "NewsArticle"}</script>'),
        url="https://news.example.org/2024/05/jumpers",
    )
    assert article.page_type == "article"
    assert "facets" not in {entry.name for entry in article.trace}
