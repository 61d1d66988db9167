"""Decoding: BOM, declared charsets, statistical fallback, and refusals."""

from __future__ import annotations

import codecs
import gzip
import time

import pytest

from extractor import (
    EmptyInputError,
    InputTooLargeError,
    NotHTMLError,
    UndecodableInputError,
    decode_html,
)
from extractor._decode import normalize_encoding
from tests.conftest import FIXTURES

KOREAN = "서울 새벽시장의 젊은 상인들이 전통을 새롭게 잇고 있다."
JAPANESE = "東京の古い書店街で、若い店主たちが新しい試みを始めている。"
CHINESE = "这座城市的老街正在经历一场安静的变化，年轻人回来开店。"
FRENCH = "Le café était déjà fermé à l'heure où nous sommes arrivés, hélas."


def page(body: str, head: str = "") -> str:
    return f"<html><head>{head}</head><body><p>{body}</p></body></html>"


@pytest.mark.parametrize(
    ("text", "encoding", "label"),
    [
        (KOREAN, "euc-kr", "euc-kr"),
        (KOREAN, "cp949", "EUC-KR"),
        (JAPANESE, "shift_jis", "Shift_JIS"),
        (JAPANESE, "euc-jp", "EUC-JP"),
        (CHINESE, "gbk", "GBK"),
        (CHINESE, "gb2312", "gb2312"),
        (FRENCH, "cp1252", "windows-1252"),
        (FRENCH, "latin-1", "ISO-8859-1"),
    ],
)
@pytest.mark.parametrize("style", ["meta-charset", "http-equiv"])
def test_declared_charset_in_meta(text: str, encoding: str, label: str, style: str) -> None:
    if style == "meta-charset":
        head = f'<meta charset="{label}">'
    else:
        head = f'<meta http-equiv="Content-Type" content="text/html; charset={label}">'
    decoded = decode_html(page(text, head).encode(encoding))
    assert text in decoded.text
    assert "\ufffd" not in decoded.text
    assert decoded.evidence == "meta"


@pytest.mark.parametrize(
    ("bom", "codec"),
    [
        (codecs.BOM_UTF8, "utf-8"),
        (codecs.BOM_UTF16_LE, "utf-16-le"),
        (codecs.BOM_UTF16_BE, "utf-16-be"),
    ],
)
def test_bom_wins_over_a_wrong_declaration(bom: bytes, codec: str) -> None:
    html = page(KOREAN, '<meta charset="windows-1252">')
    decoded = decode_html(bom + html.encode(codec))
    assert KOREAN in decoded.text
    assert decoded.evidence == "bom"
    assert not decoded.text.startswith("\ufeff")


def test_transport_charset_beats_meta() -> None:
    data = page(KOREAN, '<meta charset="windows-1252">').encode("euc-kr")
    decoded = decode_html(data, declared_encoding="EUC-KR")
    assert KOREAN in decoded.text
    assert decoded.evidence == "transport"


def test_wrong_declaration_falls_through_to_utf8() -> None:
    # Declared Shift_JIS, really UTF-8 Korean: strict Shift_JIS decoding fails on these bytes.
    data = page(KOREAN, '<meta charset="shift_jis">').encode("utf-8")
    decoded = decode_html(data)
    assert KOREAN in decoded.text
    assert decoded.evidence == "utf-8"


@pytest.mark.parametrize(
    ("text", "encoding"),
    [(KOREAN * 4, "euc-kr"), (JAPANESE * 4, "shift_jis"), (CHINESE * 4, "gb18030")],
)
def test_undeclared_legacy_charset_is_detected(text: str, encoding: str) -> None:
    decoded = decode_html(page(text).encode(encoding))
    assert text in decoded.text
    assert decoded.evidence == "charset-normalizer"


def test_gzip_is_inflated_and_capped() -> None:
    data = gzip.compress(page(FRENCH).encode("utf-8"))
    assert FRENCH in decode_html(data).text
    bomb = gzip.compress(b"<p>" + b"a" * 200_000 + b"</p>")
    with pytest.raises(InputTooLargeError):
        decode_html(bomb, max_bytes=100_000)


@pytest.mark.parametrize(
    ("data", "error"),
    [
        (b"", EmptyInputError),
        (b"   \n\t ", EmptyInputError),
        (b"\x89PNG\r\n\x1a\n" + b"\x00" * 50, NotHTMLError),
        (b"%PDF-1.7\n%...", NotHTMLError),
        (b"<p>a\x00b\x00c</p>" + bytes(range(256)), UndecodableInputError),
        (b"x" * 101, InputTooLargeError),
    ],
)
def test_refusals(data: bytes, error: type[Exception]) -> None:
    with pytest.raises(error):
        decode_html(data, max_bytes=300 if error is not InputTooLargeError else 100)


@pytest.mark.parametrize(
    ("label", "codec"),
    [
        ("EUC-KR", "cp949"),
        ("Shift_JIS", "cp932"),
        ("gb2312", "gb18030"),
        ("GBK", "gb18030"),
        ("iso-8859-1", "cp1252"),
        ("utf-16", "utf-8"),
        ("UTF-8", "utf-8"),
        ("no-such-charset", None),
        (None, None),
        # Python codecs that are no page encoding (found by tests/property/test_fuzz.py: rot13
        # and hex raised LookupError out of decode_html, a NUL in the label ValueError).
        ("rot13", None),
        ("hex", None),
        ("base64", None),
        ("undefined", None),
        ("unicode_escape", None),
        ("utf-7", None),
        ("iso-2022-kr", None),
        ("cp037", None),
        ("utf-8\x00", None),
        ("iso-2022-jp", "iso2022_jp"),
    ],
)
def test_normalize_encoding(label: str | None, codec: str | None) -> None:
    assert normalize_encoding(label) == codec


