"""Output formats for indexes and batches: XML (one schema), CSV (a row a page), JSON Lines.

Each takes an ``Extraction`` or, for a page of a batch that failed, a ``Failure`` (its URL and
the ``ReadermodeError``), so a batch writes one record per page whatever happened to it. A
record's ``status`` is "ok" or the error's name in kebab case ("content-too-short" for
``ContentTooShortError``, exit code 18).

Metadata is written generically from ``dataclasses.asdict(extraction.metadata)``: a field added
to ``Metadata`` appears in every format without a change here. Lists become one value each in
XML and "; "-joined cells in CSV; dicts become ``field.key`` entries in XML and a JSON cell in
CSV; None is left out (XML) or an empty cell (CSV).

The XML schema is ``docs/readermode.xsd`` (documented there). Its content is the plain text,
one ``<p>`` per block (a paragraph, heading, whole list or table, or code block: what the text
output separates with a blank line), rather than Markdown: XML consumers get structure from
the elements, not from a second markup inside.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any

import lxml.etree as etree

from ._errors import ReadermodeError
from ._parse import parse_fragment
from ._text import count_words, text_blocks
from ._types import Extraction, Metadata, TraceEntry

XML_SCHEMA_VERSION = "1"
"""The ``version`` attribute of the root element: raised when the schema changes shape."""

CSV_LIST_SEPARATOR = "; "

# Characters XML 1.0 cannot carry at all (C0 controls but tab/LF/CR, surrogates, U+FFFE/FFFF).
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
# Word boundaries in a class name: "ContentTooShort" -> Content|Too|Short, "HTTPStatus" -> HTTP|...
_CAMEL_HUMP = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
# JSON allows these raw in strings, but str.splitlines() and some JSON Lines readers break a
# line at them: escape them so a record is always exactly one line.
_LINE_BREAKERS = {"\u2028": "\\u2028", "\u2029": "\\u2029", "\x85": "\\u0085"}

_FIXED_HEAD = ("url", "status", "error", "stage", "words")
_FIXED_TAIL = ("text", "comments")


@dataclass(frozen=True)
class Failure:
    """A page of a batch that gave no extraction: where it was, and the error that stopped it."""

    url: str | None
    error: ReadermodeError

    @property
    def status(self) -> str:
        return error_status(self.error)


Record = Extraction | Failure


def error_status(error: ReadermodeError) -> str:
    """The status word of an error: its class name in kebab case without "Error"."""
    name = type(error).__name__.removesuffix("Error") or "readermode"
    return _CAMEL_HUMP.sub("-", name).lower()


def _metadata_column(name: str) -> str:
    # A metadata field named like one of our own columns must not shadow it.
    return f"metadata_{name}" if name in _FIXED_HEAD + _FIXED_TAIL else name


CSV_COLUMNS: tuple[str, ...] = (
    *_FIXED_HEAD,
    *(_metadata_column(field.name) for field in fields(Metadata)),
    *_FIXED_TAIL,
)
"""The CSV header: fixed columns, then one per ``Metadata`` field, then the text."""


def csv_header() -> list[str]:
    """The header row of a CSV batch (``CSV_COLUMNS``)."""
    return list(CSV_COLUMNS)


def to_csv_row(record: Record) -> list[str]:
    """One page as cells in ``CSV_COLUMNS`` order; the text is one cell with its newlines."""
    if isinstance(record, Failure):
        head = [record.url or "", record.status, str(record.error)]
        return head + [""] * (len(CSV_COLUMNS) - len(head))
    metadata = asdict(record.metadata)
    cells = [record.url or "", "ok", "", record.stage, str(count_words(record.text))]
    cells += [_csv_cell(metadata[field.name]) for field in fields(Metadata)]
    cells += [record.text, record.comments.text if record.comments else ""]
    return cells


def csv_line(cells: Sequence[str]) -> str:
    """One CSV record as text (RFC 4180: quoted where needed, CRLF-terminated, newlines kept
    inside quoted cells), for writers that build the file a line at a time."""
    buffer = io.StringIO()
    csv.writer(buffer).writerow(cells)
    return buffer.getvalue()


def _csv_cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return CSV_LIST_SEPARATOR.join(str(item) for item in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, sort_keys=True) if value else ""
    return str(value)


def to_jsonl_line(record: Record, *, trace: bool = True) -> str:
    """One page as one line of JSON (no raw line break inside), without the final newline.

    An extraction has the JSON output's fields plus ``status`` ("ok") and ``words``; a failure
    has ``url``, ``status``, ``error`` (the one-line message) and ``exit_code``.
    """
    if isinstance(record, Failure):
        data: dict[str, Any] = {
            "url": record.url,
            "status": record.status,
            "error": str(record.error),
            "exit_code": record.error.exit_code,
        }
    else:
        data = {"status": "ok", "words": count_words(record.text), **record.to_dict()}
        if not trace:
            data.pop("trace", None)
    line = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for raw, escaped in _LINE_BREAKERS.items():
        line = line.replace(raw, escaped)
    return line


def to_xml(record: Record, *, trace: bool = False) -> str:
    """One page as an XML document (root ``<page>``, ``docs/readermode.xsd``)."""
    return _serialise(_page_element(record, trace=trace))


def to_xml_batch(records: Iterable[Record], *, trace: bool = False) -> str:
    """Several pages as one XML document (root ``<pages>`` holding a ``<page>`` each)."""
    root = etree.Element("pages", version=XML_SCHEMA_VERSION)
    for record in records:
        page = _page_element(record, trace=trace)
        del page.attrib["version"]
        root.append(page)
    return _serialise(root)


def _serialise(root: etree._Element) -> str:
    body = etree.tostring(root, encoding="unicode", pretty_print=True)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + body


def _xml_text(value: Any) -> str:
    if isinstance(value, float):  # xs:decimal has no exponent notation
        value = format(value, "f")
    return _NOT_XML.sub("", str(value))


def _page_element(record: Record, *, trace: bool) -> etree._Element:
    page = etree.Element("page", version=XML_SCHEMA_VERSION)
    if record.url is not None:
        page.set("url", _xml_text(record.url))
    if isinstance(record, Failure):
        page.set("status", record.status)
        error = etree.SubElement(page, "error", code=str(record.error.exit_code))
        error.text = _xml_text(record.error)
        return page
    page.set("status", "ok")
    page.set("stage", _xml_text(record.stage))
    page.set("words", str(count_words(record.text)))
    metadata = etree.SubElement(page, "metadata")
    for name, value in asdict(record.metadata).items():
        for entry_name, entry_value in _flatten(name, value):
            meta = etree.SubElement(metadata, "meta", name=entry_name)
            meta.text = _xml_text(entry_value)
    _add_blocks(etree.SubElement(page, "text"), record.html)
    if record.comments is not None:
        _add_blocks(etree.SubElement(page, "comments"), record.comments.html)
    if record.warnings:
        warnings = etree.SubElement(page, "warnings")
        for warning in record.warnings:
            etree.SubElement(warnings, "warning").text = _xml_text(warning)
    if trace:
        _add_trace(etree.SubElement(page, "trace"), record.trace)
    return page


def _flatten(name: str, value: Any) -> Iterable[tuple[str, Any]]:
    """(name, scalar) pairs of a metadata field: one per list item, ``name.key`` for dicts."""
    if value is None:
        return
    if isinstance(value, list | tuple):
        for item in value:
            yield from _flatten(name, item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _flatten(f"{name}.{key}", item)
    elif value != "":
        yield name, value


def _add_blocks(parent: etree._Element, html: str) -> None:
    """A <p> per block of the text output, read from the HTML it was made from (splitting the
    text at blank lines would cut code blocks that hold one)."""
    if not html.strip():
        return
    for block in text_blocks(parse_fragment(html)):
        etree.SubElement(parent, "p").text = _xml_text(block)


def _add_trace(parent: etree._Element, entries: Iterable[TraceEntry]) -> None:
    for entry in entries:
        etree.SubElement(
            parent,
            "entry",
            {key: _xml_text(value) for key, value in entry.to_dict().items()},
        )
