"""A product page's JSON-LD description and specifications fill in what its text lacks."""

from __future__ import annotations

import json
import urllib.parse

from extractor import extract
from extractor._parse import parse_html
from extractor._productfacts import read_product_facts

DESCRIPTION = (
    "Thrown on the wheel in our studio from a speckled stoneware clay, this dripper takes a "
    "standard size 02 filter and pours through a single small exit hole for an even, slow "
    "extraction."
)
SECOND = "Dishwasher safe. Each piece is glazed by hand, so no two are quite alike."


def product_page(description_in_dom: bool, node: dict | None = None) -> bytes:
    node = node or {
        "@context": "https://schema.org",
        "@type": "Product",
        "name": "Stoneware Pour-Over Dripper",
        "description": f"{DESCRIPTION}\n{SECOND}",
        "additionalProperty": [
            {"@type": "PropertyValue", "name": "Capacity", "value": "1 to 4 cups"},
            {"@type": "PropertyValue", "name": "Clay body", "value": "Speckled buff stoneware"},
        ],
        "offers": {"@type": "Offer", "price": "34.00", "priceCurrency": "GBP"},
    }
    shown = f"<div class='description'><p>{DESCRIPTION}</p></div>" if description_in_dom else ""
    return (
        "<html><head><title>Stoneware Pour-Over Dripper - Porthmeor Pottery</title>"
        f"<script type='application/ld+json'>{json.dumps(node)}</script>"
        "<meta property='og:type' content='product'></head><body><main>"
        "<div class='product'><h1>Stoneware Pour-Over Dripper</h1>"
        "<p class='price'>£34.00</p><p>In stock, ready to post within two working days.</p>"
        "<form class='cart'><button>Add to basket</button></form>"
        f"{shown}</div></main></body></html>"
    ).encode()


URL = "https://pottery.example.co.uk/product/stoneware-pour-over-dripper/"


def test_a_description_only_in_json_ld_is_added_and_traced() -> None:
    extraction = extract(product_page(False), url=URL)
    assert extraction.page_type == "product"
    assert DESCRIPTION in extraction.text and SECOND in extraction.text
    assert "Speckled buff stoneware" in extraction.text
    assert "<th>Capacity</th>" in extraction.html
    assert any(entry.name == "product-facts" for entry in extraction.trace)


def test_a_page_without_a_description_of_its_own_gets_the_products_in_its_metadata() -> None:
    metadata = extract(product_page(False), url=URL).metadata
    assert metadata.description == DESCRIPTION  # the first paragraph
    assert metadata.sources["description"] == "json-ld"
    described = product_page(False).replace(
        b"</title>", b"</title><meta name='description' content='Stoneware for slow coffee.'>"
    )
    assert extract(described, url=URL).metadata.description == "Stoneware for slow coffee."


def test_a_description_the_page_shows_is_not_added_again() -> None:
    extraction = extract(product_page(True), url=URL)
    assert extraction.text.count("Thrown on the wheel") == 1
    assert SECOND not in extraction.text
    trace = [entry for entry in extraction.trace if entry.name == "product-facts"]
    assert all("description" not in entry.reason for entry in trace)


def test_html_in_the_description_is_read_as_text() -> None:
    escaped = f"&lt;p&gt;{DESCRIPTION}&lt;/p&gt;&lt;ul&gt;&lt;li&gt;{SECOND}&lt;/li&gt;&lt;/ul&gt;"
    facts = read_product_facts(
        parse_html(product_page(False, {"@type": "Product", "description": escaped}).decode())
    )
    assert facts is not None
    assert facts.description == f"{DESCRIPTION}\n{SECOND}"
    assert "<" not in facts.description


def test_a_url_encoded_description_is_read_decoded() -> None:
    encoded = urllib.parse.quote(DESCRIPTION)  # "Thrown%20on%20the%20wheel%20..."
    facts = read_product_facts(
        parse_html(product_page(False, {"@type": "Product", "description": encoded}).decode())
    )
    assert facts is not None
    assert facts.description == DESCRIPTION
    # A description that merely holds a percent sign is left as written.
    plain = "Save 20% this week: the 2.5% glaze is food safe, and the clay is %20 local."
    facts = read_product_facts(
        parse_html(product_page(False, {"@type": "Product", "description": plain}).decode())
    )
    assert facts is not None and facts.description == plain


def test_markup_lxml_cannot_read_gives_no_description_and_no_error() -> None:
    for broken in ("<!DOCTYPE html>", "<html></html>"):
        page = product_page(False, {"@type": "Product", "description": broken})
        facts = read_product_facts(parse_html(page.decode()))
        assert facts is not None and not facts.description  # the buy box's price alone
        extraction = extract(page, url=URL)
        assert "Stoneware Pour-Over Dripper" in extraction.text


LONG = (
    "The chair's back is eleven spring-loaded vertebrae that take the shape of your spine as "
    "you move, each one adjustable and lockable, with a seat slider, a synchro tilt and a "
    "headrest that rises ten inches."
)


def marked_page(marked: str, node: dict | None = None) -> str:
    script = f"<script type='application/ld+json'>{json.dumps(node)}</script>" if node else ""
    return (
        f"<html><head>{script}</head><body><div itemscope>"
        f"<div class='testimonial'>Pete in Boston says: a great chair.</div>{marked}"
        "</div></body></html>"
    )


def test_the_description_the_markup_names_is_taken_where_it_is_longer() -> None:
    shown = f"<div itemprop='description'><h2>The Verte chair</h2><p>{LONG}</p></div> tail"
    facts = read_product_facts(parse_html(marked_page(shown)))
    assert facts is not None and facts.description == f"The Verte chair\n{LONG}"
    short_ld = {"@type": "Product", "description": "A spine-shaped chair.", "sku": "22405"}
    facts = read_product_facts(parse_html(marked_page(shown, short_ld)))
    assert facts is not None and facts.description.endswith(LONG)
    long_ld = {"@type": "Product", "description": f"{LONG} {DESCRIPTION}"}
    facts = read_product_facts(parse_html(marked_page(shown, long_ld)))
    assert facts is not None and facts.description.endswith(DESCRIPTION)


def test_a_marked_description_hidden_short_or_of_another_item_is_not_taken() -> None:
    for marked in (
        f"<div hidden><div itemprop='description'>{LONG}</div></div>",
        "<div itemprop='description'>A spine-shaped chair, in four colours.</div>",
        f"<div itemscope itemtype='https://schema.org/Review'><p itemprop='description'>{LONG}"
        "</p></div>",
    ):
        assert read_product_facts(parse_html(marked_page(marked))) is None
