"""Pages with no main content say so (``extractor/_emptiness.py``): an error page, a login
wall, a paywall, an age gate, a bot check and an empty listing raise ``NoContentError`` with
the reason, pages that look like them in one way are read as usual, and ``--keep
no-content`` reads them all."""

from __future__ import annotations

import pytest

from extractor import ExtractOptions, NoContentError, extract
from extractor._options import ALL_RULES, NO_CONTENT
from tests.conftest import FIXTURES

PAGES = FIXTURES / "no-content"

EMPTY = {
    "nginx-404.html": "an error page",
    "soft-404-wordpress.html": "an error page",
    "login-wall.html": "a login wall",
    "bot-check.html": "a bot check",
    "empty-search.html": "an empty listing",
    "soft-404-shop.html": "an error page",
    "soft-404-looking-for.html": "an error page",
    "expired-job.html": "an error page",
    "age-gate.html": "an age gate",
    "server-error.html": "an error page",
    "empty-search-sorry.html": "an empty listing",
    "empty-collection.html": "an empty listing",
    "empty-category-magento.html": "an empty listing",  # "We can't find products matching"
    "paywall.html": "a paywall",
    "maintenance.html": "an error page",
}


@pytest.mark.parametrize(("name", "kind"), sorted(EMPTY.items()))
def test_a_page_with_no_main_content_says_what_it_is(name: str, kind: str) -> None:
    with pytest.raises(NoContentError, match=f"no main content: the page is {kind}"):
        extract((PAGES / name).read_bytes(), url=f"https://example.org/{name}")


@pytest.mark.parametrize("name", sorted(EMPTY))
def test_keep_no_content_reads_such_a_page_anyway(name: str) -> None:
    options = ExtractOptions(rules=ALL_RULES - {NO_CONTENT})
    extraction = extract((PAGES / name).read_bytes(), options=options)
    assert extraction.text.strip()


def test_a_story_about_404_errors_with_a_members_login_is_read() -> None:
    extraction = extract((PAGES / "near-miss-404-story.html").read_bytes())
    assert "permanent redirect" in extraction.text
    assert extraction.warnings == ()


def test_search_results_with_an_empty_tab_are_read() -> None:
    extraction = extract((PAGES / "near-miss-search-results.html").read_bytes())
    assert "Stainless kettle model 6" in extraction.text


def test_a_missing_page_with_a_long_reading_is_read_with_a_warning() -> None:
    """A "Page not found" page whose reading is long (a list of the site's popular stories
    with their summaries) is read, but says what its title said."""
    stories = "".join(
        f"<li><h2><a href='/s/{i}'>Popular story {i}</a></h2><p>A summary of story {i} "
        "that runs long enough to read as a paragraph of real prose on the page.</p></li>"
        for i in range(12)
    )
    html = (
        "<html><head><title>Page Not Found | The Courier</title></head><body><main>"
        f"<h1>Sorry, we could not find that page</h1><ul>{stories}</ul></main></body></html>"
    )
    extraction = extract(html)
    assert "Popular story 11" in extraction.text
    assert any(
        w.startswith("low confidence: the page may be an error page") for w in extraction.warnings
    )


def test_a_story_cut_short_by_a_paywall_is_read_with_a_warning() -> None:
    """Three paragraphs of a story before "To continue reading, please subscribe" are the
    story's opening: read, with a warning that the rest is behind the wall."""
    extraction = extract((PAGES / "near-miss-paywall-teaser.html").read_bytes())
    assert "more frequent evening sailings" in extraction.text
    assert any(
        w.startswith("low confidence: the page may be a paywall") for w in extraction.warnings
    )


def test_a_brief_with_a_newsletter_box_is_no_paywall() -> None:
    extraction = extract((PAGES / "near-miss-newsletter-brief.html").read_bytes())
    assert "children's reading hour" in extraction.text
    assert extraction.warnings == ()


def test_a_short_product_page_with_an_empty_cart_is_read() -> None:
    """A shop's mini cart says "0 items" on every page: beside a short product description
    it is no empty listing."""
    extraction = extract((PAGES / "near-miss-product-empty-cart.html").read_bytes())
    assert "keeps coffee hot for four hours" in extraction.text


def test_a_brief_about_age_verification_is_no_age_gate() -> None:
    extraction = extract((PAGES / "near-miss-age-law-brief.html").read_bytes())
    assert "from the first of June" in extraction.text
    assert extraction.warnings == ()


def _empty_search(shelf_books: int) -> str:
    """A bookshop's search page whose <h1> alone says nothing was found: the reading drops
    that <h1> as the headline rewording the <title>, and keeps the tips and a shelf."""
    shelf = "".join(
        f"<li><a href='/b/{i}'>Bestselling novel number {i}</a> by Author {i} £9.99</li>"
        for i in range(shelf_books)
    )
    return (
        '<html><head><title>Search results for "xyzzy" | Pagewise Books</title></head>'
        "<body><main><h1>No results found for \u2018xyzzy\u2019</h1>"
        "<p>Check the spelling of the title or author's name, or try fewer words.</p>"
        f"<h2>Bestsellers this week</h2><ul>{shelf}</ul></main></body></html>"
    )


def test_a_search_whose_headline_finds_nothing_is_an_empty_listing() -> None:
    with pytest.raises(NoContentError, match="empty listing .its headline says"):
        extract(_empty_search(2), url="https://books.example/search?q=xyzzy")


def test_a_longer_search_whose_headline_finds_nothing_is_read_with_a_warning() -> None:
    extraction = extract(_empty_search(12), url="https://books.example/search?q=xyzzy")
    assert "Bestselling novel number 11" in extraction.text
    assert any(
        w.startswith("low confidence: the page may be an empty listing")
        for w in extraction.warnings
    )
