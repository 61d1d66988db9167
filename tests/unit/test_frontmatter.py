"""YAML front matter: known fields only, in order, safe for any page text, read back intact."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest
import yaml

from extractor import Metadata, extract, front_matter
from extractor._types import READERMODE_METADATA_FIELDS
from tests.conftest import FIXTURES

FULL = Metadata(
    title="Grafting old apple varieties",
    authors=("Hollis Pennyfeather", "Ines Albrecht"),
    date_published="2019-04-21",
    date_modified="2019-05-02",
    site_name="Orchard Notes",
    lang="en-GB",
    description="A spring afternoon, three scions and a sharp knife.",
    image="https://orchard.example/graft.jpg",
    tags=("apples", "grafting"),
    categories=("Gardening",),
    canonical_url="https://orchard.example/2019/grafting",
    sources={"title": "opengraph"},
)


def read_back(text: str) -> dict[str, object]:
    assert text.startswith("---\n") and text.endswith("\n---\n")
    return yaml.safe_load(text[4 : -len("---\n")])


def test_the_field_list_is_our_metadata_s_fields() -> None:
    # Not Readability.js's (renderer.qa.fidelity.READABILITY_METADATA_FIELDS): ours, all of them.
    fields = {field.name for field in dataclasses.fields(Metadata)} - {"sources"}
    assert sorted(READERMODE_METADATA_FIELDS) == sorted(fields)


def test_every_known_field_in_order_and_read_back() -> None:
    data = read_back(front_matter(FULL, url="https://orchard.example/2019/grafting?x=1"))
    assert list(data) == [
        "title", "authors", "date_published", "date_modified", "site_name", "lang",
        "description", "image", "tags", "categories", "canonical_url", "url",
    ]  # fmt: skip
    assert data["authors"] == ["Hollis Pennyfeather", "Ines Albrecht"]
    assert data["date_published"] == dt.date(2019, 4, 21)  # a YAML date, not a string
    assert data["url"] == "https://orchard.example/2019/grafting?x=1"


def test_unknown_fields_and_sources_are_left_out() -> None:
    data = read_back(front_matter(Metadata(title="Only a title", sources={"title": "h1"})))
    assert data == {"title": "Only a title"}


def test_nothing_known_gives_nothing() -> None:
    assert front_matter(Metadata()) == ""


@pytest.mark.parametrize(
    "title",
    [
        "---",
        "key: value",
        "- a list item?",
        "#not a comment",
        "*alias",
        "&anchor",
        "!!python/object:os.system",
        "'quoted' and \"double\"",
        "yes",
        "null",
        "2019-04-21",
        "1.5",
        "Ünïcödé — 漢字 😀",
        "a" * 300,
    ],
)
def test_any_page_text_comes_back_as_the_same_string(title: str) -> None:
    text = front_matter(Metadata(title=title, description=title))
    data = read_back(text)
    assert data == {"title": title, "description": title}
    assert text.count("\n---\n") == 1  # the body cannot close the block early


def test_unicode_is_written_as_is() -> None:
    assert "Ünïcödé — 漢字" in front_matter(Metadata(title="Ünïcödé — 漢字"))


def test_long_values_stay_on_one_line() -> None:
    text = front_matter(Metadata(description="word " * 100 + "end"))
    assert len(text.splitlines()) == 3


def test_front_matter_of_an_extraction_sits_on_top_of_its_markdown() -> None:
    page = FIXTURES / "metadata" / "opengraph-only.html"
    result = extract(page.read_bytes(), url="https://orchard.example/2019/grafting")
    document = front_matter(result.metadata, url=result.url) + "\n" + result.markdown
    head, body = document[4:].split("\n---\n", 1)
    assert yaml.safe_load(head)["title"] == "Grafting old apple varieties onto young rootstock"
    assert "cambium" in body


def test_page_text_cannot_become_raw_html_in_markdown() -> None:
    from markdown_it import MarkdownIt

    from extractor import Metadata

    header = front_matter(
        Metadata(title="<img src=x onerror=alert(1)>", tags=("<script>t()</script>",))
    )
    rendered = MarkdownIt("commonmark", {"html": True}).render(header + "\nBody\n")
    assert "<img" not in rendered and "<script" not in rendered
    assert "onerror=alert(1)" in header  # the text is kept, only its "<" is defused
