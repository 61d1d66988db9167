"""The charset corpus through the command line without a browser: ``readermode FILE --no-render``
and ``readermode URL --no-render`` against 127.0.0.1, with and without a charset in the header.

Most cases run ``renderer.cli.main`` in this process (a subprocess per case would cost a minute);
one runs as a real process, to check the bytes on stdout are UTF-8.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from renderer.cli import main
from renderer.cli.parser import build_parser
from tests.unit.test_charsets import (
    CASE_IDS,
    CASES,
    VARIANTS,
    CharsetCase,
    assert_clean,
    serve_charsets,
)

# The corpus is served on loopback: if the CLI refuses private addresses, allow them here.
ALLOW_LOOPBACK = ["--allow-private"] if "--allow-private" in build_parser().format_help() else []


@pytest.fixture(scope="module")
def charset_server() -> Iterator[str]:
    yield from serve_charsets()


def run_json(tmp_path: Path, *args: str) -> dict:
    out = tmp_path / "out.json"
    code = main([*args, "-f", "json", "-o", str(out)])
    assert code == 0, f"readermode {' '.join(args)} exited {code}"
    return json.loads(out.read_text(encoding="utf-8"))


def assert_json_clean(result: dict, case: CharsetCase) -> None:
    for paragraph in case.present:
        assert paragraph in result["text"], f"{case.name}: missing {paragraph[:40]!r}"
    assert result["title"] == case.title
    for key in ("text", "markdown", "html", "title"):
        assert_clean(result[key], f"{case.name} {key}")


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_file_no_render(case: CharsetCase, tmp_path: Path) -> None:
    assert_json_clean(run_json(tmp_path, str(case.source), "--no-render"), case)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_url_no_render(
    case: CharsetCase, variant: str, charset_server: str, tmp_path: Path
) -> None:
    url = f"{charset_server}{case.name}/{variant}"
    result = run_json(tmp_path, url, "--no-render", "--timeout", "5", *ALLOW_LOOPBACK)
    assert_json_clean(result, case)


def test_process_writes_utf8_to_stdout() -> None:
    """A real process with an undeclared legacy page: stdout is UTF-8, whatever the page was."""
    case = next(c for c in CASES if c.name == "sjis-undeclared--ja")
    result = subprocess.run(
        [sys.executable, "-m", "renderer.cli", str(case.source), "--no-render", "-f", "text"],
        capture_output=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 0, result.stderr.decode()
    text = result.stdout.decode("utf-8")
    assert all(paragraph in text for paragraph in case.present)
    assert_clean(text)
