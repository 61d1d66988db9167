"""A product page's price and specification tables come back to a reading that lacks them."""

from __future__ import annotations

import pytest

from extractor import extract
from extractor._buybox import read_price, read_short_description, read_spec_tables
from extractor._parse import parse_html
from tests.conftest import FIXTURES

URL = "https://www.ridgebackroasters.co.uk/product/hx-40-hand-grinder/"
DESCRIPTION = (
    "We tested a dozen hand grinders on the roastery cupping table before choosing the HX-40 "
    "to sell alongside our coffee. It produced the most even grind of anything we tried, with "
    "far fewer fines than the ceramic-burr grinders customers usually bring in to the shop. "
    "The burr carrier is supported by two bearings, top and bottom, so it does not wobble."
)
MORE = (
    "Grind size is set with an external ring with thirty clicks per rotation, each click "
    "moving the burr twenty microns. We list our recommended settings for every coffee we "
    "roast on the bag, starting from fourteen clicks for espresso through to thirty-two."
)
LAST = (
    "The body is machined from a single piece of aluminium and the handle knob is oiled "
    "walnut from a sawmill in Somerset. It comes apart without tools for cleaning: lift off "
    "the handle, unscrew the ring, and the inner burr drops out for a brush."
)
SPECS = (
    "<table class='woocommerce-product-attributes shop_attributes'>"
    "<tr><th>Weight</th><td>0.64 kg</td></tr>"
    "<tr><th>Burr</th><td><p>48 mm stainless steel conical</p></td></tr>"
    "<tr><th>Capacity</th><td>35 g of whole beans</td></tr></table>"
)


def shop_page(price: str = "<p class='price'>£145.00</p>", specs: str = SPECS) -> str:
    """A WooCommerce product page: buy box, then the description and specifications tabs."""
    return (
        "<html><head><title>HX-40 Hand Grinder – Ridgeback Roasters</title>"
        "<meta property='og:type' content='product'></head><body>"
        "<header><h1>Ridgeback Roasters</h1><span class='price'>£0.00</span></header>"
        "<div id='primary'><div class='product'><div class='summary entry-summary'>"
        f"<h1 class='product_title'>HX-40 Hand Grinder</h1>{price}"
        "<p class='stock'>7 in stock</p><form class='cart'><button>Add to basket</button></form>"
        "</div><div class='woocommerce-tabs'>"
        "<div class='panel' id='tab-description'><h2>Description</h2>"
        f"<p>{DESCRIPTION}</p><p>{MORE}</p><p>{LAST}</p></div>"
        "<div class='panel' id='tab-additional_information'><h2>Additional information</h2>"
        f"{specs}</div></div>"
        "<section class='related products'><h2>Related products</h2><ul>"
        "<li><h2>Gooseneck Kettle</h2><span class='price'>£48.00</span></li></ul></section>"
        "</div></div></body></html>"
    )


def test_the_price_under_the_products_heading_is_read() -> None:
    assert read_price(parse_html(shop_page())) == "£145.00"  # not the header's basket total
    sale = "<p class='price'><del><span>£160.00</span></del> <ins><span>£145.00</span></ins></p>"
    assert read_price(parse_html(shop_page(sale))) == "£145.00"
    # Amazon prints it for screen readers and, hidden from them, for the eye
    amazon = (
        "<span class='a-price priceToPay'><span class='a-offscreen'>$114.95</span>"
        "<span aria-hidden='true'><span class='a-price-symbol'>$</span>114.95</span></span>"
    )
    assert read_price(parse_html(shop_page(amazon))) == "$114.95"
    assert read_price(parse_html(shop_page("<div class='x-price'>US $189.99</div>"))) == (
        "US $189.99"
    )


def test_the_brand_line_under_the_name_does_not_end_the_search() -> None:
    # BigCommerce's Cornerstone prints the brand as a heading between the name and the price
    for brand in (
        "<h2 class='productView-brand'><a href='/brands/hearth'><span>Hearth &amp; Hound</span>"
        "</a></h2>",
        "<h2 class='product-brand'>Hearth &amp; Hound</h2>",
    ):
        page = shop_page(f"{brand}<p class='price'>£145.00</p>")
        assert read_price(parse_html(page)) == "£145.00", brand
    section = "<h2>Delivery and returns</h2><p class='price'>£145.00</p>"
    assert read_price(parse_html(shop_page(section))) == ""  # a new section's price


def test_the_price_paid_is_read_not_the_list_or_regular_price() -> None:
    rrp = "<span class='price price--rrp'>$249.99</span><span class='price price--withoutTax'>$199.95</span>"
    assert read_price(parse_html(shop_page(rrp))) == "$199.95"
    # PrestaShop prints the regular price first; the price the page declares is the one paid
    regular = (
        "<span class='regular-price'>€45.00</span><span class='current-price-value'>€36.00</span>"
    )
    declared = "<meta property='product:price:amount' content='36'>"
    unnamed = "<span class='product-price'>€45.00</span><span class='product-price'>€36.00</span>"
    assert read_price(parse_html(shop_page(unnamed))) == "€45.00"  # nothing declared: the first
    page = shop_page(unnamed).replace("<head>", f"<head>{declared}")
    assert read_price(parse_html(page)) == "€36.00"
    assert read_price(parse_html(shop_page(regular))) == "€36.00"


