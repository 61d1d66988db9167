"""The page pool: one browser, at most ``max_pages`` captures at once, each in a context of its
own that was made ready before it was asked for.

Opening a page is the largest fixed cost of a capture (``new_page`` took a median 0.15 s of a
1.3 s capture of an article-benchmark page on a quiet machine). The pool keeps ``spares``
contexts open with our init scripts added and a blank page in each, and opens the next while a
capture runs, so that a capture starts on a page that is already there.

Contexts are never handed to a second capture: cookies, storage, caches and permissions of one
page must not change how the next one reads (a consent accepted, a paywall counter, a login),
and a context cannot be emptied of all of them reliably. A used context is closed
(``dispose``) and replaced by a fresh spare. The CLI's ``--jobs``, the batch runner and the
Python API share the pool of their renderer.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass

from playwright.async_api import BrowserContext, CDPSession, Page
from playwright.async_api import Error as PlaywrightError

from renderer.browser.routes import RouteChain

DEFAULT_MAX_PAGES = 8
"""Captures at once in one browser unless the caller says otherwise (a batch sets its
``--jobs``); more wait for a free slot rather than overload the machine."""
DEFAULT_SPARES = 1
"""Contexts kept ready: one is enough for a capture at a time, and with several at once they
finish at different moments, each leaving time to open the next."""


@dataclass(frozen=True)
class PageNetwork:
    """A CDP session on a tab's page with its Network domain on, and the page's main frame:
    what the defences count a document's bytes with (opening it takes three round trips)."""

    session: CDPSession
    main_frame_id: str


@dataclass(frozen=True)
class Tab:
    """A fresh context, its init scripts added and its route chain installed, with one blank
    page and a CDP session on it."""

    context: BrowserContext
    page: Page
    routes: RouteChain
    network: PageNetwork


class PagePool:
    """Fresh contexts, made ready ahead, for at most ``max_pages`` captures at once."""

    def __init__(
        self,
        open_context: Callable[[], Awaitable[BrowserContext]],
        dispose: Callable[[BrowserContext], Awaitable[None]],
        init_scripts: Sequence[str],
        *,
        max_pages: int = DEFAULT_MAX_PAGES,
        spares: int = DEFAULT_SPARES,
    ) -> None:
        if max_pages < 1 or spares < 0:
            raise ValueError("max_pages must be at least 1 and spares not negative")
        self._open_context = open_context
        self._dispose = dispose
        self._init_scripts = tuple(init_scripts)
        self._slots = asyncio.Semaphore(max_pages)
        self._spares = spares
        self._ready: list[asyncio.Task[Tab]] = []
        self._closing: set[asyncio.Future[None]] = set()
        self._closed = False
        self.opened = 0
        """Contexts opened so far (spares included)."""
        self.from_spares = 0
        """Captures given a spare (opened, or on its way, before they asked)."""
        self.waiting = 0
        """Captures waiting for a slot (``max_pages`` are running)."""

    @asynccontextmanager
    async def tab(self) -> AsyncIterator[Tab]:
        """A fresh tab for one capture, closed in the background when it ends."""
        self.waiting += 1
        try:
            await self._slots.acquire()
        finally:
            self.waiting -= 1
        try:
            tab = await self._take()
        except BaseException:
            self._slots.release()
            raise
        try:
            yield tab
        finally:
            self.prepare_spares()  # if the capture ended before it asked for them
            # The capture has its result: closing its context (tens of milliseconds) need not
            # delay it. The slot stays taken until the context is closed, so no more than
            # ``max_pages`` contexts are ever open.
            closing = asyncio.ensure_future(self._close_and_release(tab))
            self._closing.add(closing)
            closing.add_done_callback(self._closing.discard)

    async def _close_and_release(self, tab: Tab) -> None:
        try:
            await self._dispose(tab.context)
        finally:
            self._slots.release()

    async def _take(self) -> Tab:
        if self._closed:
            raise RuntimeError("the page pool is closed")
        while self._ready:
            task = self._ready.pop(0)
            try:
                tab = await task
            except PlaywrightError:
                continue  # that spare failed to open (a browser restart): try the next
            self.from_spares += 1
            return tab
        return await self._prepare()

    def prepare_spares(self) -> None:
        """Start opening spares until ``spares`` are ready or on their way. A capture asks once
        its page has loaded: opening a context (a renderer process, our scripts, a page) while
        its page loads slowed that load by a fifth, and it overlaps the settle's waits well."""
        while not self._closed and len(self._ready) < self._spares:
            self._ready.append(asyncio.ensure_future(self._prepare()))

    async def _prepare(self) -> Tab:
        context = await self._open_context()
        self.opened += 1
        try:
            for source in self._init_scripts:
                await context.add_init_script(script=source)
            page = await context.new_page()
            routes = RouteChain()
            await routes.install(context)
            network = await _open_network(context, page)
        except BaseException:
            await self._dispose(context)
            raise
        return Tab(context, page, routes, network)

    async def close(self) -> None:
        """Close the spares and wait for used tabs being closed; captures in flight close
        their own tabs."""
        self._closed = True
        if self._closing:  # each is bounded by ``dispose``'s own wait
            await asyncio.wait(set(self._closing))
        ready, self._ready = self._ready, []
        for task in ready:
            task.cancel()
        for task in ready:
            with suppress(asyncio.CancelledError, PlaywrightError):
                tab = await task
                await self._dispose(tab.context)


async def _open_network(context: BrowserContext, page: Page) -> PageNetwork:
    session = await context.new_cdp_session(page)
    tree = await session.send("Page.getFrameTree")
    await session.send("Network.enable")
    return PageNetwork(session, tree["frameTree"]["frame"]["id"])
