"""Reader View QA in real Chromium: ``readermode --compare`` (text and JSON) and ``--report`` run
as processes against the loopback SPA server, and the report opened in a browser (pytest-
playwright's ``page``), looked at through locators and a screenshot.

No asyncio.run here: pytest-playwright keeps an event loop running in the main thread, so the
API test goes through the sync ``Renderer`` (its own loop on its own thread).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from renderer import Renderer
from renderer.qa.compare import compare_page_sync
from tests.browser.conftest import SPA

pytestmark = pytest.mark.browser


def readermode(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "renderer.cli", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=180,
    )


def case(name: str) -> dict:
    return json.loads((SPA / name / "case.json").read_text(encoding="utf-8"))


def squash(text: str) -> str:
    return " ".join(text.split())


def open_report(page: Page, report: Path) -> list[str]:
    """Open the report file; returns every URL the page requested (only itself, if
    self-contained)."""
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(report.as_uri())
    return requested


@pytest.mark.parametrize("scenario", ["consent", "demo"])
def test_compare_json(scenario: str, spa_server: str) -> None:
    result = readermode("--compare", "-f", "json", f"{spa_server}{scenario}/index.html")
    assert result.returncode == 0, result.stderr
    comparison = json.loads(result.stdout)["comparison"]
    reader_view, ours, scores = (
        comparison["reader_view"],
        comparison["readermode"],
        comparison["scores"],
    )
    spec = case(scenario)
    assert reader_view["found"] and reader_view["readerable"] is True
    assert squash(spec["present"][0]) in squash(reader_view["title"])
    for phrase in spec["present"][1:]:
        assert squash(phrase) in squash(reader_view["text"])
        assert squash(phrase) in squash(ours["text"])
    for phrase in spec["absent"]:
        assert squash(phrase) not in squash(ours["text"])
    assert "<script" not in reader_view["html"]
    assert squash(reader_view["title"]) not in squash(reader_view["text"])  # body, title apart
    assert ours["stage"] == "readability-js" and "Readability.js" in ours["stage_reason"]
    assert set(scores) == {"precision", "recall", "f1"}
    assert scores["f1"] >= 0.9, scores
    stages = [entry for entry in comparison["trace"] if entry["kind"] == "stage"]
    assert any(e["name"] == ours["stage"] and e["outcome"] == "accepted" for e in stages)


def test_compare_text_summary(spa_server: str) -> None:
    result = readermode("--compare", f"{spa_server}demo/index.html")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("Reader View vs readermode: ")
    assert "F1 " in out and "readerable   yes" in out and "stage readability-js" in out


def test_compare_page_through_the_sync_renderer(spa_server: str, renderer: Renderer) -> None:
    comparison = compare_page_sync(renderer, f"{spa_server}consent/index.html", screenshot=True)
    assert comparison.screenshot_png is not None
    assert comparison.screenshot_png.startswith(b"\x89PNG")
    assert comparison.snapshot is not None and comparison.snapshot.reader_view is not None
    assert comparison.snapshot.readability is not None  # ours ran too, in the same render
    assert "reader_view" in comparison.snapshot.timings
    assert comparison.reader_view.found and comparison.scores.f1 >= 0.9


def test_report_in_a_browser(spa_server: str, tmp_path: Path, page: Page) -> None:
    """shadow-open: Reader View clones the live document, which leaves shadow roots behind, so
    readermode has paragraphs Reader View does not (and Reader View has a share line ours drops)."""
    report = tmp_path / "report.html"
    result = readermode("--compare", "--report", str(report), f"{spa_server}shadow-open/index.html")
    assert result.returncode == 0, result.stderr
    assert f"report: {report}" in result.stdout

    requested = open_report(page, report)
    expect(page.locator(".colhead.rv")).to_contain_text("Reader View")
    expect(page.locator(".colhead.rm")).to_contain_text("readermode")
    assert page.locator(".cell.rv").count() == page.locator(".cell.rm").count() > 0
    assert page.locator("ins.add").count() > 0  # paragraphs only readermode has
    assert page.locator("del.rem").count() > 0  # the share line only Reader View has
    expect(page.locator(".legend")).to_be_visible()
    expect(page.locator("table.meta")).to_contain_text("readability-js")
    shot = page.locator("figure.shot img")
    expect(shot).to_be_visible()
    assert (shot.get_attribute("src") or "").startswith("data:image/png;base64,")
    assert shot.evaluate("img => img.naturalWidth") > 100
    assert page.locator("script").count() == 0
    assert requested == [report.as_uri()]  # self-contained: nothing else was loaded

    png = tmp_path / "report.png"
    page.screenshot(path=png, full_page=True)
    assert png.read_bytes().startswith(b"\x89PNG") and png.stat().st_size > 20_000


def test_summary_report_for_two_pages(spa_server: str, tmp_path: Path, page: Page) -> None:
    report, targets = tmp_path / "summary.html", tmp_path / "list.txt"
    targets.write_text(f"# one more page\n\n{spa_server}shadow-open/index.html\n", encoding="utf-8")
    result = readermode(
        "--compare", "--report", str(report), f"{spa_server}consent/index.html", "-i", str(targets)
    )
    assert result.returncode == 0, result.stderr
    assert "mean F1" in result.stdout

    open_report(page, report)
    bars = page.locator("svg.hist rect.bar")
    assert bars.count() == 10
    counts = [int(bars.nth(i).get_attribute("data-count") or 0) for i in range(10)]
    assert sum(counts) == 2 and counts[9] == 1  # consent agrees with Reader View: F1 >= 0.9
    rows = page.locator("table.pages tr.row")
    assert rows.count() == 2
    expect(rows.nth(0)).to_contain_text("consent/index.html")
    expect(rows.nth(1)).to_contain_text("shadow-open/index.html")
    assert page.locator("section.page").count() == 2
    rows.nth(1).locator("a").click()
    expect(page).to_have_url(report.as_uri() + "#page-2")
    expect(page.locator("#page-2 .sbs")).to_be_in_viewport()
    page.screenshot(path=tmp_path / "summary.png")
    assert (tmp_path / "summary.png").stat().st_size > 10_000

