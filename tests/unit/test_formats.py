"""XML (validated against docs/readermode.xsd), CSV rows and JSON Lines, for pages and failures."""

from __future__ import annotations

import copy
import csv
import dataclasses
import io
import json
from functools import cache

import lxml.etree as etree
import pytest

from extractor import (
    CSV_COLUMNS,
    ContentTooShortError,
    Extraction,
    ExtractOptions,
    Failure,
    HTTPStatusError,
    Metadata,
    NoContentError,
    csv_header,
    csv_line,
    error_status,
    extract,
    to_csv_row,
    to_jsonl_line,
    to_xml,
    to_xml_batch,
)
from extractor._types import with_text as known_text
from tests.conftest import FIXTURES, REPO

URL = "https://pages.example.org/posts/page.html"
PAGES = [
    FIXTURES / "formats" / "structure.html",
    FIXTURES / "formats" / "code.html",
    FIXTURES / "pages" / "comments--restoring-a-1974-sewing-machine" / "source.html",
]
FAILURE = Failure(URL, ContentTooShortError(12, 300))


@cache
def schema() -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(REPO / "docs" / "readermode.xsd")))


@cache
def extraction(index: int) -> Extraction:
    options = ExtractOptions(include_comments=True)
    return extract(PAGES[index].read_bytes(), url=URL, options=options)


def parsed(xml: str) -> etree._Element:
    root = etree.fromstring(xml.encode("utf-8"))
    schema().assertValid(root)
    return root


def with_text(result: Extraction, text: str) -> Extraction:
    """A copy whose text is ``text``, which its html does not have (text derives from html)."""
    return known_text(copy.copy(result), text)


# --- XML ------------------------------------------------------------------------------------


@pytest.mark.parametrize("index", range(len(PAGES)), ids=[p.parent.name for p in PAGES])
@pytest.mark.parametrize("trace", [False, True], ids=["plain", "trace"])
def test_xml_is_valid_and_holds_the_text_block_by_block(index: int, trace: bool) -> None:
    result = extraction(index)
    page = parsed(to_xml(result, trace=trace))
    assert page.tag == "page" and page.get("status") == "ok"
    assert page.get("url") == result.url and page.get("stage") == result.stage
    blocks = [p.text for p in page.find("text")]
    assert "\n\n".join(blocks) == result.text.strip()
    assert (page.find("trace") is not None) == trace
    if trace:
        assert len(page.find("trace")) == len(result.trace)


def test_xml_comments_are_their_own_element() -> None:
    result = extraction(2)
    assert result.comments is not None
    page = parsed(to_xml(result))
    comments = "\n\n".join(p.text for p in page.find("comments"))
    assert comments == result.comments.text.strip()
    assert parsed(to_xml(extraction(0))).find("comments") is None


def test_xml_metadata_has_every_known_field() -> None:
    result = extraction(0)
    page = parsed(to_xml(result))
    names = {meta.get("name") for meta in page.find("metadata")}
    expected: set[str] = set()
    for name, value in dataclasses.asdict(result.metadata).items():
        if isinstance(value, dict):
            expected |= {f"{name}.{key}" for key, item in value.items() if item}
        elif value not in (None, "", (), []):
            expected.add(name)
    assert expected  # the page has metadata: the test can fail
    assert names == expected


@dataclasses.dataclass(frozen=True)
class _WiderMetadata:
    """Stands in for Metadata fields to come: lists, mappings, numbers."""

    title: str | None = "A title"
    authors: tuple[str, ...] = ("Ann Writer", "Bo Reporter")
    sources: dict[str, str] = dataclasses.field(default_factory=lambda: {"title": "json-ld"})
    reading_minutes: int = 4
    image: str | None = None


def test_xml_metadata_is_written_generically() -> None:
    result = dataclasses.replace(extraction(0), metadata=_WiderMetadata())
    page = parsed(to_xml(result))
    entries = [(meta.get("name"), meta.text) for meta in page.find("metadata")]
    assert entries == [
        ("title", "A title"),
        ("authors", "Ann Writer"),
        ("authors", "Bo Reporter"),
        ("sources.title", "json-ld"),
        ("reading_minutes", "4"),
    ]


