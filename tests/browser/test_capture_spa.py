"""Rendered capture of the client-side fixture sites (fixtures/spa), in real Chromium.

Each scenario's article exists only after JavaScript ran, or sits behind something a renderer
must handle (lazy loading, shadow roots, frames, overlays, a strict CSP): the article must be
captured, and the boilerplate must not.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from extractor import ALL_RULES, ExtractOptions, NoContentError, extract, word_score
from renderer import Renderer, static_snapshot
from tests.browser.conftest import SPA

pytestmark = pytest.mark.browser

SCENARIOS = sorted(path for path in SPA.iterdir() if (path / "case.json").is_file())


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def case(folder: Path) -> dict:
    return json.loads((folder / "case.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("folder", SCENARIOS, ids=lambda path: path.name)
def test_rendered_capture(folder: Path, spa_server: str, renderer: Renderer) -> None:
    spec = case(folder)
    url = f"{spa_server}{folder.name}/{spec.get('entry', 'index.html')}"
    extraction = renderer.capture(url)
    text, html = squash(extraction.text), extraction.html
    title = squash(extraction.metadata.title or "")
    for phrase in spec["present"]:  # the headline is the metadata's title, not the content's
        assert squash(phrase) in text or squash(phrase) == title, (
            f"missing {phrase!r} (stage {extraction.stage})"
        )
    for phrase in spec["absent"]:
        for output in (text, squash(extraction.markdown), squash(html)):
            assert squash(phrase) not in output, (
                f"boilerplate {phrase!r} leaked (stage {extraction.stage})"
            )
    for image in spec.get("images", []):
        assert f"{spa_server}{folder.name}/{image}" in html, f"image {image} not captured"


@pytest.mark.parametrize("name", ["timeout-text", "json-render", "hydration", "korean-spa", "demo"])
def test_static_path_cannot_read_client_side_pages(name: str, spa_server: str) -> None:
    """The same pages without a browser: the article is not there, so rendering is what reads it."""
    spec = case(SPA / name)
    snapshot = static_snapshot(f"{spa_server}{name}/{spec.get('entry', 'index.html')}", block_private=False)
    try:
        text = squash(extract(snapshot).text)
    except NoContentError:
        text = ""
    assert not any(squash(phrase) in text for phrase in spec["present"])


def test_snapshot_records_how_the_wait_ended(spa_server: str, renderer: Renderer) -> None:
    snapshot = renderer.render(f"{spa_server}timeout-text/index.html")
    assert snapshot.settled_by == "stable"
    assert snapshot.timings["stability_checks"] >= 1
    assert snapshot.readability is not None and snapshot.readability.readerable is not None
    assert snapshot.final_url == snapshot.url and snapshot.status == 200


def test_pushstate_final_url_is_the_route(spa_server: str, renderer: Renderer) -> None:
    snapshot = renderer.render(f"{spa_server}pushstate/index.html")
    assert snapshot.final_url == f"{spa_server}pushstate/story/harbour-lights"


def test_readability_js_result_is_the_first_stage(spa_server: str, renderer: Renderer) -> None:
    # Without the cross-check, which may narrow Readability.js's result to readability-lxml's
    # (tests/unit/test_agreement.py), the first stage's result is the extraction.
    first_only = ExtractOptions(rules=ALL_RULES - {"cross-check"})
    extraction = renderer.capture(
        f"{spa_server}json-render/index.html", extract_options=first_only
    )
    assert extraction.stage == "readability-js"
    checked = renderer.capture(f"{spa_server}json-render/index.html")
    first_stage = next(entry for entry in checked.trace if entry.kind == "stage")
    assert first_stage.name == "readability-js" and first_stage.outcome == "accepted"
    reference = renderer.render(f"{spa_server}json-render/index.html").readability
    assert reference is not None and reference.text_content
    assert word_score(extraction.text, reference.text_content).f1 > 0.95


def test_local_file_rendered_from_memory_at_its_url(
    spa_server: str, renderer: Renderer, tmp_path: Path
) -> None:
    """--render of a saved page: served from memory at --url, so its scripts and data resolve."""
    saved = tmp_path / "saved.html"
    saved.write_bytes((SPA / "json-render" / "index.html").read_bytes())
    extraction = renderer.capture(str(saved), url=f"{spa_server}json-render/index.html")
    spec = case(SPA / "json-render")
    assert squash(spec["present"][0]) == squash(extraction.metadata.title or "")
    assert squash(spec["present"][1]) in squash(extraction.text)


def test_a_file_served_at_an_address_without_a_path_is_read(
    renderer: Renderer, tmp_path: Path
) -> None:
    """Chromium asks for ``https://shop.example`` as ``https://shop.example/``: the page is
    still the one served from memory (it was refused, and the capture failed)."""
    saved = tmp_path / "home.html"
    saved.write_text(
        "<!doctype html><title>Home</title><article>"
        + "<p>The bakery opens at six and sells out of rye by nine.</p>" * 8
        + "</article>",
        encoding="utf-8",
    )
    extraction = renderer.capture(str(saved), url="https://shop.example")
    assert "sells out of rye by nine" in extraction.text


def test_demo_needs_javascript(page, spa_server: str) -> None:  # noqa: ANN001 (pytest-playwright)
    """With pytest-playwright's own page: the demo's article appears only once its script ran."""
    spec = case(SPA / "demo")
    headline = spec["present"][0]
    assert headline not in (SPA / "demo" / "index.html").read_text(encoding="utf-8")
    page.goto(f"{spa_server}demo/index.html")
    page.get_by_text(headline).wait_for(timeout=10_000)
    assert headline in page.inner_text("body")
