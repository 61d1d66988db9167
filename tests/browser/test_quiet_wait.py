"""The quiet wait asks a page that is still loading again as soon as its load event comes
(``PageSession._until_loaded_or``), not a poll later: the test holds the page's one image, so
the load event comes when the test says."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.async_api import Route

from renderer import AsyncRenderer, RenderOptions
from renderer.browser.defences import PageDefences
from renderer.browser.session import Deadline, PageSession

pytestmark = pytest.mark.browser

OPTIONS = RenderOptions(block_private=False, budget=60)
PAGE = "https://quiet.example/article"
PAGE_HTML = "<title>t</title><p>Text before the image.</p><img src='/held.png'>"


async def _scenario() -> tuple[bool, bool]:
    async with AsyncRenderer(OPTIONS) as renderer:
        await renderer.start()
        assert renderer._pool is not None
        async with renderer._pool.tab() as tab:
            release = asyncio.Event()

            async def page(route: Route) -> None:
                await route.fulfill(status=200, body=PAGE_HTML, content_type="text/html")

            async def held_image(route: Route) -> None:
                await release.wait()
                await route.fulfill(status=404, body="")

            await tab.page.route(PAGE, page)
            await tab.page.route("**/held.png", held_image)
            defences = PageDefences(tab.context, tab.page, OPTIONS, PAGE)
            defences.install(tab.routes, tab.network)
            session = PageSession(tab.page, Deadline(60.0), defences, tab.network.session)
            await tab.page.goto(PAGE, wait_until="domcontentloaded")
            state = await session.settle_action("quiet")
            waiting = asyncio.ensure_future(session._until_loaded_or(state, 3600))
            await asyncio.sleep(0)
            waited_while_held = not waiting.done() and state.get("readyState") == "interactive"
            release.set()
            await asyncio.wait_for(waiting, timeout=60)  # an hour's sleep fails here
            return waited_while_held, waiting.done()


def test_a_loading_page_is_asked_again_once_its_load_event_comes() -> None:
    with ThreadPoolExecutor(1) as pool:
        waited, woke = pool.submit(asyncio.run, _scenario()).result(timeout=600)
    assert waited and woke
