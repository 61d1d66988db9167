"""What really gets imported: the extractor and the static path never load Playwright.

``lint-imports`` checks the import graph statically, but it cannot tell a function-level import
from a module-level one, so its contract ignores the few deferred ``renderer.browser.api``
imports. These tests check the modules loaded at run time, each in a fresh interpreter (this
test process has long since loaded Playwright through other tests).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "fixtures" / "pages" / "flat--forty-years-of-weather-diaries" / "source.html"

# Appended to each snippet: the Playwright modules loaded by then, as JSON on the last line.
REPORT = """
import json as _json, sys as _sys
_loaded = sorted(m for m in _sys.modules if m == "playwright" or m.startswith("playwright."))
print(_json.dumps(_loaded), file=_sys.stderr)
"""

# Every module the playwright-free import-linter contract names, imported for real.
STATIC_MODULES = """
import importlib, pkgutil
import extractor, renderer.fetch
for package in (extractor, renderer.fetch):
    for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
        importlib.import_module(info.name)
import renderer.browser.options, renderer.browser.readability, renderer.browser.bundle
"""

# `readermode FILE --no-render -f text`, run as the console script would, in this interpreter.
STATIC_CLI = f"""
import runpy, sys
sys.argv = ["readermode", {str(PAGE)!r}, "--no-render", "-f", "text"]
try:
    runpy.run_module("renderer.cli", run_name="__main__")
except SystemExit as exit:
    assert exit.code in (0, None), exit.code
"""


def playwright_modules_after(code: str) -> tuple[list[str], str]:
    """Run ``code`` in a fresh interpreter on this checkout: (Playwright modules, stdout)."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    result = subprocess.run(
        [sys.executable, "-c", code + REPORT],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stderr.splitlines()[-1]), result.stdout


def test_import_extractor_loads_no_playwright() -> None:
    loaded, _ = playwright_modules_after("import extractor")
    assert loaded == []


def test_static_path_modules_load_no_playwright() -> None:
    loaded, _ = playwright_modules_after(STATIC_MODULES)
    assert loaded == []


def test_lazy_exports_of_the_static_path_load_no_playwright() -> None:
    loaded, _ = playwright_modules_after(
        "import renderer\nrenderer.static_snapshot, renderer.fetch_url, renderer.RenderOptions"
    )
    assert loaded == []


def test_static_cli_run_loads_no_playwright() -> None:
    loaded, stdout = playwright_modules_after(STATIC_CLI)
    assert loaded == []
    assert "weather" in stdout.lower()  # it did extract the page, not just parse arguments


def test_the_check_sees_playwright_when_it_is_loaded() -> None:
    # Guards the guard: a snippet that does load Playwright must be reported.
    loaded, _ = playwright_modules_after("import renderer.browser.api")
    assert "playwright" in loaded
