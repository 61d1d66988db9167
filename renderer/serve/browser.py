"""The one browser the service shares: an ``AsyncRenderer`` (its page pool bounds the pages at
once), started with the server, and started again when Chromium dies.

A request whose browser died under it fails with a ``RenderError`` that says so; the browser
is restarted in the background at once, so the next request gets a working one."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from playwright.async_api import Error as PlaywrightError

from extractor import ReadermodeError, RenderError
from renderer.browser.api import AsyncRenderer
from renderer.browser.options import RenderOptions

T = TypeVar("T")
LOG = logging.getLogger("readermode.serve")


class SharedBrowser:
    """Runs captures on the shared renderer; restarts it once it is found disconnected."""

    def __init__(
        self, options: RenderOptions, *, max_pages: int, on_restart: Callable[[], None]
    ) -> None:
        self.options = options
        self.max_pages = max_pages
        self._on_restart = on_restart
        self._renderer: AsyncRenderer | None = None
        self._lock = asyncio.Lock()
        self._closed = False
        self.restarts = 0

    @property
    def connected(self) -> bool:
        return self._renderer is not None and self._renderer.connected

    async def start(self) -> None:
        await self._current()

    async def _current(self) -> AsyncRenderer:
        """The running renderer, started (again) if there is none or its browser is gone."""
        async with self._lock:
            if self._closed:
                raise RenderError("the server is shutting down")
            renderer = self._renderer
            if renderer is not None and renderer.connected:
                return renderer
            if renderer is not None:
                await renderer.close()  # the dead browser's driver and pool
                self.restarts += 1
                self._on_restart()
                LOG.warning("the browser had stopped; started a new one")
            renderer = AsyncRenderer(self.options, max_pages=self.max_pages)
            await renderer.start()
            self._renderer = renderer
            return renderer

    async def run(self, work: Callable[[AsyncRenderer], Awaitable[T]]) -> T:
        """``work`` on the shared renderer. If the browser died meanwhile, the error says so
        (whatever the page code made of it) and the next request gets a new browser."""
        renderer = await self._current()
        try:
            return await work(renderer)
        except (ReadermodeError, PlaywrightError) as exc:
            if renderer.connected:
                if isinstance(exc, ReadermodeError):
                    raise
                raise RenderError(f"the browser failed: {str(exc).splitlines()[0]}") from exc
            self._restart_soon()
            raise RenderError(
                "the browser stopped while rendering this page (it is being restarted: "
                "try again)"
            ) from exc

    def _restart_soon(self) -> None:
        task = asyncio.get_running_loop().create_task(self._current())
        task.add_done_callback(_log_failure)

    async def close(self) -> None:
        async with self._lock:
            self._closed = True
            renderer, self._renderer = self._renderer, None
        if renderer is not None:
            await renderer.close()


def _log_failure(task: asyncio.Task[AsyncRenderer]) -> None:
    if not task.cancelled() and task.exception() is not None:
        LOG.error("restarting the browser failed: %s", task.exception())
