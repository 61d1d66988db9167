"""Firefox Reader View in Chromium: a page loaded from memory with its scripts off, then
Readability.js run on it exactly as Reader View runs it.

``ReaderTab`` keeps one context and one page and reads page after page in them: a fresh
context per page cost as much as reading the page (Mozilla's 130 test pages, two at a time,
on a quiet machine: 87 s with a context per page, 43 s with two reused tabs, the same results).
Nothing of a page can outlive it in the tab: page scripts never run, every request but the
page's own is refused, and each page is a new navigation.
"""

from __future__ import annotations

import asyncio
from types import TracebackType
from typing import Any

from playwright.async_api import BrowserContext, Page, Route

from renderer.browser.launch import VIEWPORT, BrowserHandle
from renderer.browser.readability import readability_expression, reader_view_options

PAGE_URL = "http://fakehost/test/page.html"
"""Where Mozilla's test harness loads every test page (relative links resolve against it)."""
CLOSE_WAIT_S = 5.0
"""A context that will not close within this is left to the browser's own shutdown."""


class ReaderTab:
    """One context (page scripts off) and one page, for reading pages one after another.

    A read that fails or runs out of time closes the tab; the next read opens a new one, so a
    broken page cannot leave its state to the next. Use ``async with ReaderTab(handle) as tab``.
    """

    def __init__(self, handle: BrowserHandle) -> None:
        self.handle = handle
        self._context: BrowserContext | None = None
        self._page: Page | None = None
        self._url = ""
        self._body = b""

    async def __aenter__(self) -> ReaderTab:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    async def _open(self) -> Page:
        # A context like BrowserHandle.new_context's, but with page scripts off (Mozilla's
        # harness never runs them, and Playwright's ``evaluate`` still works).
        self._context = await self.handle.browser.new_context(
            bypass_csp=True,
            viewport=VIEWPORT,
            service_workers="block",
            java_script_enabled=False,
        )
        await self._context.route("**/*", self._answer)
        self._page = await self._context.new_page()
        return self._page

    async def _answer(self, route: Route) -> None:
        request = route.request
        if (
            request.url == self._url
            and request.is_navigation_request()
            and request.frame.parent_frame is None
        ):
            await route.fulfill(
                status=200, body=self._body, headers={"Content-Type": "text/html; charset=utf-8"}
            )
        else:
            await route.abort()

    async def read(
        self,
        html: bytes | str,
        url: str = PAGE_URL,
        *,
        budget: float = 15.0,
        keep_comments: bool = False,
    ) -> dict[str, Any]:
        """Load ``html`` at ``url`` and return Readability.js's raw result (see ``reader_view``).
        TimeoutError when ``budget`` seconds are not enough."""
        try:
            return await asyncio.wait_for(self._read(html, url, keep_comments), timeout=budget)
        except BaseException:
            await self.close()
            raise

    async def _read(self, html: bytes | str, url: str, keep_comments: bool) -> dict[str, Any]:
        page = self._page or await self._open()
        self._body = html.encode("utf-8") if isinstance(html, str) else html
        self._url = url.split("#", 1)[0]
        if "#" in url and page.url.split("#", 1)[0] == self._url:
            # the same document with a fragment would be scrolled to, not loaded again
            await page.goto("about:blank")
        await page.goto(url, wait_until="domcontentloaded")
        result: dict[str, Any] = await page.evaluate(
            readability_expression(),
            {**reader_view_options(), "dropComments": not keep_comments},
        )
        return result

    async def close(self) -> None:
        context, self._context, self._page = self._context, None, None
        if context is None:
            return
        try:
            await asyncio.wait_for(context.close(), timeout=CLOSE_WAIT_S)
        except Exception:  # noqa: BLE001 - a context that will not close must not hide the result
            pass


async def reader_view(
    handle: BrowserHandle,
    html: bytes | str,
    url: str = PAGE_URL,
    *,
    budget: float = 15.0,
    keep_comments: bool = False,
) -> dict[str, Any]:
    """Load ``html`` at ``url`` in a fresh context and run Readability.js as Reader View does.

    Page scripts are disabled, the page URL is answered with ``html`` as
    ``text/html; charset=utf-8`` (Mozilla reads every source as UTF-8, whatever its ``<meta>``
    says; the header wins over the meta) and every other request is aborted. Returns the raw
    result object of ``readability_run.js`` (content, title, byline, excerpt, siteName, dir,
    lang, publishedTime, textContent, length, readerable, error, ms); ``content`` is absent when
    Readability.js found nothing. TimeoutError when ``budget`` seconds are not enough.

    Comment nodes are removed from the clone Readability.js reads (unless ``keep_comments``):
    Firefox serialises the live document and re-parses it with JSDOMParser in its ReaderWorker,
    and JSDOMParser drops comments. Otherwise a comment, not being phrasing content, cuts
    ``text<!-- -->text`` inside a <div> into separate paragraphs.
    """
    async with ReaderTab(handle) as tab:
        return await tab.read(html, url, budget=budget, keep_comments=keep_comments)
