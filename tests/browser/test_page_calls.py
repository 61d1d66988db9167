"""Our calls into the page (``PageSession.evaluate``) go through the tab's CDP session: plain
values back, promises awaited, a throw reported as a Playwright error, and a tab that crashes
during a call ends it at once with the defences' error."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import pytest
from playwright.async_api import Error as PlaywrightError

from extractor import NavigationError
from renderer import AsyncRenderer, RenderOptions
from renderer.browser.defences import PageDefences
from renderer.browser.session import Deadline, PageSession

pytestmark = pytest.mark.browser

T = TypeVar("T")
OPTIONS = RenderOptions(block_private=False, budget=60)


def run(coroutine_function: Callable[[], Awaitable[T]]) -> T:
    """On a thread of its own: pytest-playwright keeps an event loop in the main thread."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine_function()).result(timeout=600)  # type: ignore[arg-type]


async def on_a_tab(scenario: Callable[[PageSession], Awaitable[T]]) -> T:
    async with AsyncRenderer(OPTIONS) as renderer:
        await renderer.start()
        assert renderer._pool is not None
        async with renderer._pool.tab() as tab:
            await tab.page.set_content("<p>A page to call into.</p>")
            defences = PageDefences(tab.context, tab.page, OPTIONS, "about:blank")
            defences.install(tab.routes, tab.network)
            session = PageSession(tab.page, Deadline(60.0), defences, tab.network.session)
            return await scenario(session)


def test_values_promises_and_throws() -> None:
    async def scenario(session: PageSession) -> tuple[Any, ...]:
        assert session.cdp is not None
        plain = await session.evaluate(
            "(arg) => ({doubled: arg.n * 2, text: arg.s})", {"n": 21, "s": "é\u2028"}
        )
        nothing = await session.evaluate("() => undefined")
        awaited = await session.evaluate(
            "async (ms) => { await new Promise((r) => setTimeout(r, ms)); return 'late'; }", 5
        )
        with pytest.raises(PlaywrightError, match="no such thing"):
            await session.evaluate("() => { throw new Error('no such thing'); }")
        return plain, nothing, awaited

    plain, nothing, awaited = run(lambda: on_a_tab(scenario))
    assert plain == {"doubled": 42, "text": "é\u2028"}
    assert nothing is None and awaited == "late"


def test_a_tab_that_crashes_during_a_call_ends_it_with_the_defences_error() -> None:
    async def scenario(session: PageSession) -> BaseException:
        assert session.cdp is not None
        call = asyncio.ensure_future(
            session.evaluate("() => new Promise(() => {})", cap=60.0)  # never answers
        )
        await asyncio.sleep(0)  # the call is on its way
        # (a crashed tab answers no command: Page.crash's own answer never comes)
        crash = asyncio.ensure_future(session.cdp.send("Page.crash"))
        try:
            await call
        except BaseException as exc:  # noqa: BLE001 - what the call ended with is the test
            return exc
        finally:
            crash.cancel()
        raise AssertionError("the call answered from a crashed tab")

    assert isinstance(run(lambda: on_a_tab(scenario)), NavigationError)
