"""Site-wide boilerplate removal (extractor/_sitewide.py) on fixture sites and synthetic pages."""

from __future__ import annotations

from pathlib import Path

import pytest

from extractor import ALL_RULES, Extraction, ExtractOptions, extract
from extractor._sitewide import (
    SitewideOptions,
    block_fingerprints,
    normalize_block,
    recurring_blocks,
    remove_sitewide,
    site_key,
)
from tests.conftest import FIXTURES

SITES = FIXTURES / "sites"

# Per fixture site: template lines that land inside the extracted content, and one phrase of
# each page's own text that must survive.
TEMPLATE = {
    "kelvik-courier": [
        "Independent news from the fjord towns since 1911",
        "We use cookies to remember your text size",
        "The Courier in your inbox",
        "the week's fjord news, the tide tables",
        "Read more on kelvik-courier.example",
    ],
    "plot-fourteen": [
        "a weekly diary from the Eastfield allotments",
        "Get the diary by post",
        "About the writer",
        "Maren Holt has worked plot fourteen since 1998",
        "Read more on plot-fourteen.example",
    ],
}


def site_pages(site: str) -> list[Path]:
    return sorted((SITES / site).glob("page-*.html"))


def own_sentence(path: Path) -> str:
    """The first sentence of the page's first article paragraph (after the template lines)."""
    extraction = extract(path.read_bytes())
    paragraphs = [block for block in extraction.text.split("\n\n") if len(block) > 120]
    own = [p for p in paragraphs if not any(t in p for t in TEMPLATE[path.parent.name])]
    return own[0].split(".")[0]


# The headline refinement would take each page's own heading out before the site-wide pass sees
# it; these tests keep it in to show that the pass never removes it either.
WITH_HEADLINE = ExtractOptions(rules=ALL_RULES - {"headline"})


def article(title: str, body: list[str], *, extra: str = "") -> Extraction:
    paragraphs = "".join(f"<p>{text}</p>" for text in body)
    html = (
        f"<html><head><title>{title} | Example</title></head><body><article>"
        f"<h1>{title}</h1>{paragraphs}{extra}</article></body></html>"
    )
    url = "https://www.example.com/" + title.replace(" ", "-")
    return extract(html, url=url, options=WITH_HEADLINE)


UNIQUE = [
    "Apples ripened early this year across the northern valley orchards.",
    "The new bridge opened to cyclists on Tuesday after a long delay.",
    "Volunteers counted forty species of moth at the nature reserve.",
    "A bakery on the square began selling rye bread again after ten years.",
    "Council members voted to extend the market hours through the winter.",
    "The river rose half a metre overnight after the storm passed inland.",
]


@pytest.mark.parametrize("site", sorted(TEMPLATE))
def test_fixture_site_template_goes_and_articles_stay(site: str) -> None:
    pages = site_pages(site)
    assert len(pages) >= 4
    before = [extract(path.read_bytes(), options=WITH_HEADLINE) for path in pages]
    for extraction in before:  # the template is inside the content without the site-wide pass
        for phrase in TEMPLATE[site]:
            assert phrase in extraction.text
    after = remove_sitewide(before, site=site_key(str(pages[0])))
    for path, old, new in zip(pages, before, after, strict=True):
        for phrase in TEMPLATE[site]:
            assert phrase not in new.text and phrase not in new.markdown
            assert phrase.replace("'", "&#39;") not in new.html
        assert own_sentence(path) in new.text
        assert old.metadata.title and new.text.startswith(old.metadata.title)  # its own h1
        entry = new.trace[-1]
        assert (entry.name, entry.kind, entry.outcome) == ("sitewide", "post", "removed")
        assert entry.count == len(TEMPLATE[site]) - 1  # the box's heading went with its box
        assert entry.words and entry.excerpt and entry.excerpt in old.text
        assert "of the 5 pages" in entry.reason


def test_threshold_needs_share_and_page_count() -> None:
    options = SitewideOptions(min_share=0.5, min_pages=3)
    a, b = frozenset({"a"}), frozenset({"b"})
    assert recurring_blocks([a, a, b, b], options) == frozenset()  # 2 pages < min_pages
    assert recurring_blocks([a, a, a, b, b, b], options) == {"a", "b"}  # 3 of 6 = 0.5
    assert recurring_blocks([a, a, a, b, b, b, b], options) == {"b"}  # 3 of 7 < 0.5
    assert recurring_blocks([a, a, a], SitewideOptions(min_share=0)) == frozenset()
    assert options.threshold(10) == 5 and options.threshold(4) == 3


