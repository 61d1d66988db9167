"""Where the renderer's hidden marks are not believed (``extractor/_unhide.py``). On a product
page what its style sheets hide (tabs, accordions, a "view details" dialog) is content; a page
whose layout hides most of its text was never revealed by its scripts; both are read as
served. On an article with a small hidden block the marks still remove what they mark."""

from __future__ import annotations

import json

import pytest

from extractor import HIDDEN_MARK, VISIBLE_MARK, PageSnapshot, extract
from extractor._parse import parse_html
from extractor._unhide import UNREVEALED_SHARE, hidden_share

DETAILS = (
    "The upper is an engineered mesh that breathes on long runs, and the midsole foam returns "
    "energy with every stride while staying light enough for daily training."
)
PROSE = (
    "Runners who train every day want a shoe that stays comfortable mile after mile, and this "
    "one was built around that idea from the first sketch to the final fitting. "
) * 3


def _product_page(hidden: str) -> str:
    data = {
        "@context": "https://schema.org",
        "@type": "Product",
        "name": "Trail Runner 3",
        "offers": {"@type": "Offer", "price": "120.00", "priceCurrency": "USD"},
    }
    return (
        "<html><head><title>Trail Runner 3</title>"
        '<meta property="og:type" content="product">'
        f'<script type="application/ld+json">{json.dumps(data)}</script></head><body>'
        "<main><h1>Trail Runner 3</h1><p class='price'>$120.00</p>"
        f"<button>Add to cart</button><p>{PROSE}</p>"
        f'<div class="tab-panel" {hidden}><h2>Details</h2><p>{DETAILS}</p></div>'
        "</main></body></html>"
    )


def _article_page(hidden: str) -> str:
    return (
        "<html><head><title>A day on the trail</title>"
        '<meta property="og:type" content="article"></head><body><article>'
        f"<h1>A day on the trail</h1><p>{PROSE}</p><p>{PROSE}</p>"
        f'<div class="promo" {hidden}><p>{DETAILS}</p></div></article></body></html>'
    )


def _rendered(html: str) -> PageSnapshot:
    return PageSnapshot(html=html, url="https://shop.example/p/trail-runner-3")


@pytest.mark.parametrize("mark", ["display", "offscreen"])
def test_a_product_keeps_what_its_style_sheets_hide(mark: str) -> None:
    # a tab's panel (display:none), a gallery carousel's next slide (moved offscreen)
    extraction = extract(_rendered(_product_page(f'{HIDDEN_MARK}="{mark}"')))
    assert extraction.page_type == "product"
    assert DETAILS in extraction.text
    changed = [e for e in extraction.trace if e.name == "hidden" and e.outcome == "changed"]
    assert changed and changed[0].count == 1


@pytest.mark.parametrize("mark", ["display", "offscreen"])
def test_an_article_drops_what_its_style_sheets_hide(mark: str) -> None:
    extraction = extract(_rendered(_article_page(f'{HIDDEN_MARK}="{mark}"')))
    assert extraction.page_type == "article"
    assert DETAILS not in extraction.text
    assert not any(e.name == "hidden" and e.outcome == "changed" for e in extraction.trace)


def _unrevealed_page(mark: str) -> str:
    """An article inside a ``<main>`` its anti-flicker snippet keeps hidden until a script
    answers (one that never did), under a short visible header."""
    return (
        "<html><head><title>A day on the trail</title></head><body>"
        "<header><a href='/'>Trail News</a></header>"
        f"<main {mark}><article><h1>A day on the trail</h1><p>{PROSE}</p><p>{DETAILS}</p>"
        "</article></main></body></html>"
    )


def test_a_page_its_scripts_never_revealed_is_read_as_served() -> None:
    page = _unrevealed_page(f'{HIDDEN_MARK}="visibility"')
    assert hidden_share(parse_html(page)) >= UNREVEALED_SHARE
    extraction = extract(_rendered(page))
    assert DETAILS in extraction.text
    changed = [e for e in extraction.trace if e.name == "hidden" and e.outcome == "changed"]
    assert changed and "never revealed" in (changed[0].reason or "")


def test_an_overlay_over_most_of_the_page_is_still_removed() -> None:
    """Only the layout's marks are dropped: a dialog over the page is not its content."""
    # Prose outside the dialog, so that the page has content once the dialog is removed.
    page = _unrevealed_page(f'{HIDDEN_MARK}="overlay"').replace(
        "<header>", f"<p>{PROSE}</p><header>"
    )
    assert hidden_share(parse_html(page)) == 0.0  # overlay is not a layout mark
    assert DETAILS not in extract(_rendered(page)).text


def test_a_visibility_mark_undone_below_does_not_count_as_hidden() -> None:
    """As the ``hidden`` rule reads it: a subtree shown again below its visibility mark is
    not hidden, so it does not make the page look unrevealed."""
    shown = f'<p {VISIBLE_MARK}="visibility">{PROSE}</p>'
    page = _unrevealed_page(f'{HIDDEN_MARK}="visibility"').replace("<article>", f"<article>{shown}")
    assert hidden_share(parse_html(page)) == 0.0
