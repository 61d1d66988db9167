"""Bytes to text: size cap, gzip, binary sniffing and charset detection.

Order of evidence, strongest first (as browsers do): byte order mark, the charset the transport
declared (HTTP Content-Type), ``<meta charset>`` / ``http-equiv`` in the first bytes, strict UTF-8,
then charset-normalizer's statistical guess. Unlike a browser, a declaration is checked before
it is believed, so conflicting declarations still give clean text:

- one that fails to decode strictly is a lie, and the next piece of evidence is tried;
- bytes that are valid UTF-8 and not plain ASCII are UTF-8 whatever a legacy label says (text in
  a legacy encoding is almost never valid UTF-8 by accident; servers defaulting to
  ``charset=ISO-8859-1`` for UTF-8 pages are common);
- bytes that are UTF-8 but for a few invalid sequences (a page pasted together, a truncated
  character) decode as UTF-8 with replacement characters, as a browser shows them, rather than
  as a legacy encoding whose every accent is then garbled;
- a legacy declaration whose text reads as mojibake (charset-normalizer's mess detector) is held
  back: strict UTF-8 and the detector's guess are tried, and the least messy text wins.
"""

from __future__ import annotations

import codecs
import functools
import gzip
import io
import re
import zlib
from dataclasses import dataclass

import charset_normalizer
from charset_normalizer.md import mess_ratio

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
    # WHATWG decodes every GBK label with the GB18030 decoder (a superset: 4-byte sequences).
    "gbk": "gb18030",
    "gb2312": "gb18030",
    "gb_2312": "gb18030",
    "gb_2312-80": "gb18030",
    "csgb2312": "gb18030",
    "iso-ir-58": "gb18030",
    "chinese": "gb18030",
    "x-gbk": "gb18030",
    "tis-620": "cp874",
    "iso-8859-9": "cp1254",
}

MESS_THRESHOLD = 0.2
"""charset-normalizer's own default cut-off: real text scores about 0, mojibake well above."""

MESS_SAMPLE_CHARS = 20_000
"""Enough words to judge an encoding; bounds the (pure Python) mess detector's time."""

# Linear on any input (no lazy scan to a closing tag that may never come).
_MARKUP = re.compile(r"<[^<>]*>|&#?\w+;")

# Codecs that decode printable ASCII unchanged but are no page's encoding: escapes, domain
# names, and ISO-2022-KR (the HTML standard maps it to the "replacement" decoder: an XSS vector).
_NOT_PAGE_ENCODINGS = frozenset(
    {"unicode-escape", "raw-unicode-escape", "idna", "punycode", "iso2022_kr"}
)
_ASCII_PROBE = bytes(range(0x20, 0x7F)) + b"\t\n\r"

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
    """Map a declared charset label to a Python codec name, or None if unknown or unfit for a
    web page (a transform such as rot13 or hex, an escape codec, UTF-7, ISO-2022-KR)."""
    if not label:
        return None
    cleaned = label.strip().strip("\"'").lower()
    return _codec_for(_WHATWG_ALIASES.get(cleaned, cleaned))


@functools.lru_cache(maxsize=256)
def _codec_for(label: str) -> str | None:
    try:
        name = codecs.lookup(label).name
    except (LookupError, ValueError):  # ValueError: a NUL in the label
        return None
    # A meta tag readable as ASCII cannot really be UTF-16: the HTML spec says use UTF-8.
    if name.startswith(("utf-16", "utf-32")):
        return "utf-8"
    if name in _NOT_PAGE_ENCODINGS:
        return None
    # The label was read as ASCII, so the encoding must keep ASCII as is (as the HTML standard
    # requires); this also refuses codecs that are not text encodings at all.
    try:
        ascii_compatible = _ASCII_PROBE.decode(name) == _ASCII_PROBE.decode("ascii")
    except (LookupError, UnicodeError):
        ascii_compatible = False
    return name if ascii_compatible else None


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

    declared = [
        (encoding, evidence)
        for encoding, evidence in (
            (normalize_encoding(declared_encoding), "transport"),
            (normalize_encoding(_meta_charset(data)), "meta"),
        )
        if encoding is not None
    ]
    utf8 = _strict(data, "utf-8")
    utf8_evidence = ""
    if utf8 is None:
        utf8 = _mostly_utf8(data)
        utf8_evidence = "+replace"
    held_back: list[DecodedText] = []  # declarations that decode, but to mojibake
    for encoding, evidence in declared:
        if encoding == "utf-8":
            if utf8 is not None:
                return DecodedText(utf8, encoding, evidence + utf8_evidence)
            continue
        if utf8 is not None and not data.isascii():
            break  # valid UTF-8 beyond ASCII: every legacy label is a lie
        text = _strict(data, encoding)
        if text is None:
            continue
        if not _is_mojibake(text):
            return DecodedText(text, encoding, evidence)
        held_back.append(DecodedText(text, encoding, evidence))
    if utf8 is not None:
        return DecodedText(utf8, "utf-8", "utf-8" + utf8_evidence)

    best = charset_normalizer.from_bytes(data).best()
    if best is not None and best.encoding:
        held_back.append(DecodedText(str(best), best.encoding, "charset-normalizer"))
    if held_back:
        # Detector first on ties: a held-back declaration only wins by being less messy.
        return min(reversed(held_back), key=lambda decoded: _mess(decoded.text))

    if declared:  # the bytes have a few bad sequences for the declared encoding: keep the text
        encoding, evidence = declared[0]
        return DecodedText(data.decode(encoding, "replace"), encoding, evidence + "+replace")
    raise UndecodableInputError("no text encoding decodes this input; is it really HTML?")


def _strict(data: bytes, encoding: str) -> str | None:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        return None


MOSTLY_UTF8_RATIO = 2
"""Bytes are UTF-8 with a few errors when their valid multi-byte characters outnumber the bytes
of invalid sequences this many times. Text in a legacy encoding has few valid UTF-8 sequences:
an accent byte before ASCII (cp1252) is invalid, and of the double-byte characters of GBK,
Shift_JIS or EUC-KR about one in ten happens to form one, a ratio near 0.1. A UTF-8 page with
five broken characters among a hundred accents is at 10 or more."""
_NON_ASCII = re.compile("[^\x00-\x7f]")


def _mostly_utf8(data: bytes) -> str | None:
    """The bytes as UTF-8 with replacement characters, when only a few sequences are invalid."""
    text = data.decode("utf-8", "replace")
    invalid = text.count("\ufffd") - data.count("\ufffd".encode())
    valid = len(_NON_ASCII.findall(text)) - invalid
    return text if valid >= MOSTLY_UTF8_RATIO * invalid else None


def _mess(html: str) -> float:
    """charset-normalizer's mess ratio of the page's non-ASCII words (markup and ASCII-only
    words removed, so a little mojibake in a long English page is not diluted)."""
    visible = _MARKUP.sub(" ", html[: MESS_SAMPLE_CHARS * 5])
    sample = " ".join(word for word in visible.split() if not word.isascii())
    sample = sample[:MESS_SAMPLE_CHARS]
    return mess_ratio(sample, maximum_threshold=1.0) if sample else 0.0


def _is_mojibake(html: str) -> bool:
    return _mess(html) >= MESS_THRESHOLD


def _meta_charset(data: bytes) -> str | None:
    match = _META_CHARSET.search(data[:META_PRESCAN_BYTES])
    return match.group(1).decode("ascii", "replace") if match else None