def test_few_pages_or_disabled_change_nothing() -> None:
    line = "<p>Subscribe to the Example weekly letter for more news like this.</p>"
    pages = [article(f"Story number {i}", [UNIQUE[i]], extra=line) for i in range(3)]
    assert remove_sitewide(pages[:2], site="example.com") == pages[:2]
    assert remove_sitewide(pages, site="example.com", options=SitewideOptions(min_share=0)) == pages
    changed = remove_sitewide(pages, site="example.com")
    assert all("Subscribe" not in page.text for page in changed)


def test_digits_do_not_hide_a_template_line() -> None:
    pages = [
        article(f"Story {name}", [UNIQUE[i]], extra=f"<p>Copyright {2020 + i} Example News Ltd</p>")
        for i, name in enumerate(("one", "two", "three", "four"))
    ]
    assert normalize_block("Copyright 2021 Example!") == normalize_block("copyright 1999  EXAMPLE")
    assert all("Copyright" not in page.text for page in remove_sitewide(pages, site="x"))


def test_own_heading_and_short_blocks_stay() -> None:
    # Every page is titled the same (a series), and carries a two-word section heading (over
    # a line of its own: a heading that ends the reading with nothing under it goes anyway).
    pages = [
        article(
            "Weekly market report",
            [UNIQUE[i]],
            extra=f"<h2>Further reading</h2><p>{UNIQUE[(i + 2) % 6]} {UNIQUE[(i + 3) % 6]}</p>",
        )
        for i in range(4)
    ]
    cleaned = remove_sitewide(pages, site="example.com")
    for page in cleaned:
        assert "Weekly market report" in page.text and "Further reading" in page.text
    assert cleaned == pages  # nothing removed, so no trace entry either


def test_only_content_is_never_removed() -> None:
    # The same story on four URLs: every block recurs, but it is all each page has.
    pages = [article("Same story", [UNIQUE[0], UNIQUE[1]]) for _ in range(4)]
    cleaned = remove_sitewide(pages, site="example.com")
    for old, new in zip(pages, cleaned, strict=True):
        assert new.html == old.html and new.text == old.text
        assert new.trace[-1].name == "sitewide" and new.trace[-1].outcome == "skipped"


def test_emptied_box_goes_with_its_lines() -> None:
    box = (
        "<div class='box'><p>Our letter arrives every Friday with the week's news.</p>"
        "<p>Sign up at the front desk of the town library today.</p></div>"
    )
    pages = [article(f"Story {i} today", [UNIQUE[i], UNIQUE[i + 1]], extra=box) for i in range(4)]
    cleaned = remove_sitewide(pages, site="example.com")
    for page in cleaned:
        assert "letter arrives" not in page.html and "front desk" not in page.html
        assert 'class="box"' not in page.html and "<div></div>" not in page.html
        assert page.trace[-1].count == 1  # the whole box, as one block


def test_fingerprints_ignore_short_blocks() -> None:
    html = "<h2>Ingredients</h2><p>Two cups of flour and a pinch of salt.</p>"
    assert len(block_fingerprints(html)) == 1
    assert len(block_fingerprints(html, min_words=1)) == 2
    assert block_fingerprints("") == frozenset()


@pytest.mark.parametrize(
    ("target", "key"),
    [
        ("https://www.Example.com/a/b?c=1", "example.com"),
        ("http://example.com:8080/x", "example.com:8080"),
        ("http://127.0.0.1:5000/page-1.html", "127.0.0.1:5000"),
        ("-", "stdin"),
    ],
)
def test_site_key(target: str, key: str) -> None:
    assert site_key(target) == key


def test_site_key_of_files_is_their_folder(tmp_path: Path) -> None:
    assert site_key(str(tmp_path / "a.html")) == site_key(str(tmp_path / "b.html"))
    assert site_key(str(tmp_path / "a.html")) != site_key(str(tmp_path / "sub" / "a.html"))
    assert site_key((tmp_path / "a.html").as_uri()) == site_key(str(tmp_path / "a.html"))