def test_xml_drops_characters_xml_cannot_carry() -> None:
    result = dataclasses.replace(
        extraction(0),
        url="https://a.test/\x0c",
        metadata=Metadata(title="Bell\x07 and \ufffe"),
        warnings=("partial\x00",),
    )
    page = parsed(to_xml(result))
    assert page.get("url") == "https://a.test/"
    assert page.find("metadata/meta").text == "Bell and "
    assert page.find("warnings/warning").text == "partial"


def test_xml_code_block_is_one_block_with_its_blank_lines() -> None:
    page = parsed(to_xml(extraction(1)))
    blocks = [p.text for p in page.find("text")]
    sources = ["".join(pre.itertext()).strip("\n") for pre in
               etree.HTML(PAGES[1].read_bytes()).iter("pre")]  # fmt: skip
    assert any("\n\n" in source for source in sources)
    for source in sources:
        assert source in blocks


def test_xml_failure_and_batch() -> None:
    page = parsed(to_xml(FAILURE))
    assert page.get("status") == "content-too-short"
    assert page.find("error").get("code") == "18"
    assert "below --min-length 300" in page.find("error").text
    pages = parsed(to_xml_batch([extraction(0), FAILURE, extraction(1)]))
    assert pages.tag == "pages"
    assert [p.get("status") for p in pages] == ["ok", "content-too-short", "ok"]


def test_schema_rejects_what_it_should() -> None:
    page = etree.fromstring(to_xml(extraction(0)).encode("utf-8"))
    page.remove(page.find("text"))
    assert not schema().validate(page)


# --- CSV ------------------------------------------------------------------------------------


def read_csv(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def test_csv_header_has_a_column_per_metadata_field() -> None:
    assert csv_header() == list(CSV_COLUMNS)
    for field in dataclasses.fields(Metadata):
        assert field.name in CSV_COLUMNS or f"metadata_{field.name}" in CSV_COLUMNS
    assert len(set(CSV_COLUMNS)) == len(CSV_COLUMNS)


def test_csv_one_record_per_page_with_newlines_kept() -> None:
    results = [extraction(index) for index in range(len(PAGES))]
    text = csv_line(csv_header()) + "".join(csv_line(to_csv_row(r)) for r in [*results, FAILURE])
    rows = read_csv(text)
    assert len(rows) == 1 + len(results) + 1
    header = rows[0]
    for row, result in zip(rows[1:], results, strict=False):
        record = dict(zip(header, row, strict=True))
        assert record["text"] == result.text and "\n" in record["text"]
        assert record["status"] == "ok" and record["url"] == result.url
        assert record["title"] == (result.metadata.title or "")
    failed = dict(zip(header, rows[-1], strict=True))
    assert failed["status"] == "content-too-short" and failed["text"] == ""
    assert rows[3][header.index("comments")] == results[2].comments.text


def test_csv_cells_of_list_and_mapping_values() -> None:
    result = dataclasses.replace(extraction(0), metadata=Metadata(title="T"))
    record = dict(zip(CSV_COLUMNS, to_csv_row(result), strict=True))
    assert record["title"] == "T"
    assert all(record[name] == "" for name in CSV_COLUMNS if name not in {
        "url", "status", "stage", "words", "title", "text", "comments"})  # fmt: skip


# --- JSON Lines -----------------------------------------------------------------------------


@pytest.mark.parametrize("breaker", ["\n", "\r", "\u2028", "\u2029", "\x85"])
def test_jsonl_is_one_line_whatever_the_text(breaker: str) -> None:
    result = with_text(extraction(0), f"one{breaker}two")
    line = to_jsonl_line(result)
    assert len(line.splitlines()) == 1 and "\n" not in line
    data = json.loads(line)
    assert data["text"] == f"one{breaker}two"
    assert data["status"] == "ok" and data["words"] == 2


def test_jsonl_carries_the_json_output() -> None:
    result = extraction(2)
    data = json.loads(to_jsonl_line(result))
    assert {key: data[key] for key in result.to_dict()} == json.loads(result.to_json())
    assert "trace" not in json.loads(to_jsonl_line(result, trace=False))


def test_jsonl_failure() -> None:
    data = json.loads(to_jsonl_line(FAILURE))
    assert data == {
        "url": URL,
        "status": "content-too-short",
        "error": str(FAILURE.error),
        "exit_code": 18,
    }


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (ContentTooShortError(1, 2), "content-too-short"),
        (HTTPStatusError(404, URL), "http-status"),
        (NoContentError("none"), "no-content"),
    ],
)
def test_error_status_words(error: Exception, status: str) -> None:
    assert error_status(error) == status
