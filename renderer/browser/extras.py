"""What runs on the settled page after the snapshot: our Readability.js pass (on the
flattened, filtered snapshot) and the extras a caller asks for: Firefox Reader View's own
Readability.js run, a full-page screenshot and Chromium's MHTML archive.

Each returns a problem as text (a warning) rather than raising: an extra that fails must not
cost the caller the content. The extras share ``Deadline.extras_remaining`` (the budget plus
``EXTRAS_GRACE_S``), so all of them together end within the capture's hard stop.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from playwright.async_api import BrowserContext, Page
from playwright.async_api import Error as PlaywrightError

from extractor import HIDDEN_MARK, ReadabilityResult
from renderer.browser.readability import (
    ReadabilityUnavailable,
    parse_run,
    readability_expression,
    reader_view_options,
    run_options,
)
from renderer.browser.session import Deadline, PageSession

EXTRA_MIN_S = 1.0
"""Even a capture that spent its grace gets this long for an extra it asked for."""


async def run_readability(
    session: PageSession, html: str, done: dict[str, Any] | str | None = None
) -> tuple[Any, str | None]:
    """Readability.js on the snapshot ``html``; ``done``: its run already made on that snapshot
    in the snapshot's own call (``settle._first_snapshot``), read instead of running again, or
    ``HELD`` there, taken from the page (run anew if it cannot be)."""
    raw: dict[str, Any] | None = None
    if isinstance(done, dict):
        raw = done
    elif done is not None:  # ``inpage.HELD``: the run the first snapshot's call held
        raw = await _take_held(session)
        if raw is not None:
            session.timings["readability_held"] = 1
    if raw is not None:
        session.timings["readability"] = round(float(raw.get("ms") or 0.0) / 1000, 3)
    else:
        try:
            readability_expression()  # installed? (the call by name has it then)
        except ReadabilityUnavailable as exc:
            return None, str(exc)
        started = time.monotonic()
        try:
            raw = await session.call(
                "readability", run_options(html, hidden_attribute=HIDDEN_MARK), cap=20.0
            )
        except (TimeoutError, PlaywrightError) as exc:
            return None, f"Readability.js did not finish: {type(exc).__name__}"
        session.mark("readability", started)
    run = parse_run(raw or {})
    if run.error:
        return run.result, f"Readability.js failed: {run.error}"
    return run.result, None


async def _take_held(session: PageSession) -> dict[str, Any] | None:
    """The Readability.js run the first snapshot's call held (``inpage.FIRST_SNAPSHOT``), or
    None when it is gone (a navigation) or the call failed: then it runs anew."""
    try:
        raw = await session.call("held", cap=20.0)
    except (TimeoutError, PlaywrightError):
        return None
    return raw if isinstance(raw, dict) else None


async def run_reader_view(session: PageSession) -> tuple[ReadabilityResult | None, str | None]:
    """Readability.js as Firefox Reader View runs it: a clone of the live document, no
    filtering of ours, ``charThreshold`` 500. Like the screenshot, it may run into the extras'
    grace past the budget (it is an extra the caller asked for). A run that found no article still gives its
    ``readerable`` verdict, as a result whose ``content`` is None."""
    try:
        expression = readability_expression()
    except ReadabilityUnavailable as exc:
        return None, f"Reader View: {exc}"
    started = time.monotonic()
    try:
        raw = await asyncio.wait_for(
            session.page.evaluate(expression, reader_view_options()),
            timeout=min(20.0, max(EXTRA_MIN_S, session.deadline.extras_remaining())),
        )
    except (TimeoutError, PlaywrightError) as exc:
        return None, f"Reader View did not finish: {type(exc).__name__}"
    session.mark("reader_view", started)
    run = parse_run(raw or {})
    result = run.result or ReadabilityResult(content=None, readerable=run.readerable)
    if run.error:
        return result, f"Reader View failed: {run.error}"
    return result, None


async def save_mhtml(
    context: BrowserContext, page: Page, path: str, deadline: Deadline
) -> str | None:
    """Chromium's own MHTML archive of the live page (CDP ``Page.captureSnapshot``): the page
    with its subresources in one file. Like the screenshot, an extra that may fail alone."""
    try:
        session = await context.new_cdp_session(page)
        result = await asyncio.wait_for(
            session.send("Page.captureSnapshot", {"format": "mhtml"}),
            timeout=max(EXTRA_MIN_S, deadline.extras_remaining()),
        )
        Path(path).write_text(result["data"], encoding="utf-8", newline="")
    except (TimeoutError, PlaywrightError, OSError, KeyError) as exc:
        return f"MHTML archive failed: {type(exc).__name__}"
    return None


async def save_screenshot(page: Page, path: str, deadline: Deadline) -> str | None:
    """A full-page PNG at ``path``; a problem as text when it could not be taken."""
    try:
        await asyncio.wait_for(
            page.screenshot(path=path, full_page=True),
            timeout=max(EXTRA_MIN_S, deadline.extras_remaining()),
        )
    except (TimeoutError, PlaywrightError) as exc:
        return f"screenshot failed: {type(exc).__name__}"
    return None
