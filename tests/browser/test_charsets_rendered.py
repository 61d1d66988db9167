"""The charset corpus through the rendered path: pages served on 127.0.0.1 (with and without a
charset in Content-Type) and files served to Chromium from memory (``--render --url``). Either
way the document is decoded by our decoder first and handed to Chromium as UTF-8
(``renderer/browser/page.py``): left to itself, Chromium follows a lying declaration, as the HTML
standard says it must, and never guesses UTF-8 for an undeclared page.

``chromium_misreads`` in a case's manifest marks a served variant as a strict xfail; it is
empty now that the renderer decodes served documents itself, and stays as the way to record a
case the renderer gets wrong.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator

import pytest

from renderer import Renderer, RenderOptions
from tests.unit.test_charsets import (
    CASES,
    VARIANTS,
    CharsetCase,
    assert_case_extracted,
    assert_clean,
    serve_charsets,
)

pytestmark = pytest.mark.browser

# Budgets are backstops: these pages end when they settle, and a loaded machine must not turn a
# result into a partial one.
BUDGET = RenderOptions(block_private=False, budget=30.0)
OFFLINE = RenderOptions(block_private=False, budget=30.0, offline=True)


@pytest.fixture(scope="module")
def charset_server() -> Iterator[str]:
    yield from serve_charsets()


def served_params() -> list:
    params = []
    for case in CASES:
        for variant in VARIANTS:
            marks = ()
            if variant in case.chromium_misreads:
                marks = pytest.mark.xfail(
                    strict=True,
                    reason="Chromium decodes this wrong (see the case's notes)",
                )
            params.append(pytest.param(case, variant, id=f"{case.name}-{variant}", marks=marks))
    return params


@pytest.mark.parametrize(("case", "variant"), served_params())
def test_served_url_decoded_by_chromium(
    case: CharsetCase, variant: str, charset_server: str, renderer: Renderer
) -> None:
    result = renderer.capture(f"{charset_server}{case.name}/{variant}", options=BUDGET)
    assert_case_extracted(result, case)


# Rendered from memory, a page is decoded by our decoder (which tests/unit/test_charsets.py checks
# on every case) and handed to Chromium as UTF-8: the conflicting and undeclared cases (which
# Chromium itself misreads when left to decode them), and one of each other family, keep the
# browser time down.
MEMORY_CASES = [
    case
    for case in CASES
    if case.chromium_misreads
    or case.name
    in {
        "conflict-header-vs-meta--ko",
        "conflict-meta-lies-utf8--ja",
        "conflict-header-lies--zh",
        "utf8-undeclared--ja",
        "utf16le-bom--zh",
        "sjis-undeclared--ja",
        "gb18030-declared-gb2312--zh",
        "cp1252-undeclared--fr",
    }
]


@pytest.mark.parametrize("case", MEMORY_CASES, ids=[case.name for case in MEMORY_CASES])
def test_file_rendered_from_memory(
    case: CharsetCase, charset_server: str, renderer: Renderer
) -> None:
    """What ``readermode FILE --render --url URL`` does: the bytes, served at URL from memory."""
    url = f"{charset_server}{case.name}/saved.html"
    result = renderer.capture(str(case.source), url=url, options=OFFLINE)
    assert_case_extracted(result, case)


@pytest.mark.parametrize("name", ["euckr-undeclared--ko", "conflict-header-vs-meta--ko"])
def test_cli_render_url(name: str, charset_server: str) -> None:
    """The same as a user runs it: a process, --render --url, JSON on stdout."""
    case = next(c for c in CASES if c.name == name)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "renderer.cli",
            str(case.source),
            "--render",
            "--offline",
            "--url",
            f"{charset_server}{case.name}/saved.html",
            "--timeout",
            "30",
            "-f",
            "json",
        ],
        capture_output=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 0, result.stderr.decode()
    output = json.loads(result.stdout.decode("utf-8"))
    assert all(paragraph in output["text"] for paragraph in case.present)
    assert output["title"] == case.title
    for key in ("text", "markdown", "html", "title"):
        assert_clean(output[key], f"{name} {key}")
