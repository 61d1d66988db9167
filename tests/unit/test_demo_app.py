"""The demo app behind ``./scripts/run`` ships inside the renderer package, so an installed
(non-editable) readermode finds it; the browser tests serve the same files."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

import renderer
from renderer.demo import DEMO_PAGE, demo_app
from tests.conftest import FIXTURES, REPO

PACKAGE = Path(renderer.__file__).resolve().parent
APP_FILES = {"index.html", "app.js", "data.json", "style.css", "img/night-sky.svg"}


def test_the_demo_app_is_found_through_the_package() -> None:
    app = Path(str(demo_app())).resolve()
    assert app.is_relative_to(PACKAGE)
    assert (app / DEMO_PAGE).is_file()
    assert {str(path.relative_to(app)) for path in app.rglob("*") if path.is_file()} >= APP_FILES


def test_package_data_lists_every_file_of_the_demo_app() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["renderer"]
    app = Path(str(demo_app()))
    for path in app.rglob("*"):
        if path.is_file():
            name = str(path.relative_to(PACKAGE))
            assert any(fnmatch(name, pattern) for pattern in patterns), f"{name} not packaged"


def test_the_spa_fixtures_serve_the_shipped_demo() -> None:
    assert (FIXTURES / "spa" / "demo").resolve() == Path(str(demo_app())).resolve()
