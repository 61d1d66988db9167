"""Readability.js comes from the installation (READERMODE_NODE_MODULES, else the project's own
node_modules), never from the working directory or an arbitrary ancestor folder."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

FAKE = "/* fake Readability.js planted outside the installation */"
PROBE = (
    "import json\n"
    "from renderer.browser.bundle import readability_js_version\n"
    "from renderer.browser.readability import ReadabilityUnavailable, readability_expression\n"
    "try:\n"
    "    expression = readability_expression()\n"
    "except ReadabilityUnavailable as exc:\n"
    "    expression = 'unavailable: ' + str(exc)\n"
    "print(json.dumps({'expression': expression, 'version': readability_js_version()}))\n"
)


def plant_fake(folder: Path) -> Path:
    package = folder / "node_modules" / "@mozilla" / "readability"
    package.mkdir(parents=True)
    (package / "Readability.js").write_text(FAKE)
    (package / "Readability-readerable.js").write_text(FAKE)
    (package / "package.json").write_text('{"version": "0.0.0-fake"}')
    return folder / "node_modules"


def probe(installed: Path, cwd: Path, node_modules: Path | None) -> dict[str, str | None]:
    """Run the loader from a copy of the renderer package installed in ``installed``."""
    env = {k: v for k, v in os.environ.items() if k != "READERMODE_NODE_MODULES"}
    env["PYTHONPATH"] = f"{installed}{os.pathsep}{REPO}"
    if node_modules is not None:
        env["READERMODE_NODE_MODULES"] = str(node_modules)
    run = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=cwd, env=env, capture_output=True, text=True, check=True
    )
    return json.loads(run.stdout)


@pytest.fixture
def installed(tmp_path: Path) -> Path:
    """A non-editable install: the renderer package copied into a site folder of its own, with
    fake Readability.js packages in the working directory and in an ancestor of the site."""
    site = tmp_path / "lib" / "site-packages"
    shutil.copytree(REPO / "renderer", site / "renderer", ignore=shutil.ignore_patterns("*.pyc"))
    plant_fake(tmp_path)  # an ancestor of the installed package
    plant_fake(tmp_path / "work")  # the working directory
    return site


def test_working_directory_and_ancestors_are_never_searched(installed: Path) -> None:
    found = probe(installed, installed.parent.parent / "work", None)
    assert FAKE not in found["expression"]
    assert found["version"] != "0.0.0-fake"
    assert found["expression"].startswith("unavailable: ")
    assert "./scripts/setup" in found["expression"] and "npm ci" in found["expression"]
    assert "READERMODE_NODE_MODULES" in found["expression"]


def test_the_env_var_names_the_node_modules_to_use(installed: Path) -> None:
    work = installed.parent.parent / "work"
    found = probe(installed, work, REPO / "node_modules")
    assert found["expression"].startswith("(options) =>") and FAKE not in found["expression"]
    assert (
        found["version"]
        == json.loads((REPO / "node_modules/@mozilla/readability/package.json").read_text())[
            "version"
        ]
    )


def test_source_install_uses_the_repository_node_modules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from renderer.browser.readability import readability_package_dir

    plant_fake(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("READERMODE_NODE_MODULES", raising=False)
    assert readability_package_dir() == REPO / "node_modules" / "@mozilla" / "readability"
