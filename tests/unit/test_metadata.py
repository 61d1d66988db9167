"""Page metadata: every field from each kind of source, the precedence between them, the title.

The fixture pages under fixtures/metadata/ each carry their expected fields beside them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extractor import Metadata, PageSnapshot, ReadabilityResult, extract
from extractor._metadata import read_metadata
from extractor._parse import parse_html
from extractor._title import strip_host_suffix, strip_site_name, title_from_page
from tests.conftest import FIXTURES

CASES = sorted((FIXTURES / "metadata").glob("*.html"))
LIST_FIELDS = ("authors", "tags", "categories")
PARAGRAPHS = "".join(
    f"<p>Paragraph {i} of the story, with enough words to read like prose, and a comma.</p>"
    for i in range(6)
)


def metadata_of(html: str, url: str | None = None, **readability: str) -> Metadata:
    snapshot = PageSnapshot(
        html=html,
        url=url,
        readability=ReadabilityResult(content="<p>x</p>", **readability) if readability else None,
    )
    return read_metadata(parse_html(html), snapshot)


def as_json(metadata: Metadata) -> dict[str, object]:
    fields = metadata.to_dict()
    fields.pop("author")  # derived from authors, checked on its own below
    return fields


@pytest.mark.parametrize("page", CASES, ids=lambda path: path.stem)
def test_fixture_page_gives_its_expected_fields(page: Path) -> None:
    case = json.loads(page.with_suffix(".json").read_text(encoding="utf-8"))
    metadata = metadata_of(page.read_text(encoding="utf-8"), case["url"])
    found = as_json(metadata)
    assert found.pop("sources") == case["sources"]
    assert found == case["expected"]


def test_every_fixture_page_has_its_expectations() -> None:
    assert len(CASES) >= 9
    for page in CASES:
        assert page.with_suffix(".json").is_file(), f"{page.name} has no expected fields"


def test_extraction_json_carries_every_field_and_the_sources() -> None:
    page = FIXTURES / "metadata" / "jsonld-graph.html"
    data = extract(page.read_bytes(), url="https://coast.example/news/harbour-wall").to_dict()
    assert data["authors"] == ["Morwenna Trelawny"]
    assert data["author"] == "Morwenna Trelawny"
    assert data["date_modified"] == "2023-03-16"
    assert data["metadata_sources"]["title"] == "json-ld"
    keys = list(data)
    assert keys[: keys.index("text")] == [
        "url", "title", "author", "authors", "date_published", "date_modified", "site_name",
        "lang", "description", "image", "tags", "categories", "canonical_url", "metadata_sources",
    ]  # fmt: skip


def test_author_joins_authors_and_date_is_the_publish_date() -> None:
    metadata = Metadata(authors=("Ann Writer", "Bo Reporter"), date_published="2020-01-02")
    assert (metadata.author, metadata.date) == ("Ann Writer, Bo Reporter", "2020-01-02")
    assert Metadata().author is None


# --- precedence ------------------------------------------------------------------------------

HEAD_ALL = (
    "<meta property='og:title' content='From OpenGraph'>"
    "<meta name='twitter:title' content='From Twitter'>"
    "<meta name='dc.title' content='From Dublin Core'>"
    "<title>From the title tag</title>"
)
JSON_LD = (
    '<script type=\'application/ld+json\'>{"@type": "Article", "headline": "From JSON-LD"}</script>'
)


@pytest.mark.parametrize(
    ("head", "readability_title", "expected", "source"),
    [
        (JSON_LD + HEAD_ALL, "From Readability", "From JSON-LD", "json-ld"),
        (HEAD_ALL, "From Readability", "From OpenGraph", "opengraph"),
        ("<meta property='og:type' content='article'><title>From the title tag</title>", None,
         "From the title tag", "title"),
        ("<meta name='twitter:title' content='From Twitter'><title>T</title>", None,
         "From Twitter", "twitter"),
        ("<meta name='dc.title' content='From Dublin Core'>", "From Readability",
         "From Dublin Core", "meta"),
        ("<title>From the title tag</title>", "From Readability", "From Readability",
         "readability-js"),
        # Readability.js kept the whole <title> (an em dash is no separator to it): ours cuts.
        ("<title>Monitoring and Management Guide — Celery 5.6.2 documentation</title>",
         "Monitoring and Management Guide — Celery 5.6.2 documentation",
         "Monitoring and Management Guide", "title"),
    ],
)  # fmt: skip
def test_title_precedence(
    head: str, readability_title: str | None, expected: str, source: str
) -> None:
    extra = {"title": readability_title} if readability_title else {}
    metadata = metadata_of(f"<html><head>{head}</head><body><p>x</p></body></html>", **extra)
    assert (metadata.title, metadata.sources["title"]) == (expected, source)


def test_readability_js_fills_what_the_page_does_not_say() -> None:
    metadata = metadata_of(
        "<html><body><h1>A heading</h1><p>Text.</p></body></html>",
        title="Readability's title",
        byline="By Quentin Marsh",
        site_name="Marsh Gazette",
        excerpt="The first paragraph.",
        lang="en-US",
        published_time="2017-08-01T12:00:00Z",
    )
    assert (metadata.title, metadata.authors) == ("Readability's title", ("Quentin Marsh",))
    assert (metadata.site_name, metadata.description, metadata.lang) == (
        "Marsh Gazette",
        "The first paragraph.",
        "en-US",
    )
    assert metadata.date_published == "2017-08-01"
    assert set(metadata.sources.values()) == {"readability-js"}


def test_page_metadata_outranks_readability_js() -> None:
    metadata = metadata_of(
        "<html><head><meta name='author' content='Page Author'></head><body><p>x</p></body></html>",
        byline="Readability Byline",
    )
    assert (metadata.authors, metadata.sources["authors"]) == (("Page Author",), "meta")


def test_home_link_names_the_site_in_the_title() -> None:
    html = (
        "<html><head><title>Hollins Green Allotment Society :: Show Report 2023</title></head>"
        "<body><a href='index.html'><img src='logo.gif' alt='Hollins Green Allotment Society'></a>"
        "<a href='https://elsewhere.example/'>Show Report 2023</a><p>x</p></body></html>"
    )
    assert metadata_of(html, "https://hollins.example/show.html").title == "Show Report 2023"


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://www.newegg.com/p/N82E1", "GAME CHANGER"),
        ("https://newegg.com/p/N82E1", "GAME CHANGER"),
        ("https://www.other-shop.example/p/1", "GAME CHANGER | Newegg.com"),
        (None, "GAME CHANGER | Newegg.com"),
    ],
)
def test_a_title_tail_naming_the_host_is_the_sites_name(url: str | None, expected: str) -> None:
    # og:title with the shop's name as its address says it, and no og:site_name.
    html = (
        "<html><head><meta property='og:title' content='GAME CHANGER | Newegg.com'></head>"
        "<body><p>x</p></body></html>"
    )
    assert metadata_of(html, url).title == expected


def test_rel_author_link_names_the_author() -> None:
    metadata = metadata_of(
        "<html><body><p>By <a rel='author' href='/u/1'>Ida Kern</a></p></body></html>"
    )
    assert (metadata.authors, metadata.sources["authors"]) == (("Ida Kern",), "html")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("en_US", "en-US"),
        ("pt-BR", "pt-BR"),
        ("not a language", None),
        ("", None),
    ],
)
def test_language_tags_are_checked_and_normalised(value: str, expected: str | None) -> None:
    metadata = metadata_of(f"<html lang='{value}'><body><p>x</p></body></html>")
    assert metadata.lang == expected


@pytest.mark.parametrize(
    ("href", "url", "expected"),
    [
        ("/a.jpg", "https://s.example/post", "https://s.example/a.jpg"),
        ("//cdn.example/a.jpg", "https://s.example/post", "https://cdn.example/a.jpg"),
        ("/a.jpg", None, None),  # relative with nothing to resolve it against: not a URL
        ("data:image/png;base64,AAAA", "https://s.example/", None),
        ("javascript:alert(1)", "https://s.example/", None),
    ],
)
def test_image_is_an_absolute_http_url(href: str, url: str | None, expected: str | None) -> None:
    html = f"<html><head><meta property='og:image' content='{href}'></head><body></body></html>"
    assert metadata_of(html, url).image == expected


def test_overlong_values_are_cut_and_whitespace_collapsed() -> None:
    long_title = "word " * 400
    metadata = metadata_of(
        f"<html><head><meta property='og:title' content='{long_title}'>"
        "<meta name='description' content='  two\n\n  lines  '></head><body></body></html>"
    )
    assert metadata.title is not None and len(metadata.title) <= 500
    assert metadata.description == "two lines"


def test_extraction_leaves_the_callers_tree_alone_when_reading_dates() -> None:
    html = f"<html><head><title>T</title></head><body><p>Posted 2019-03-04.</p>{PARAGRAPHS}</body></html>"
    document = parse_html(html)
    before = len(list(document.iter()))
    read_metadata(document, PageSnapshot(html=html))
    assert len(list(document.iter())) == before


# --- the title from <title> and <h1> ---------------------------------------------------------


@pytest.mark.parametrize(
    ("title", "site", "expected"),
    [
        ("Story of the week | Site", "Site", "Story of the week"),
        ("Story of the week - Site", "Site", "Story of the week"),
        ("Story of the week — Site", "site", "Story of the week"),
        ("Story of the week :: Site", "Site", "Story of the week"),
        ("Site | Story of the week", "Site", "Story of the week"),
        ("Site", "Site", "Site"),  # nothing else left: the site's name is all there is
        ("Story | Other", "Site", "Story | Other"),
        ("Story of the week | Site", None, "Story of the week | Site"),
    ],
)
def test_strip_site_name(title: str, site: str | None, expected: str) -> None:
    assert strip_site_name(title, site) == expected


@pytest.mark.parametrize(
    ("title", "host", "expected"),
    [
        (
            "Trail Shoes: Shop All | Road Runner Sports",
            "www.roadrunnersports.com",
            "Trail Shoes: Shop All",
        ),
        ("Set up a workstation | Logitech Ergo Series", "www.logitech.com", "Set up a workstation"),
        (
            "Accounting tools freelancers use | Moxie",
            "www.withmoxie.com",
            "Accounting tools freelancers use",
        ),
        # A short label could be any word; a tail not naming the host is part of the title.
        ("Ferry returns - BBC News", "www.bbc.co.uk", "Ferry returns - BBC News"),
        ("Python vs Java - a fair fight", "python.org", "Python vs Java - a fair fight"),
        ("Newegg.com", "www.newegg.com", "Newegg.com"),
        (
            "iPhone 16 review - Apple's best yet",
            "www.apple.com",
            "iPhone 16 review - Apple's best yet",
        ),
    ],
)
def test_strip_host_suffix(title: str, host: str, expected: str) -> None:
    assert strip_host_suffix(title, host) == expected


@pytest.mark.parametrize(
    ("title", "h1s", "sites", "expected"),
    [
        # A short tail after a separator goes, the site's name unknown.
        ("Council approves the new cycle lanes | Town Herald", [], [],
         ("Council approves the new cycle lanes", "title")),
        ("Why A - B matters", [], [], ("Why A - B matters", "title")),  # head too short
        ("Python released - what is new in the interpreter", [], [],
         ("Python released - what is new in the interpreter", "title")),  # tail too long
        ("Long read here today | Section | Paper", [], [],
         ("Long read here today", "title")),  # peeled twice
        # An <h1> that starts the <title> is the title; the site's <h1> is not.
        ("Story headline words – Site: all the news", ["Story headline words"], [],
         ("Story headline words", "h1")),
        ("Evolve: shared mutable history — evolve extension", ["evolve extension"], [],
         ("Evolve: shared mutable history", "title")),  # the h1 was the tail
        # A book's name as its menu <h1>, most of the <title>: still the tail, not the title.
        ("What is Ownership? - The Rust Programming Language", ["The Rust Programming Language"],
         [], ("What is Ownership? - The Rust Programming Language", "title")),
        ("Town Herald - Council approves the new cycle lanes",
         ["Council approves the new cycle lanes"], [],
         ("Council approves the new cycle lanes", "h1")),  # the site's name before it
        (None, ["Only a heading"], [], ("Only a heading", "h1")),
        (None, [], [], None),
        # The site's name from its metadata or its home link, before or after the title.
        ("Hollins Green Allotment Society :: Show Report 2023", [],
         ["Home", "Hollins Green Allotment Society"], ("Show Report 2023", "title")),
        ("Council approves the new cycle lanes · Town Herald", [], ["Town Herald"],
         ("Council approves the new cycle lanes", "title")),
    ],
)  # fmt: skip
def test_title_from_page(
    title: str | None, h1s: list[str], sites: list[str], expected: tuple[str, str] | None
) -> None:
    assert title_from_page(title, h1s, sites) == expected


@pytest.mark.parametrize("page", CASES, ids=lambda path: path.stem)
def test_title_read_alone_is_the_metadata_title(page: Path) -> None:
    case = json.loads(page.with_suffix(".json").read_text(encoding="utf-8"))
    html = page.read_text(encoding="utf-8")
    alone = extract(html, url=case["url"])
    assert alone.title == case["expected"]["title"]
    assert alone.__dict__.get("metadata") is None  # the title did not read the rest (the dates)
    assert alone.metadata.title == alone.title


@pytest.mark.parametrize("output_format", ["text", "html"])
def test_text_and_html_output_leave_the_markdown_unconverted(output_format: str) -> None:
    """Markdown is computed when first read: a document in another format does not read it
    (the benchmark times ``-f text``, and the conversion was a twentieth of an extraction)."""
    from renderer.formats import render_output

    page = FIXTURES / "metadata" / "jsonld-graph.html"
    extraction = extract(page.read_bytes(), url="https://coast.example/news/harbour-wall")
    document = render_output(extraction, output_format)
    assert extraction.title in document
    assert extraction.__dict__.get("markdown") is None
    assert render_output(extraction, "markdown").startswith(f"# {extraction.title}")


def test_text_output_reads_the_title_alone_and_front_matter_reads_it_once() -> None:
    from renderer.formats import render_output

    page = FIXTURES / "metadata" / "jsonld-graph.html"
    extraction = extract(page.read_bytes(), url="https://coast.example/news/harbour-wall")
    text = render_output(extraction, "text")
    assert text.startswith(f"{extraction.title}\n\n")
    assert extraction.__dict__.get("metadata") is None
    with_front = extract(page.read_bytes(), url="https://coast.example/news/harbour-wall")
    markdown = render_output(with_front, "markdown", with_metadata=True)
    assert "_title" not in with_front.__dict__  # the whole metadata gave the title
    assert f"# {with_front.title}" in markdown
