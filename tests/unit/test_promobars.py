"""Site-wide promotion bars (extractor/_promobars.py, the ``promo-bars`` rule)."""

from __future__ import annotations

import lxml.html

from extractor import extract
from extractor._options import ALL_RULES
from extractor._rules import apply_rules
from extractor._trafilatura import judge_document

BAR = (
    "<div id='promoBar' class='promo-bar hide'><div class='promo-bar__carousel'>"
    "<span>PROMOTEXT Free standard shipping on orders $40+</span>"
    "<span>Livraison gratuite $60 CAD+. For more information see our international page</span>"
    "</div></div>"
)
PROSE = "".join(
    f"<p>Step {i}: choose three to five products for your skin, and the set is ten percent "
    "off at checkout, in the shop and online alike.</p>"
    for i in range(8)
)


def after_rules(html: str, rules: frozenset[str] = ALL_RULES) -> tuple[str, set[str]]:
    root = lxml.html.document_fromstring(html)
    names = {entry.name for entry in apply_rules(root, rules)}
    return root.text_content(), names


def test_a_promotion_bar_over_the_page_goes() -> None:
    html = f"<html><body>{BAR}<div class='page'>{PROSE}</div></body></html>"
    text, names = after_rules(html)
    assert "PROMOTEXT" not in text and "Step 7" in text and "promo-bars" in names
    kept, _ = after_rules(html, ALL_RULES - {"promo-bars"})
    assert "PROMOTEXT" in kept
    shopify = html.replace(BAR, "<div class='shopify-section announcement_bar'>PROMOTEXT</div>")
    assert "PROMOTEXT" not in after_rules(shopify)[0]


def test_a_bar_inside_the_content_or_long_stays() -> None:
    inside = f"<html><body><main>{BAR}{PROSE}</main></body></html>"
    assert "PROMOTEXT" in after_rules(inside)[0]
    section = "<section class='promo-bar'><p>PROMOTEXT</p>" + PROSE * 3 + "</section>"
    assert "PROMOTEXT" in after_rules(f"<html><body>{section}</body></html>")[0]


def test_neither_the_reading_nor_trafilaturas_page_holds_the_bar() -> None:
    html = f"<html><head><title>Custom Skincare Set</title></head><body>{BAR}{PROSE}</body></html>"
    assert "PROMOTEXT" not in extract(html.encode(), url="https://shop.example/set").text
    assert "PROMOTEXT" not in judge_document(html, ALL_RULES).text_content()
