"""A capture's Readability.js run held for the call after the first snapshot's, and the
extraction read ahead meanwhile (``AsyncRenderer._render_and_extract``, what ``capture``
runs): the same snapshot, Readability.js result and extraction as rendering, then
extracting."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest

from extractor import Extraction, ExtractOptions, PageSnapshot, extract
from renderer import AsyncRenderer, RenderOptions
from renderer.browser.api import _for_snapshots
from renderer.browser.defences import PageDefences
from renderer.browser.inpage import HELD
from renderer.browser.readability import run_options
from renderer.browser.session import Deadline, PageSession

pytestmark = pytest.mark.browser

T = TypeVar("T")
OPTIONS = RenderOptions(block_private=False, budget=30, offline=True)
URL = "http://ahead.readermode.localhost/ferry.html"
STORY = "".join(
    f"<p>Paragraph {n} of the ferry story tells how the late crossing was cut and what the "
    "shift workers at the fish plant now do to get home after ten at night.</p>"
    for n in range(12)
)
PAGE = f"""<!doctype html><title>Ferry cut | Kelvik Courier</title><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav>
<main><article><h1>Ferry cut</h1><p class="byline">By A. Writer</p>{STORY}
<p>Share this story with your friends on every network you can think of today.</p>
</article></main><footer>Kelvik Courier, all rights kept.</footer></body>"""


def run(coroutine_function: Callable[[], Awaitable[T]]) -> T:
    """On a thread of its own: pytest-playwright keeps an event loop in the main thread."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine_function()).result(timeout=600)  # type: ignore[arg-type]


def test_capture_reads_ahead_and_extracts_what_render_then_extract_does(tmp_path: Path) -> None:
    page = tmp_path / "ferry.html"
    page.write_text(PAGE, encoding="utf-8")
    options = _for_snapshots(ExtractOptions(), OPTIONS)

    async def both() -> tuple[PageSnapshot, Extraction, PageSnapshot]:
        async with AsyncRenderer(OPTIONS) as renderer:
            captured = await renderer._render_and_extract(str(page), URL, OPTIONS, options)
            rendered = await renderer.render(str(page), url=URL, options=OPTIONS)
            return *captured, rendered

    snapshot, captured, rendered = run(both)
    assert snapshot.timings.get("readability_held") == 1  # the run went on after the snapshot
    assert "readability_held" not in rendered.timings  # render alone runs it in the same call
    assert snapshot.html == rendered.html
    assert snapshot.readability is not None and rendered.readability is not None
    assert snapshot.readability.content == rendered.readability.content
    whole = extract(rendered, options=options)
    assert (captured.html, captured.text, captured.stage) == (whole.html, whole.text, whole.stage)
    assert "Paragraph 11 of the ferry story" in captured.text


def test_a_held_run_is_given_whether_or_not_it_has_started() -> None:
    """``held`` gives the run the first snapshot's call held: run by then in the page's next
    task, or at once when asked before that task came; once only."""

    async def scenario() -> tuple[Any, ...]:
        async with AsyncRenderer(OPTIONS) as renderer:
            await renderer.start()
            assert renderer._pool is not None
            async with renderer._pool.tab() as tab:
                await tab.page.set_content(PAGE)
                defences = PageDefences(tab.context, tab.page, OPTIONS, "about:blank")
                session = PageSession(tab.page, Deadline(30.0), defences)
                args = {
                    "snapshot": {"hiddenAttribute": "data-h"},
                    "readability": run_options(None, hidden_attribute="data-h"),
                    "idleMs": 0,
                    "heldMark": HELD,
                }
                in_call = await session.call("first", {**args, "ahead": False})
                held = await session.call("first", {**args, "ahead": True})
                later = await session.call("held")  # its task has run by now
                again = await session.call("held")
                # asked in the same task as the snapshot: run at once
                at_once = await session.evaluate(
                    """(args) => {
                      const fns = window[Symbol.for("readermode.functions")];
                      const first = fns.first(args);
                      return [first.readability, fns.held()];
                    }""",
                    {**args, "ahead": True},
                )
                return in_call["readability"], held["readability"], later, again, at_once

    in_call, held, later, again, (mark, at_once) = run(scenario)
    assert "Paragraph 11 of the ferry story" in in_call["content"]
    assert held == HELD and mark == HELD
    assert later["content"] == in_call["content"] and at_once["content"] == in_call["content"]
    assert again is None  # taken once
