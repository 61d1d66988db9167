"""The ``reviews`` rule: a product page's customer reviews go, its rating summary stays, and
on pages of other types a "review" box is left alone."""

from __future__ import annotations

import json

import lxml.html

from extractor import extract
from extractor._pagetype import PageType
from extractor._rules import PRECLEAN_RULES, apply_rules
from extractor._trafilatura import judge_document
from extractor._typed import typed_rules

REVIEW = (
    "<li class='review'><p>Bought this for a week of hiking in the rain and the straps held up "
    "fine, although the side pocket tore on the third day and support took a while to reply. "
    "REVIEWTEXT</p><p>Rated 4 out of 5 by a verified buyer.</p></li>"
)
REVIEWS = "<ul>" + REVIEW * 5 + "</ul>"  # five reviews of 38 words: a box over the floor
DESCRIPTION = (
    "<h1>Trail 25 Pack</h1><p>DESCRIPTIONTEXT A light day pack with a padded hip belt, a "
    "hydration sleeve and a roll-top lid that keeps the rain out on long days outside.</p>"
    "<ul><li>Weight: 740 g</li><li>Volume: 25 litres</li><li>Fabric: recycled nylon</li></ul>"
    "<h2>Features</h2><p>The back panel is a mesh of foam channels that lets air move between "
    "the pack and your back, so it stays cool on a climb. The shoulder straps are shaped for "
    "a wide range of torsos and carry a sternum strap with a whistle in its buckle.</p>"
    "<p>Inside there is a padded sleeve for a laptop or a three litre reservoir, a zipped "
    "pocket for keys and a key clip, and the lid opens wide enough to pack a jacket, lunch "
    "and a first aid kit without taking everything out again at the trailhead.</p>"
    "<p>Outside, two stretch pockets hold bottles, the daisy chain takes a light, and the "
    "ice axe loop and pole keepers fold away when they are not needed on easy trails.</p>"
)


def text_after_rules(body: str, rules: frozenset[str] = PRECLEAN_RULES) -> tuple[str, set]:
    root = lxml.html.document_fromstring(f"<html><body>{body}</body></html>")
    trace = apply_rules(root, rules)
    return root.text_content(), {entry.name for entry in trace}


def test_the_rule_removes_a_box_of_customer_reviews_and_says_so() -> None:
    for label in (
        'id="customer-reviews"',
        'class="product-reviews"',
        'class="yotpo-main"',
        'id="reviewsMedley" class="a-row"',  # Amazon's
        'id="reviews" class="wt-mt-xs-4 reviews__container"',  # Etsy's
        'class="ugc-reviews"',  # Best Buy's, and its questions and answers
        'class="ugc-qna" id="anchor-qna"',
        'class="product-qna"',
    ):
        body = f"<main>{DESCRIPTION}</main><section {label}><h2>Reviews</h2>{REVIEWS}</section>"
        text, names = text_after_rules(body)
        assert "REVIEWTEXT" not in text and "DESCRIPTIONTEXT" in text
        assert "reviews" in names
        kept, _ = text_after_rules(body, PRECLEAN_RULES - {"reviews"})
        assert "REVIEWTEXT" in kept


def test_a_short_box_of_reviews_goes_when_it_holds_reviews() -> None:
    # Magento's two reviews (schema.org microdata), PrestaShop's "comments" and Best Buy's
    # review items: under the words a box needs to be more than a rating's summary, but
    # reviews all the same
    one = REVIEW.replace("<li class='review'>", "<li class='item review-item' itemprop='review'>")
    magento = f'<div class="block review-list" id="customer-reviews"><ol>{one}</ol></div>'
    prestashop = (
        '<div id="product-comments-list"><div class="product-comment-list-item row">'
        "<p>REVIEWTEXT Beautiful patina after a month.</p></div></div>"
    )
    bestbuy = (
        '<section class="shop-reviews-section" id="anchor-reviews"><div class="review-item">'
        "<h4>Worth every penny</h4><p>REVIEWTEXT Used them on a 14-hour flight.</p></div></section>"
    )
    for box in (magento, prestashop, bestbuy):
        # the judge's page runs no "comments" rule: there PrestaShop's are reviews or nothing
        text, names = text_after_rules(f"<main>{DESCRIPTION}</main>{box}", frozenset({"reviews"}))
        assert "REVIEWTEXT" not in text and "DESCRIPTIONTEXT" in text, box
        assert "reviews" in names


def test_a_rating_summary_and_named_reviews_that_are_content_are_kept() -> None:
    summary = (
        '<div class="user_reviews"><p>SUMMARYTEXT Very Positive (89% of 728,400 user reviews)'
        "</p></div>"
    )
    editorial = f'<div id="editorialReviews_feature_div"><p>EDITORIALTEXT</p>{REVIEWS}</div>'
    testimonial = f'<div id="review_module" class="testimonials">{REVIEWS}</div>'
    for kept_box, marker in (
        (summary, "SUMMARYTEXT"),
        (editorial, "EDITORIALTEXT"),
        (testimonial, "REVIEWTEXT"),
    ):
        text, _ = text_after_rules(f"<main>{DESCRIPTION}</main>{kept_box}")
        assert marker in text


def test_a_page_that_is_mostly_its_reviews_keeps_them() -> None:
    text, _ = text_after_rules(f'<div class="customer-reviews">{REVIEWS * 3}</div><p>Tail.</p>')
    assert "REVIEWTEXT" in text


def test_only_product_pages_run_the_rule() -> None:
    assert "reviews" in typed_rules(PageType("product"), PRECLEAN_RULES)
    for kind in ("article", "forum", "listing", "collection", "documentation", "service"):
        assert "reviews" not in typed_rules(PageType(kind), PRECLEAN_RULES)


def product_page() -> str:
    ld = {"@context": "https://schema.org", "@type": "Product", "name": "Trail 25 Pack"}
    head = (
        f'<script type="application/ld+json">{json.dumps(ld)}</script>'
        '<meta property="og:type" content="product">'
    )
    return (
        f"<html><head><title>Trail 25 Pack</title>{head}</head><body><main>{DESCRIPTION}"
        '<p><button>Add to cart</button> $129.00</p></main><div id="customer-reviews">'
        f"<h2>Customer reviews</h2>{REVIEWS}</div></body></html>"
    )


def test_a_product_page_reads_without_its_customer_reviews() -> None:
    extraction = extract(product_page(), url="https://shop.example.com/product/trail-25")
    assert extraction.page_type == "product"
    assert "DESCRIPTIONTEXT" in extraction.text and "REVIEWTEXT" not in extraction.text
    assert any(entry.name == "reviews" for entry in extraction.trace)


def test_trafilatura_judges_a_product_page_without_its_reviews() -> None:
    """On product pages the vote takes trafilatura's blocks: its page must lose the reviews
    too, or they come back through it."""
    html = product_page()
    product_rules = typed_rules(PageType("product"), PRECLEAN_RULES)
    assert "REVIEWTEXT" not in judge_document(html, product_rules).text_content()
    article_rules = typed_rules(PageType("article"), PRECLEAN_RULES)
    assert "REVIEWTEXT" in judge_document(html, article_rules).text_content()