def test_no_price_is_read_from_a_shelf_or_without_a_currency() -> None:
    assert read_price(parse_html(shop_page(""))) == ""  # the shelf's £48.00 is too far down
    assert read_price(parse_html(shop_page("<p class='price'>145</p>"))) == ""
    assert read_price(parse_html(shop_page("<p class='old-price'>£160.00</p>"))) == ""
    assert read_price(parse_html("<html><body><p class='price'>£5.00</p></body></html>")) == ""


def test_a_named_table_of_labels_and_values_is_a_specification_table() -> None:
    (table,) = read_spec_tables(parse_html(shop_page()))
    assert table.heading == "Additional information"
    assert table.rows[1] == ("Burr", "48 mm stainless steel conical")
    listed = (
        "<dl class='product-specs'><dt>Weight</dt><dd>0.64 kg</dd><dt>Burr</dt><dd>48 mm</dd></dl>"
    )
    assert read_spec_tables(parse_html(shop_page(specs=listed)))[0].rows[0] == ("Weight", "0.64 kg")
    # BigCommerce's buy-box facts: named "info", a hidden term gone with its value left empty
    facts = (
        "<dl class='productView-info'><dt>SKU:</dt><dd>HH-1</dd><dd data-product-upc></dd>"
        "<dt>Foam:</dt><dd>4-inch memory foam</dd><dt>Cover:</dt><dd>Microsuede</dd></dl>"
    )
    page = shop_page(specs="").replace("<p class='stock'>", f"{facts}<p class='stock'>")
    (table,) = read_spec_tables(parse_html(page))
    assert table.rows == (("SKU:", "HH-1"), ("Foam:", "4-inch memory foam"), ("Cover:", "Microsuede"))


def test_other_tables_are_not_specifications() -> None:
    histogram = (
        "<table><tr><td>5 star</td><td>68%</td></tr><tr><td>4 star</td><td>16%</td></tr></table>"
    )
    unnamed = f"<div class='box'>{histogram}</div>"
    size_chart = (
        "<table class='spec'><tr><th>Size</th><th>Chest</th><th>Waist</th></tr>"
        "<tr><td>S</td><td>90</td><td>76</td></tr><tr><td>M</td><td>96</td><td>82</td></tr></table>"
    )
    one_row = "<table class='spec'><tr><th>Weight</th><td>0.64 kg</td></tr></table>"
    for specs in (unnamed, size_chart, one_row):
        page = shop_page(specs=specs).replace("Additional information", "More")
        page = page.replace("tab-additional_information", "tab-more")
        assert read_spec_tables(parse_html(page)) == ()


SHOPS = {
    # page, its URL, its price, words of its specification tables
    "woocommerce": (URL, "£145.00", ("48 mm stainless steel conical", "35 g of whole beans")),
    "amazon": ("https://www.amazon.com/dp/B0CJ7R4K2M", "$114.95", ("9.2 Pounds", "KTB-1200SS")),
    "magento": (
        "https://www.northfellgear.co.uk/trailhead-35l-hiking-rucksack.html",
        "£89.00",
        ("1.18 kg", "58 x 31 x 24 cm"),
    ),
}


@pytest.mark.parametrize("shop", sorted(SHOPS))
def test_the_reading_gets_the_price_and_the_specifications_it_lacked(shop: str) -> None:
    url, price, specifications = SHOPS[shop]
    extraction = extract((FIXTURES / "products" / f"{shop}.html").read_bytes(), url=url)
    text = extraction.text
    assert extraction.page_type == "product"
    assert text.count(price) == 1
    lines = text.splitlines()
    assert lines.index(price) < 3  # under the product's name, above its description
    assert all(words in text for words in specifications)
    (entry,) = [entry for entry in extraction.trace if entry.name == "product-facts"]
    assert "price" in entry.reason


def test_what_the_reading_holds_is_not_added_again() -> None:
    extraction = extract(shop_page(), url=URL)  # a small page: the reading keeps all of it
    assert "£145.00" in extraction.text and "0.64 kg" in extraction.text
    assert not [entry for entry in extraction.trace if entry.name == "product-facts"]


def test_the_short_description_beside_the_price_comes_back_under_it() -> None:
    page = (FIXTURES / "products" / "woocommerce.html").read_bytes()
    text = extract(page, url=URL).text
    short = "A compact hand grinder with 48 mm steel conical burrs and a walnut handle."
    assert text.index("£145.00") < text.index(short) < text.index("We tested a dozen")
    assert read_short_description(parse_html(shop_page())) == ""  # this page prints none
