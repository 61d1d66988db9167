"""The readermode command, run as a user runs it: a process, its stdout, stderr and exit code.

URLs are served by a loopback HTTP server in this process; nothing leaves the machine.
"""

from __future__ import annotations

import gzip
import http.server
import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from extractor import (
    EmptyInputError,
    FetchError,
    HTTPStatusError,
    InputNotFoundError,
    InputTooLargeError,
    LimitExceededError,
    NoContentError,
    NotHTMLError,
    UndecodableInputError,
)
from tests.conftest import FIXTURES
from tests.held import HeldResponse

DEMO = FIXTURES / "demo" / "article.html"
SIDEBAR = next((FIXTURES / "pages").glob("sidebar--*")) / "source.html"
KOREAN_EUCKR = next((FIXTURES / "pages").glob("korean-euckr--*")) / "source.html"
ARTICLE = (
    "<html><head><title>Loopback news</title></head><body><nav><a href='/'>Home</a></nav>"
    "<article><h1>Local server story</h1><p>The loopback server answered quickly, as it should, "
    "and the reader found the article without any trouble at all. "
    "<a href='more.html'>Read more</a> about it.</p></article></body></html>"
)
KOREAN = "<html><body><article><p>새벽시장의 젊은 상인들이 전통을 새롭게 잇고 있다. 손님들은 반가워한다.</p></article></body></html>"


class CliServer(http.server.ThreadingHTTPServer):
    """The module's server; ``held`` holds /slow until the module is done."""

    daemon_threads = True
    held: HeldResponse


class Handler(http.server.BaseHTTPRequestHandler):
    server: CliServer

    def log_message(self, *args: object) -> None:  # keep test output clean
        pass

    def send(
        self, status: int, body: bytes, content_type: str = "text/html; charset=utf-8"
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        path = self.path
        if path == "/article":
            self.send(200, ARTICLE.encode())
        elif path == "/korean":
            self.send(200, KOREAN.encode("euc-kr"), "text/html; charset=EUC-KR")
        elif path == "/redirect":
            self.send_response(302)
            self.send_header("Location", "/article")
            self.end_headers()
        elif path.startswith("/loop"):
            self.send_response(302)
            self.send_header("Location", f"/loop{len(path)}")
            self.end_headers()
        elif path == "/json":
            self.send(200, b'{"a": 1}', "application/json")
        elif path == "/missing":
            self.send(404, b"<h1>Not found</h1>")
        elif path == "/broken":
            self.send(500, b"<h1>Oops</h1>")
        elif path == "/big":
            self.send(200, b"<p>" + b"x" * 5000 + b"</p>")
        elif path == "/slow":  # answers only after the module: no clock races the budget
            if self.server.held.hold():
                self.send(200, ARTICLE.encode())
        else:
            self.send(404, b"")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = CliServer(("127.0.0.1", 0), Handler)
    httpd.held = HeldResponse()
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.held.release()
    httpd.shutdown()
    httpd.server_close()


def readermode(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "renderer.cli", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )


def run_bytes(*args: str, stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "renderer.cli", *args], input=stdin, capture_output=True, timeout=60
    )


def assert_one_line_error(result: subprocess.CompletedProcess, code: int) -> None:
    stderr = result.stderr if isinstance(result.stderr, str) else result.stderr.decode()
    assert result.returncode == code, stderr
    assert "Traceback" not in stderr
    assert len(stderr.strip().splitlines()) == 1 and stderr.startswith("readermode: ")


def test_file_to_markdown() -> None:
    result = readermode(str(DEMO))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("#") or "\n#" in result.stdout
    assert result.stderr == ""


@pytest.mark.parametrize("fmt", ["markdown", "text", "html", "json"])
def test_every_format(fmt: str, tmp_path: Path) -> None:
    out = tmp_path / f"out.{fmt}"
    result = readermode(str(SIDEBAR), "-f", fmt, "-o", str(out))
    assert result.returncode == 0, result.stderr
    content = out.read_text(encoding="utf-8")
    assert result.stdout == ""
    if fmt == "json":
        data = json.loads(content)
        expected = {"url", "title", "author", "authors", "date_published", "date_modified",
                    "site_name", "lang", "description", "image", "tags", "categories",
                    "canonical_url", "metadata_sources", "text", "html", "markdown", "page_type",
                    "page_type_evidence", "stage",
                    "trace", "warnings"}  # fmt: skip
        assert set(data) == expected
        assert data["stage"] in ("readability-lxml", "scorer")
    elif fmt == "html":
        assert content.lstrip().startswith("<")
    else:
        assert len(content.split()) > 100


def test_stdin_and_gzip() -> None:
    result = run_bytes("-", "-f", "text", stdin=gzip.compress(SIDEBAR.read_bytes()))
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.split()) > 100


def test_euc_kr_file_is_decoded() -> None:
    result = readermode(str(KOREAN_EUCKR), "-f", "text")
    assert result.returncode == 0, result.stderr
    assert "\ufffd" not in result.stdout
    assert any("\uac00" <= char <= "\ud7a3" for char in result.stdout)