@pytest.mark.parametrize("label", ["windows-1252", "iso-8859-1", "Shift_JIS", "EUC-KR"])
@pytest.mark.parametrize("where", ["meta", "transport"])
def test_valid_utf8_beats_a_legacy_label(label: str, where: str) -> None:
    """Servers default to charset=ISO-8859-1 for UTF-8 pages; legacy text is almost never
    valid UTF-8 by accident."""
    head = f'<meta charset="{label}">' if where == "meta" else ""
    data = page(FRENCH + " " + KOREAN, head).encode("utf-8")
    decoded = decode_html(data, declared_encoding=label if where == "transport" else None)
    assert FRENCH in decoded.text and KOREAN in decoded.text
    assert decoded.encoding == "utf-8"


def test_ascii_keeps_its_legacy_label() -> None:
    decoded = decode_html(page("plain words", '<meta charset="windows-1252">').encode())
    assert decoded.evidence == "meta"


@pytest.mark.parametrize(
    ("text", "codec", "lie"),
    [(KOREAN * 3, "euc-kr", "windows-1252"), (CHINESE * 3, "gbk", "iso-8859-1")],
)
def test_a_legacy_label_that_reads_as_mojibake_is_held_back(
    text: str, codec: str, lie: str
) -> None:
    """Every byte decodes as windows-1252, so only the text shows the lie."""
    data = page(text, f'<meta charset="{lie}">').encode(codec)
    decoded = decode_html(data)
    assert text in decoded.text
    assert decoded.evidence == "charset-normalizer"
    # The header outranks the <meta>, but is held back the same way when it lies.
    decoded = decode_html(
        page(text, f'<meta charset="{codec}">').encode(codec), declared_encoding=lie
    )
    assert text in decoded.text
    assert decoded.evidence == "meta"


def test_true_legacy_text_keeps_its_label() -> None:
    """Accented Latin text is not mojibake: the declaration is believed."""
    data = page(FRENCH * 3 + " “quoted” — 2,40 € œuvre…", '<meta charset="windows-1252">')
    decoded = decode_html(data.encode("cp1252"))
    assert decoded.evidence == "meta"
    assert "“quoted” — 2,40 € œuvre…" in decoded.text


def test_gb2312_label_reads_gb18030_characters() -> None:
    """WHATWG decodes gb2312/GBK with the GB18030 decoder: 䶮, € and emoji survive."""
    text = CHINESE + "刘䶮 €3 🍵"
    decoded = decode_html(page(text, '<meta charset="gb2312">').encode("gb18030"))
    assert text in decoded.text
    assert decoded.evidence == "meta"


@pytest.mark.parametrize(
    "hostile",
    ["<" * 200_000, "&" + "a" * 400_000, "é" + "x" * 400_000, "<script" * 50_000, "<!--" * 50_000],
)
def test_mess_check_is_linear(hostile: str) -> None:
    """The mojibake check runs on page text: no input makes it quadratic. Measured in this
    thread's CPU time, not wall-clock time: on a busy machine the wall clock measures the
    neighbours (a quadratic check on these inputs costs minutes of CPU, linear well under 1 s)."""
    data = ('<meta charset="windows-1252">' + hostile).encode("cp1252")
    started = time.thread_time()
    decode_html(data)
    assert time.thread_time() - started < 3.0


@pytest.mark.parametrize("label", ["rot13", "hex", "zlib", "undefined", "punycode"])
def test_a_non_text_codec_label_is_ignored(label: str) -> None:
    data = page(FRENCH, f'<meta charset="{label}">').encode("utf-8")
    assert FRENCH in decode_html(data).text
    assert FRENCH in decode_html(data, declared_encoding=label).text
    assert FRENCH in decode_html(data, declared_encoding=label + "\x00").text


INVALID_UTF8_PAGE = FIXTURES / "hostile" / "invalid-utf8.html"


@pytest.mark.parametrize("declared", ["meta", "none", "legacy header"])
def test_utf8_with_a_few_invalid_sequences_stays_utf8(declared: str) -> None:
    """Five broken sequences among the accents of a UTF-8 page: replacement characters where
    they are, as a browser shows them, and every accent elsewhere intact (not windows-1252)."""
    data = INVALID_UTF8_PAGE.read_bytes()
    if declared == "none":
        data = data.replace(b'<meta charset="utf-8">', b"")
    header = "windows-1252" if declared == "legacy header" else None
    decoded = decode_html(data, declared_encoding=header)
    assert decoded.encoding == "utf-8" and decoded.evidence.endswith("+replace")
    assert decoded.text.count("\ufffd") == 6  # the overlong form is two
    assert "Le marché couvert" in decoded.text and "n’arriverait" in decoded.text
    assert "Ã" not in decoded.text


@pytest.mark.parametrize(
    ("text", "codec"),
    [
        (FRENCH * 4, "cp1252"),
        (KOREAN * 4, "euc-kr"),
        (JAPANESE * 4, "shift_jis"),
        (CHINESE * 4, "gbk"),
    ],
)
def test_legacy_text_is_not_mistaken_for_broken_utf8(text: str, codec: str) -> None:
    """Undeclared, so only the statistics decide (short cp1252 text may get a cousin codec)."""
    decoded = decode_html(page(text).encode(codec))
    assert decoded.encoding != "utf-8" and "\ufffd" not in decoded.text
