"""Bytes to text: size cap, gzip, binary sniffing and charset detection.

Order of evidence, strongest first (as browsers do): byte order mark, the charset the transport
declared (HTTP Content-Type), ``<meta charset>`` / ``http-equiv`` in the first bytes, strict UTF-8,
then charset-normalizer's statistical guess. A declaration that fails to decode strictly is
treated as a lie and the next piece of evidence is tried, so conflicting declarations still give
clean text.
"""

from __future__ import annotations

import codecs
import gzip
import io
import re
import zlib
from dataclasses import dataclass

import charset_normalizer

from ._errors import EmptyInputError, InputTooLargeError, NotHTMLError, UndecodableInputError

DEFAULT_MAX_BYTES = 5_000_000
"""5 MB: the issue's cap; larger than 99% of real article pages, small enough to parse quickly."""

META_PRESCAN_BYTES = 8192
"""HTML5 prescans 1024 bytes; real pages put <meta charset> after long <head> comments, so more."""

BINARY_SNIFF_BYTES = 8192
"""How much of the input is inspected for NUL bytes and magic numbers."""

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),  # before UTF-16 LE, whose BOM is its prefix
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)

# Magic numbers of formats people hand to a reader by mistake.
_NOT_HTML_MAGIC = {
    b"%PDF-": "a PDF document",
    b"\x89PNG": "a PNG image",
    b"GIF8": "a GIF image",
    b"\xff\xd8\xff": "a JPEG image",
    b"PK\x03\x04": "a ZIP archive (or an office document)",
    b"RIFF": "a RIFF media file",
    b"\x7fELF": "an executable",
}

# WHATWG's encoding table maps these labels to supersets; Python knows them by other names.
_WHATWG_ALIASES = {
    "iso-8859-1": "cp1252",
    "latin1": "cp1252",
    "latin-1": "cp1252",
    "us-ascii": "cp1252",
    "ascii": "cp1252",
    "iso8859-1": "cp1252",
    "euc-kr": "cp949",
    "ks_c_5601-1987": "cp949",
    "shift_jis": "cp932",
    "shift-jis": "cp932",
    "sjis": "cp932",
    "x-sjis": "cp932",
    "windows-31j": "cp932",
    "gb2312": "gbk",
    "gb_2312-80": "gbk",
    "x-gbk": "gbk",
    "tis-620": "cp874",
    "iso-8859-9": "cp1254",
}

_META_CHARSET = re.compile(
    rb"""<meta[^>]+?charset\s*=\s*["']?\s*([A-Za-z0-9._:\-]+)""", re.IGNORECASE
)


@dataclass(frozen=True)
class DecodedText:
    """Text plus the encoding it was decoded from and how that was chosen."""

    text: str
    encoding: str
    evidence: str


def normalize_encoding(label: str | None) -> str | None:
    """Map a declared charset label to a Python codec name, or None if unknown."""
    if not label:
        return None
    cleaned = label.strip().strip("\"'").lower()
    cleaned = _WHATWG_ALIASES.get(cleaned, cleaned)
    try:
        name = codecs.lookup(cleaned).name
    except LookupError:
        return None
    # A meta tag readable as ASCII cannot really be UTF-16: the HTML spec says use UTF-8.
    if name.startswith(("utf-16", "utf-32")):
        return "utf-8"
    return name


def check_size(data: bytes, max_bytes: int, what: str = "input") -> None:
    """Refuse input over the cap before any work is spent on it."""
    if len(data) > max_bytes:
        raise InputTooLargeError(len(data), max_bytes, what)


def maybe_gunzip(data: bytes, max_bytes: int) -> bytes:
    """Transparently inflate gzip input (saved pages are often .html.gz), capped against bombs."""
    if not data.startswith(b"\x1f\x8b"):
        return data
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as stream:
            inflated = stream.read(max_bytes + 1)
    except (OSError, EOFError, zlib.error) as exc:
        raise UndecodableInputError(f"input looks gzip-compressed but is corrupt: {exc}") from exc
    check_size(inflated, max_bytes, "decompressed input")
    return inflated


def sniff_binary(data: bytes) -> None:
    """Refuse images, PDFs, archives and other binary data with a message naming what it is."""
    head = data[:BINARY_SNIFF_BYTES]
    for magic, description in _NOT_HTML_MAGIC.items():
        if head.startswith(magic):
            raise NotHTMLError(f"input is {description}, not HTML")
    if any(head.startswith(bom) for bom, _ in _BOMS):
        return  # UTF-16/32 text legitimately contains NUL bytes
    if b"\x00" in head:
        raise UndecodableInputError("input looks binary (it contains NUL bytes), not HTML")


def decode_html(
    data: bytes,
    *,
    declared_encoding: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> DecodedText:
    """Decode raw page bytes to text, refusing oversized, empty and binary input."""
    check_size(data, max_bytes)
    data = maybe_gunzip(data, max_bytes)
    if not data.strip():
        raise EmptyInputError("input is empty")
    sniff_binary(data)

    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return DecodedText(data[len(bom) :].decode(encoding, "replace"), encoding, "bom")

    attempts = [
        (normalize_encoding(declared_encoding), "transport"),
        (normalize_encoding(_meta_charset(data)), "meta"),
        ("utf-8", "utf-8"),
    ]
    for encoding, evidence in attempts:
        if encoding is None:
            continue
        try:
            return DecodedText(data.decode(encoding), encoding, evidence)
        except UnicodeDecodeError:
            continue

    best = charset_normalizer.from_bytes(data).best()
    if best is not None and best.encoding:
        return DecodedText(str(best), best.encoding, "charset-normalizer")

    # Some declared encoding was given but the bytes have a few bad sequences: keep the text.
    for encoding, evidence in attempts[:2]:
        if encoding is not None:
            return DecodedText(data.decode(encoding, "replace"), encoding, evidence + "+replace")
    raise UndecodableInputError("no text encoding decodes this input; is it really HTML?")


def _meta_charset(data: bytes) -> str | None:
    match = _META_CHARSET.search(data[:META_PRESCAN_BYTES])
    return match.group(1).decode("ascii", "replace") if match else None
