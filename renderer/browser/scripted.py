"""Runs ``--actions`` steps (``steps.py``) on a loaded page, each bounded by what is left of
the settle time. Each step done is a timing ``action N: VERB ARG`` (seconds), which the
capture turns into a trace entry; a step that fails ends the script with a ``partial:``
warning, and the page is read as it is."""

from __future__ import annotations

import asyncio
import time

from playwright.async_api import Error as PlaywrightError

from renderer.browser.session import PageSession
from renderer.browser.steps import ACTION_PREFIX, Step


async def run_steps(session: PageSession, steps: tuple[Step, ...]) -> None:
    """Run ``steps`` in order until one fails or the settle time is spent."""
    for number, step in enumerate(steps, 1):
        name = f"{ACTION_PREFIX}{number}: {step.describe()}"
        left_ms = session.deadline.settle_remaining() * 1000
        if left_ms <= 0:
            session.warnings.append(f"partial: {name} not run: the budget was spent")
            return
        started = time.monotonic()
        try:
            await asyncio.wait_for(_run(session, step, left_ms), timeout=left_ms / 1000)
        except (TimeoutError, PlaywrightError) as exc:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            session.warnings.append(f"partial: {name} failed: {reason}")
            return
        session.mark(name, started)


async def _run(session: PageSession, step: Step, left_ms: float) -> None:
    page = session.page
    target = step.target
    if step.verb == "click":
        await page.click(str(target), timeout=left_ms)
    elif step.verb == "type":
        await page.fill(str(target), step.text or "", timeout=left_ms)
    elif step.verb == "press":
        if step.selector:
            await page.press(step.selector, str(target), timeout=left_ms)
        else:
            await page.keyboard.press(str(target))
    elif step.verb == "scroll":
        pixels = "document.scrollingElement.scrollHeight" if target == "bottom" else target
        await page.evaluate(f"window.scrollTo(0, {0 if target == 'top' else pixels})")
    elif step.verb == "wait_for":
        await page.wait_for_selector(str(target), state="attached", timeout=left_ms)
    elif step.verb == "wait":
        await asyncio.sleep(min(float(target), left_ms) / 1000)
    elif step.verb == "screenshot":
        await page.screenshot(path=str(target), full_page=True, timeout=left_ms)
