"""The charset corpus (fixtures/charsets) through the static path: bytes given to
``extractor.extract``, and pages served on 127.0.0.1 with and without a charset in Content-Type.

Every case must give every paragraph of its article, its title, no U+FFFD and no mojibake
(ftfy's detector). The helpers here (cases, the loopback server, ``assert_clean``) are shared
with tests/cli/test_cli_charsets.py and tests/browser/test_charsets_rendered.py.
"""

from __future__ import annotations

import http.server
import json
import runpy
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import ftfy
import pytest
from ftfy.badness import is_bad

from extractor import Extraction, decode_html, extract, snapshot_from_bytes
from renderer.fetch.static import static_snapshot
from tests.conftest import FIXTURES

CHARSETS = FIXTURES / "charsets"
VARIANTS = ("header", "bare")
"""How a case is served: with its manifest's charset in Content-Type, or as plain text/html."""


@dataclass(frozen=True)
class CharsetCase:
    name: str
    source: Path
    encoding: str
    declared: str
    header: str
    title: str
    present: tuple[str, ...]
    chromium_misreads: tuple[str, ...]

    @property
    def data(self) -> bytes:
        return self.source.read_bytes()

    def content_type(self, variant: str) -> str:
        return f"text/html; charset={self.header}" if variant == "header" else "text/html"


def load_cases() -> list[CharsetCase]:
    cases = []
    for manifest in sorted(CHARSETS.glob("*/case.json")):
        spec = json.loads(manifest.read_text(encoding="utf-8"))
        cases.append(
            CharsetCase(
                name=manifest.parent.name,
                source=manifest.parent / "source.html",
                encoding=spec["encoding"],
                declared=spec["declared"],
                header=spec["header"],
                title=spec["title"],
                present=tuple(spec["present"]),
                chromium_misreads=tuple(spec["chromium_misreads"]),
            )
        )
    return cases


CASES = load_cases()
CASE_IDS = [case.name for case in CASES]


def assert_clean(text: str, what: str = "text") -> None:
    """No replacement character and nothing ftfy would call mojibake."""
    assert "\ufffd" not in text, f"U+FFFD in the {what}: {text[:200]!r}"
    assert not is_bad(text), f"mojibake in the {what}: {text[:200]!r}"
    assert ftfy.fix_encoding(text) == text, f"ftfy would re-decode the {what}: {text[:200]!r}"


def assert_case_extracted(result: Extraction, case: CharsetCase) -> None:
    """Every paragraph and the title, read right; no output format garbled."""
    for paragraph in case.present:
        assert paragraph in result.text, f"{case.name}: missing {paragraph[:40]!r}"
    assert result.metadata.title == case.title
    for what, text in (
        ("text", result.text),
        ("markdown", result.markdown),
        ("html", result.html),
        ("title", result.metadata.title or ""),
    ):
        assert_clean(text, f"{case.name} {what}")


class CharsetHandler(http.server.BaseHTTPRequestHandler):
    """GET /<case>/<variant>: the case's bytes with or without a charset in Content-Type."""

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        name, _, variant = self.path.strip("/").partition("/")
        case = next((c for c in CASES if c.name == name), None)
        if case is None or variant not in VARIANTS:
            self.send_error(404)
            return
        body = case.data
        self.send_response(200)
        self.send_header("Content-Type", case.content_type(variant))
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)


def serve_charsets() -> Iterator[str]:
    """Base URL (ending in '/') of a loopback server for the corpus, for a fixture to yield."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), CharsetHandler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="module")
def charset_server() -> Iterator[str]:
    yield from serve_charsets()


# ---------------------------------------------------------------- the corpus itself


def test_corpus_covers_the_issue() -> None:
    encodings = {case.encoding for case in CASES}
    assert {"utf-8", "utf-16-le", "euc-kr", "shift_jis", "gbk", "gb18030", "cp1252"} <= encodings
    declared = {case.declared for case in CASES}
    assert {"bom", "meta-charset", "http-equiv", "header", "none"} <= declared
    assert {d for d in declared if d.startswith("conflict-")} >= {
        "conflict-meta-lies",
        "conflict-header-lies",
        "conflict-bom-vs-meta",
    }
    for case in CASES:  # long enough for every stage of the cascade to keep the article
        assert sum(len(p) for p in case.present) >= 300, case.name


def test_fixture_bytes_are_reproducible() -> None:
    """The committed bytes are exactly what fixtures/charsets/generate.py writes."""
    generate = runpy.run_path(str(CHARSETS / "generate.py"), run_name="charset_generate")
    assert {case.name for case in generate["CASES"]} == set(CASE_IDS)
    for case in generate["CASES"]:
        for path, data in generate["files"](case).items():
            assert path.read_bytes() == data, f"{path} is stale: run {CHARSETS / 'generate.py'}"


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_bytes_really_are_in_their_encoding(case: CharsetCase) -> None:
    """A fixture that decoded cleanly by accident would test nothing: the raw bytes must not be
    UTF-8 unless the case says so."""
    if case.encoding == "utf-8":
        case.data.removeprefix(b"\xef\xbb\xbf").decode("utf-8")
    else:
        with pytest.raises(UnicodeDecodeError):
            case.data.decode("utf-8")


# ---------------------------------------------------------------- static path


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_file_bytes(case: CharsetCase) -> None:
    """A saved file: no transport header, only what the bytes say."""
    decoded = decode_html(case.data)
    assert all(paragraph in decoded.text for paragraph in case.present)
    assert_clean(decoded.text, "decoded page")
    assert_case_extracted(extract(case.data), case)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_served_without_a_browser(case: CharsetCase, variant: str, charset_server: str) -> None:
    """The --no-render path: fetched from 127.0.0.1, the header's charset as transport evidence."""
    snapshot = static_snapshot(
        f"{charset_server}{case.name}/{variant}", timeout=5, block_private=False
    )
    assert_case_extracted(extract(snapshot), case)


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_header_charset_as_declared_encoding(case: CharsetCase) -> None:
    """The same through the public API, without a server."""
    snapshot = snapshot_from_bytes(case.data, declared_encoding=case.header)
    assert_case_extracted(extract(snapshot), case)


# ---------------------------------------------------------------- the detector's own check


@pytest.mark.parametrize(
    ("text", "wrong"),
    [
        ("Le cœur de l’affaire, c’est le levain — 2,40 €", "cp1252"),
        ("제주 바다의 해녀들, 다음 세대를 기다린다", "cp1252"),
        ("京都の銭湯、若い世代が引き継ぐ", "latin-1"),
    ],
)
def test_assert_clean_catches_mojibake(text: str, wrong: str) -> None:
    """The mojibake check itself can fail: UTF-8 bytes read in a legacy encoding."""
    assert_clean(text)
    with pytest.raises(AssertionError):
        assert_clean(text.encode("utf-8").decode(wrong, "replace"))
