"""The ``shelves`` rule: a product page's rows of other products go, under a heading that
names them; the product's own description stays, even after such a row, and pages of other
types keep theirs."""

from __future__ import annotations

import lxml.html

from extractor._pagetype import PageType
from extractor._rules import PRECLEAN_RULES, apply_rules
from extractor._typed import typed_rules


def card(n: int) -> str:
    return (
        f"<li class='card'><a href='/item/{n}'>Walnut serving board number {n}</a>"
        f"<span class='price'>${20 + n}.00</span><span>Free delivery</span> SHELFTEXT</li>"
    )


CARDS = "<ul class='carousel'>" + "".join(card(n) for n in range(6)) + "</ul>"
PRODUCT = (
    "<div class='product'><h1>Oak Chopping Board</h1><p class='price'>$48.00</p>"
    "<div class='description'><p>DESCRIPTIONTEXT End-grain oak, oiled by hand, with a juice "
    "groove on one face and rubber feet on the other so it stays put on a wet counter.</p>"
    "<table><tr><th>Size</th><td>40 x 30 cm</td></tr><tr><th>Weight</th><td>2.1 kg</td></tr>"
    "</table></div></div>"
)


# The rest of the page (the shop's own story), so that no case below is most of the page.
ABOUT = (
    "<div class='about'><p>"
    + "We make boards from felled city trees in our workshop. " * 40
    + "</p></div>"
)


def after_rules(body: str, rules: frozenset[str]) -> tuple[str, set[str]]:
    root = lxml.html.document_fromstring(f"<html><body>{body}{ABOUT}</body></html>")
    trace = apply_rules(root, rules)
    return root.text_content(), {entry.name for entry in trace}


def test_a_shelf_under_its_heading_is_removed_and_the_product_stays() -> None:
    for heading in (
        "<h2>People who viewed this item also viewed</h2>",
        "<div class='title'><span>You may also like</span></div>",
        "<h3>Similar items <a href='/similar'>See all</a></h3>",
        "<h2>Customers also bought or read</h2>",  # Amazon's books
    ):
        body = f"<main>{PRODUCT}<section><div>{heading}</div>{CARDS}</section></main>"
        text, names = after_rules(body, PRECLEAN_RULES)
        assert "SHELFTEXT" not in text and "DESCRIPTIONTEXT" in text, heading
        assert "shelves" in names
        kept, _ = after_rules(body, PRECLEAN_RULES - {"shelves"})
        assert "SHELFTEXT" in kept


def test_a_shelf_before_the_description_takes_only_its_own_box() -> None:
    # Amazon's "Customers who bought this item also bought" stands above the description.
    shelf = f"<div class='shelf'><h2>Customers who bought this item also bought</h2>{CARDS}</div>"
    body = f"<main><div id='top'><h1>Oak Chopping Board</h1></div>{shelf}{PRODUCT}</main>"
    text, names = after_rules(body, PRECLEAN_RULES)
    assert "SHELFTEXT" not in text and "DESCRIPTIONTEXT" in text
    assert "Oak Chopping Board" in text


def test_what_is_not_a_shelf_is_kept() -> None:
    cases = (
        # The heading's words in a sentence, not a heading of their own.
        f"<div><p>Customers also bought our oil, which keeps the board from drying.</p>{CARDS}</div>",
        # A box of two links is a bundle offer.
        "<div><h2>Frequently bought together</h2><a href='/a'>Board oil SHELFTEXT</a>"
        "<a href='/b'>Beeswax SHELFTEXT</a></div>",
        # A heading inside the product's own box (the climb meets the <h1> first).
        f"<div>{PRODUCT}<h3>Complete the look</h3>{CARDS}</div>",
        # Prose under such a heading, with a few links in it.
        "<div><h3>Complete the look</h3><p>"
        + "Pair it with <a href='/oil'>oil</a>, <a href='/wax'>wax</a> and a <a href='/knife'>knife</a>. "
        + "The grain runs the length of the board and darkens as it is oiled SHELFTEXT. " * 40
        + "</p></div>",
        # A link called so: a way to the seller's shop.
        f"<div><a href='/shop'><span>Seller's other items</span></a>{CARDS}</div>",
    )
    for body in cases:
        text, names = after_rules(f"<main>{body}</main>", PRECLEAN_RULES)
        assert "SHELFTEXT" in text, body
        assert "shelves" not in names


def test_the_rule_runs_on_product_pages_only() -> None:
    assert "shelves" in typed_rules(PageType("product"), PRECLEAN_RULES)
    for kind in ("article", "forum", "collection", "listing", "documentation", "service"):
        assert "shelves" not in typed_rules(PageType(kind), PRECLEAN_RULES)
