"""Capture bundles without a browser: written from a snapshot, read back, refused when damaged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extractor import (
    STAGES_BY_NAME,
    ExtractOptions,
    InputNotFoundError,
    PageSnapshot,
    ReadabilityResult,
    UndecodableInputError,
    extract,
)
from renderer import RenderOptions
from renderer.browser.bundle import (
    LAYOUT,
    extract_from_bundle,
    extract_options_from_dict,
    options_to_dict,
    read_bundle,
    write_bundle,
)
from tests.conftest import FIXTURES

PAGE = next((FIXTURES / "pages").glob("chrome--*")) / "source.html"


def snapshot() -> PageSnapshot:
    html = PAGE.read_text(encoding="utf-8").replace(
        "</body>", "<script>alert(1)</script><p onclick='x()'>tail</p></body>"
    )
    return PageSnapshot(
        html=html,
        url="https://news.example/comet",
        final_url="https://news.example/comet",
        readability=ReadabilityResult(content=None, readerable=True),
        timings={"total": 1.5},
    )


def bundle(tmp_path: Path, options: ExtractOptions) -> Path:
    page = snapshot()
    folder = tmp_path / "bundle"
    write_bundle(
        folder,
        page,
        extract(page, options=options),
        render_options=RenderOptions(budget=9.0),
        extract_options=options,
        browser_version="1.2.3",
    )
    return folder


def test_round_trip_gives_the_same_result(tmp_path: Path) -> None:
    options = ExtractOptions(
        stages=(STAGES_BY_NAME["scorer"],), rules=frozenset({"hidden"}), links=False
    )
    folder = bundle(tmp_path, options)
    page, read_options = read_bundle(folder)
    assert page == snapshot()
    assert read_options == options
    again = extract_from_bundle(folder)
    saved = json.loads((folder / LAYOUT.extraction_json).read_text())
    assert again.text == saved["text"] and again.markdown == saved["markdown"]
    assert again.stage == "scorer" and "](" not in again.markdown
    manifest = json.loads((folder / LAYOUT.manifest).read_text())
    assert manifest["versions"]["chromium"] == "1.2.3"
    assert manifest["render_options"]["budget"] == 9.0
    assert manifest["extract_options"]["stages"] == ["scorer"]


def test_viewable_snapshot_runs_nothing(tmp_path: Path) -> None:
    viewable = (bundle(tmp_path, ExtractOptions()) / LAYOUT.snapshot_html).read_text()
    assert "<script" not in viewable and "onclick" not in viewable and "tail" in viewable


def test_options_survive_json() -> None:
    options = ExtractOptions(min_length=12, include_comments=True)
    data = json.loads(json.dumps(options_to_dict(options)))
    assert extract_options_from_dict(data) == options
    assert extract_options_from_dict({**data, "from_the_future": 1}) == options
    with pytest.raises(UndecodableInputError, match="unknown cascade stages"):
        extract_options_from_dict({**data, "stages": ["nope"]})


def test_not_a_bundle_and_damaged_bundles(tmp_path: Path) -> None:
    with pytest.raises(InputNotFoundError, match="not a readermode bundle"):
        read_bundle(tmp_path)
    folder = bundle(tmp_path, ExtractOptions())
    manifest = folder / LAYOUT.manifest
    data = json.loads(manifest.read_text())
    manifest.write_text(json.dumps({**data, "bundle_format": 99}))
    with pytest.raises(UndecodableInputError, match="bundle format 99"):
        read_bundle(folder)
    (folder / LAYOUT.snapshot_json).write_text("{not json")
    with pytest.raises(UndecodableInputError, match="damaged bundle"):
        read_bundle(folder)