def test_url_fetched_without_browser(server: str) -> None:
    result = readermode(f"{server}/article", "--no-render", "-f", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert "answered quickly" in data["text"] and "Home" not in data["text"]
    assert data["url"] == f"{server}/article"
    assert f'href="{server}/more.html"' in data["html"]


def test_redirect_followed_and_charset_header_used(server: str) -> None:
    redirected = json.loads(readermode(f"{server}/redirect", "-f", "json").stdout)
    assert redirected["url"] == f"{server}/article"
    korean = readermode(f"{server}/korean", "-f", "text")
    assert korean.returncode == 0, korean.stderr
    assert "새벽시장의 젊은 상인들이" in korean.stdout


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (("/no/such/file.html",), InputNotFoundError.exit_code),
        (("--max-bytes", "100", str(DEMO)), InputTooLargeError.exit_code),
    ],
)
def test_bad_files(args: tuple[str, ...], code: int) -> None:
    assert_one_line_error(readermode(*args), code)


@pytest.mark.parametrize(
    ("stdin", "code"),
    [
        (b"", EmptyInputError.exit_code),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", NotHTMLError.exit_code),
        (b"\x00\x01\x02\x03binary\x00\xff\xfe" * 10, UndecodableInputError.exit_code),
        (b"<html><body><div><img src='a.png'></div></body></html>", NoContentError.exit_code),
    ],
)
def test_bad_stdin(stdin: bytes, code: int) -> None:
    assert_one_line_error(run_bytes("-", stdin=stdin), code)


def test_empty_file(tmp_path: Path) -> None:
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    assert_one_line_error(readermode(str(empty)), EmptyInputError.exit_code)


@pytest.mark.parametrize(
    ("path", "args", "code"),
    [
        ("/missing", (), HTTPStatusError.exit_code),
        ("/broken", (), HTTPStatusError.exit_code),
        ("/json", (), NotHTMLError.exit_code),
        ("/loop", (), LimitExceededError.exit_code),
        ("/loop", ("--no-render",), LimitExceededError.exit_code),
        ("/big", ("--max-bytes", "1000"), InputTooLargeError.exit_code),
        ("/slow", ("--timeout", "1"), 12),
    ],
)
def test_bad_urls(server: str, path: str, args: tuple[str, ...], code: int) -> None:
    assert_one_line_error(readermode(f"{server}{path}", *args), code)


def test_unreachable_host_is_a_fetch_error() -> None:
    # Port 9 on loopback (discard) is closed here: connection refused, no traffic leaves the host.
    assert_one_line_error(readermode("http://127.0.0.1:9/"), FetchError.exit_code)


def test_exit_codes_are_distinct() -> None:
    codes = [
        error.exit_code
        for error in (InputNotFoundError, EmptyInputError, InputTooLargeError,
                      UndecodableInputError, NotHTMLError, FetchError, HTTPStatusError,
                      NoContentError)
    ]  # fmt: skip
    assert len(set(codes)) == len(codes) and 0 not in codes and 2 not in codes


def test_usage_error_is_argparse_code() -> None:
    result = readermode(str(DEMO), "-f", "pdf")
    assert result.returncode == 2 and "Traceback" not in result.stderr


def test_stage_and_rule_switches() -> None:
    result = readermode(str(SIDEBAR), "-f", "json", "--stages", "scorer", "--keep", "comments")
    data = json.loads(result.stdout)
    assert data["stage"] == "scorer"
    assert all(entry["name"] != "comments" for entry in data["trace"])


def test_several_targets_run_a_batch() -> None:
    # Without --compare, several TARGETs are a batch: one JSON line per page on stdout.
    result = readermode(str(DEMO), str(SIDEBAR))
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert sorted(record["target"] for record in records) == sorted([str(DEMO), str(SIDEBAR)])
    assert all(record["ok"] and record["text"] for record in records)


def test_single_target_options_refuse_a_batch() -> None:
    result = readermode(str(DEMO), str(SIDEBAR), "--save-html", "snapshot.html")
    assert result.returncode == 2
    assert "--save-html takes a single TARGET, not a batch" in result.stderr


def test_a_low_confidence_warning_reaches_stderr(tmp_path: Path) -> None:
    """Text output has no field for warnings: a page that may be a missing page's leftovers
    says so on stderr, after the text it was asked for."""
    stories = "".join(
        f"<li><h2><a href='/s/{i}'>Popular story {i}</a></h2><p>A summary of story {i} "
        "that runs long enough to read as a paragraph of real prose on the page.</p></li>"
        for i in range(12)
    )
    page = tmp_path / "missing.html"
    page.write_text(
        "<html><head><title>Page Not Found | The Courier</title></head><body><main>"
        f"<h1>Sorry, we could not find that page</h1><ul>{stories}</ul></main></body></html>",
        encoding="utf-8",
    )
    result = readermode(str(page), "-f", "text")
    assert result.returncode == 0, result.stderr
    assert "Popular story 11" in result.stdout
    assert result.stderr.startswith("readermode: warning: low confidence: the page may be")
