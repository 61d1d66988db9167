"""Our in-page Readability.js pass is Firefox Reader View: Mozilla's 130 test pages, read in
Chromium the way Reader View reads them, against Mozilla's expected outputs.

The counts measured when this was written are pinned in fidelity_pins.json (see
scripts/reader-fidelity for the per-page table); each must hold, so exactness cannot be lost
silently. The pages that do not match exactly are listed there with their cause.
"""

from __future__ import annotations

import asyncio
import json
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from renderer.browser.launch import launch_browser
from renderer.qa.fidelity import ALL_FIELDS, PageFidelity, check_corpus, corpus_pages
from renderer.qa.reader_tab import reader_view
from tests.conftest import SHARED

pytestmark = pytest.mark.browser

CORPUS = SHARED / "corpora" / "readability-test-pages"
PINS = Path(__file__).with_name("fidelity_pins.json")
JOBS = 2
BUDGET = 30.0  # seconds per page: a cap for a stuck page, generous for a loaded machine


def _in_thread(coroutine_function, *args):  # type: ignore[no-untyped-def]
    """Run an async function to completion on its own thread: pytest-playwright's sync API may
    own this thread's event loop."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine_function(*args)).result()


async def _run_corpus(corpus: Path) -> list[PageFidelity]:
    handle = await launch_browser()
    try:
        return await check_corpus(handle, corpus_pages(corpus), jobs=JOBS, budget=BUDGET)
    finally:
        await handle.close()


@pytest.fixture(scope="module")
def pins() -> dict:
    return json.loads(PINS.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def results() -> dict[str, PageFidelity]:
    """Every test page through one browser, once for the whole module."""
    if not CORPUS.is_dir():
        if os.environ.get("CI"):
            pytest.fail(
                f"Readability test corpus missing at {CORPUS}: the fidelity gate cannot run"
            )
        pytest.skip(f"Readability test corpus not found at {CORPUS}")
    return {r.name: r for r in _in_thread(_run_corpus, CORPUS)}


def test_every_page_was_read(results: dict[str, PageFidelity], pins: dict) -> None:
    assert len(results) == pins["pages"], (
        f"the corpus has {len(results)} pages, the pins were measured on {pins['pages']}: re-pin"
    )
    errors = {name: r.error for name, r in results.items() if r.error}
    assert not errors, f"pages that failed to run: {errors}"


def test_exact_dom_matches_hold(results: dict[str, PageFidelity], pins: dict) -> None:
    exact = sum(r.exact for r in results.values())
    known = pins["known_non_exact"]
    lost = {
        name: f"{r.dom.path}: {r.dom.description}"
        for name, r in sorted(results.items())
        if not r.exact and name not in known
    }
    assert exact >= pins["exact_dom"], (
        f"exact DOM matches fell to {exact} (pinned {pins['exact_dom']}); pages that lost "
        f"exactness: {json.dumps(lost, indent=1, ensure_ascii=False)}; all non-exact pages: "
        f"{sorted(name for name, r in results.items() if not r.exact)}"
    )
    gained = sorted(name for name in known if name in results and results[name].exact)
    if gained:
        print(f"now exact (raise the pin, drop from known_non_exact): {gained}")


def test_word_f1_holds(results: dict[str, PageFidelity], pins: dict) -> None:
    good = sum(r.f1 >= 0.99 for r in results.values())
    known = pins["known_f1_below_099"]
    lost = {
        name: round(r.f1, 4)
        for name, r in sorted(results.items())
        if r.f1 < 0.99 and name not in known
    }
    assert good >= pins["f1_ge_099"], (
        f"pages with word F1 >= 0.99 fell to {good} (pinned {pins['f1_ge_099']}); dropped: {lost}"
    )


@pytest.mark.parametrize("field", ALL_FIELDS)
def test_metadata_agreement_holds(results: dict[str, PageFidelity], pins: dict, field: str) -> None:
    agree = sum(r.metadata[field] for r in results.values())
    known = pins["known_metadata_disagreements"].get(field, {})
    lost = {
        name: r.actual.get(field)
        for name, r in sorted(results.items())
        if not r.metadata[field] and name not in known
    }
    assert agree >= pins["metadata"][field], (
        f"{field} agrees on {agree} pages (pinned {pins['metadata'][field]}); now disagreeing "
        f"(our value): {lost}"
    )


SCRIPTED = b"""<!DOCTYPE html><html><head><title>Scripted page</title></head><body>
<article><p>The server-rendered paragraph is what Reader View reads, the way Mozilla's harness
reads the page source, without running any of its scripts. It is long enough to be an article.
</p><p>A second paragraph keeps it company, with more words about the harbour and the ferry,
the fishermen and the shops, the spring schedule and the early departures everyone argued about.
</p><div>Split<!-- a comment --> across<!-- another --> comments, this stays one paragraph, as
after JSDOMParser, which drops comments.</div>
</article>
<script>document.querySelector("article").innerHTML = "<p>Written by a page script.</p>";</script>
</body></html>"""


def test_page_scripts_do_not_run_and_comments_are_dropped() -> None:
    async def read() -> dict:
        handle = await launch_browser()
        try:
            return await reader_view(handle, SCRIPTED)
        finally:
            await handle.close()

    result = _in_thread(read)
    assert "server-rendered paragraph" in result["content"]
    assert "Written by a page script" not in result["content"]
    # With its comments, Readability.js would cut the <div> into three paragraphs.
    assert "<p>Split across comments, this stays one paragraph" in " ".join(
        result["content"].split()
    )
    assert result["title"] == "Scripted page"
