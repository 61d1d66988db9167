"""The renderer's public API: one async core, and a thin sync wrapper over it.

``AsyncRenderer`` keeps one Chromium for many pages (a fresh context per page) and is safe to
use concurrently from one event loop. ``Renderer`` runs the same core on a private event loop
for scripts. Both shut the browser down on ``close()``, on leaving a ``with`` block, on errors
and on Ctrl-C; ``capture``/``render`` are one-shot helpers that do all of that for one page.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

from extractor import (
    Extraction,
    ExtractOptions,
    PageSnapshot,
    PreparedExtraction,
    extract,
    prepare_extraction,
)
from renderer.browser.bundle import LAYOUT, write_bundle
from renderer.browser.inpage import functions_init_script, script
from renderer.browser.launch import BrowserHandle, launch_browser
from renderer.browser.options import RenderOptions
from renderer.browser.page import SnapshotHook, render_page
from renderer.browser.pool import DEFAULT_MAX_PAGES, PagePool
from renderer.browser.session import PageRequest
from renderer.browser.steps import with_action_trace
from renderer.fetch.static import is_url, read_target_bytes

T = TypeVar("T")

INIT_SCRIPTS = ("guard.js", "init.js", "observe.js")
"""Our in-page scripts, in every context of the pool before any page script runs (and then
``inpage.functions_init_script``: the functions the capture calls by name)."""
LOCAL_ORIGIN = "http://readermode.localhost/"
"""Where a local file or stdin is served from memory when no --url is given (never resolved)."""


def _page_request(target: str, *, url: str | None, max_bytes: int) -> PageRequest:
    """A URL is loaded as is; a file or stdin is served from memory at ``url``."""
    if is_url(target) and url is None:
        return PageRequest(url=target)
    if is_url(target):
        return PageRequest(url=url)  # type: ignore[arg-type]
    body = read_target_bytes(target, max_bytes=max_bytes)
    name = "stdin.html" if target == "-" else Path(target).name
    serve_at = url or LOCAL_ORIGIN + name
    if urlsplit(serve_at).scheme not in ("http", "https"):
        raise ValueError(f"--url must be an http(s) URL, not {serve_at}")
    return PageRequest(url=serve_at, body=body)


def _for_snapshots(extract_options: ExtractOptions, options: RenderOptions) -> ExtractOptions:
    """The extractor's input cap raised to ``max_dom_bytes``: a rendered snapshot is already
    bounded by it, and must not be refused for growing past ``max_bytes`` once serialised."""
    if extract_options.max_bytes < options.max_dom_bytes:
        return replace(extract_options, max_bytes=options.max_dom_bytes)
    return extract_options


class ReadAhead:
    """A capture's extraction read ahead on a thread (``extractor.prepare_extraction``) from the
    settled snapshot, while Readability.js runs on it in the page: the extraction's part that
    does not need that result (the parse, the page's type, the rules, readability-lxml) then
    costs the capture no time of its own."""

    def __init__(self, options: ExtractOptions) -> None:
        self.options = options
        self._task: asyncio.Future[PreparedExtraction | None] | None = None

    def start(self, snapshot: PageSnapshot) -> None:
        """``render_page``'s ``on_snapshot``: start reading ``snapshot`` ahead."""
        self._task = asyncio.ensure_future(
            asyncio.to_thread(prepare_extraction, snapshot, options=self.options)
        )

    async def result(self) -> PreparedExtraction | None:
        """What was read ahead; None when nothing was (the extraction then reads it all, and
        raises there what reading ahead raised)."""
        if self._task is None:
            return None
        try:
            return await self._task
        except Exception:  # noqa: BLE001 - the extraction runs the same code and reports it
            return None

    def abandon(self) -> None:
        """The capture failed: the thread runs to its end, its result is dropped."""
        if self._task is not None:
            self._task.add_done_callback(_drop_result)


def _drop_result(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()  # retrieved: no "never retrieved" report for an abandoned read


class AsyncRenderer:
    """Renders pages in one shared Chromium. Use ``async with AsyncRenderer() as r:``.

    At most ``max_pages`` captures run at once (more wait for a slot), each on a page of the
    renderer's ``PagePool`` (``pool.py``)."""

    def __init__(
        self, options: RenderOptions | None = None, *, max_pages: int = DEFAULT_MAX_PAGES
    ) -> None:
        self.options = options or RenderOptions()
        self.max_pages = max_pages
        self._handle: BrowserHandle | None = None
        self._pool: PagePool | None = None
        self._lock = asyncio.Lock()

    async def __aenter__(self) -> AsyncRenderer:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def start(self) -> None:
        async with self._lock:
            if self._handle is None:
                handle = await launch_browser(self.options.browser)
                self._handle = handle
                self._pool = PagePool(
                    lambda: handle.new_context(self.options),  # late-bound: benchmarks watch it
                    handle.dispose,
                    [*(script(name) for name in INIT_SCRIPTS), functions_init_script()],
                    max_pages=self.max_pages,
                )

    async def close(self) -> None:
        async with self._lock:
            handle, self._handle = self._handle, None
            pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()
        if handle is not None:
            await handle.close()

    async def render(
        self,
        target: str,
        *,
        url: str | None = None,
        options: RenderOptions | None = None,
        max_bytes: int | None = None,
    ) -> PageSnapshot:
        """Render a URL, or a file/stdin (``-``) served from memory at ``url``.

        ``max_bytes`` overrides ``options.max_bytes`` (the response and file size cap).
        """
        options = options or self.options
        if max_bytes is not None:
            options = replace(options, max_bytes=max_bytes)
        return await self._render(target, url, options)

    async def _render(
        self,
        target: str,
        url: str | None,
        options: RenderOptions,
        on_snapshot: SnapshotHook | None = None,
    ) -> PageSnapshot:
        await self.start()
        assert self._pool is not None
        request = _page_request(target, url=url, max_bytes=options.max_bytes)
        return await render_page(self._pool, request, options, on_snapshot)

    async def _render_and_extract(
        self, target: str, url: str | None, options: RenderOptions, extract_options: ExtractOptions
    ) -> tuple[PageSnapshot, Extraction]:
        """The snapshot and its extraction, read ahead on a thread while Readability.js runs
        in the page (``ReadAhead``), finished once its result is there."""
        ahead = ReadAhead(extract_options)
        try:
            snapshot = await self._render(target, url, options, ahead.start)
        except BaseException:
            ahead.abandon()
            raise
        prepared = await ahead.result()
        extraction = await asyncio.to_thread(
            extract, snapshot, options=extract_options, prepared=prepared
        )
        return snapshot, with_action_trace(extraction, snapshot)

    async def capture(
        self,
        target: str,
        *,
        url: str | None = None,
        options: RenderOptions | None = None,
        extract_options: ExtractOptions | None = None,
    ) -> Extraction:
        """Render, then extract the main content (the Readability.js result first).

        The response and file cap is ``options.max_bytes``; the snapshot is already bounded by
        ``options.max_dom_bytes``, so the extractor's own input cap is raised to it if lower.
        """
        options = options or self.options
        extract_options = _for_snapshots(extract_options or ExtractOptions(), options)
        return (await self._render_and_extract(target, url, options, extract_options))[1]

    @property
    def connected(self) -> bool:
        """Whether the browser is running: False before ``start`` and once Chromium is gone
        (killed, crashed), so a long-lived caller (the HTTP service) knows to start anew."""
        return self._handle is not None and self._handle.browser.is_connected()

    @property
    def browser_version(self) -> str | None:
        """The running Chromium's version, once started."""
        return self._handle.browser.version if self._handle is not None else None

    async def capture_bundle(
        self,
        target: str,
        directory: str | Path,
        *,
        url: str | None = None,
        options: RenderOptions | None = None,
        extract_options: ExtractOptions | None = None,
    ) -> Extraction:
        """Capture one page into a bundle folder (``_bundle.py``): snapshot, MHTML archive,
        full-page screenshot, extraction JSON and Markdown, manifest. Returns the extraction."""
        folder = Path(directory)
        folder.mkdir(parents=True, exist_ok=True)
        options = replace(
            options or self.options,
            screenshot=str(folder / LAYOUT.screenshot),
            mhtml=str(folder / LAYOUT.mhtml),
        )
        extract_options = _for_snapshots(extract_options or ExtractOptions(), options)
        snapshot, extraction = await self._render_and_extract(target, url, options, extract_options)
        write_bundle(
            folder,
            snapshot,
            extraction,
            render_options=options,
            extract_options=extract_options,
            browser_version=self.browser_version,
        )
        return extraction


class Renderer:
    """Synchronous wrapper: the async core on a private event loop in its own thread.

    The thread keeps it usable where the calling thread already runs an event loop (Jupyter,
    an async web app, pytest-playwright's sync fixtures).
    """

    def __init__(self, options: RenderOptions | None = None) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="readermode-renderer", daemon=True
        )
        self._thread.start()
        self._core = AsyncRenderer(options)

    def __enter__(self) -> Renderer:
        self._call(self._core.start())
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _call(self, coroutine: Coroutine[Any, Any, T]) -> T:
        if self._loop.is_closed():
            coroutine.close()
            raise RuntimeError("this Renderer is closed")
        future = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        try:
            return future.result()
        except BaseException:
            future.cancel()  # Ctrl-C or an error here: stop the page work too
            raise

    def render(
        self,
        target: str,
        *,
        url: str | None = None,
        options: RenderOptions | None = None,
        max_bytes: int | None = None,
    ) -> PageSnapshot:
        """``AsyncRenderer.render``, waited for."""
        return self._call(self._core.render(target, url=url, options=options, max_bytes=max_bytes))

    def capture(
        self,
        target: str,
        *,
        url: str | None = None,
        options: RenderOptions | None = None,
        extract_options: ExtractOptions | None = None,
    ) -> Extraction:
        """``AsyncRenderer.capture``, waited for."""
        return self._call(
            self._core.capture(target, url=url, options=options, extract_options=extract_options)
        )

    def capture_bundle(
        self,
        target: str,
        directory: str | Path,
        *,
        url: str | None = None,
        options: RenderOptions | None = None,
        extract_options: ExtractOptions | None = None,
    ) -> Extraction:
        """``AsyncRenderer.capture_bundle``, waited for."""
        return self._call(
            self._core.capture_bundle(
                target, directory, url=url, options=options, extract_options=extract_options
            )
        )

    def close(self) -> None:
        """Close the browser and stop the loop's thread; safe to call twice."""
        if self._loop.is_closed():
            return
        try:
            asyncio.run_coroutine_threadsafe(self._core.close(), self._loop).result(timeout=30)
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=10)
            self._loop.close()


def render(
    url: str, options: RenderOptions | None = None, *, max_bytes: int | None = None
) -> PageSnapshot:
    """Render one page in a browser started and stopped for it."""
    with Renderer(options) as renderer:
        return renderer.render(url, max_bytes=max_bytes)


def capture(
    url: str,
    options: RenderOptions | None = None,
    *,
    extract_options: ExtractOptions | None = None,
) -> Extraction:
    """Render one page and extract its main content."""
    with Renderer(options) as renderer:
        return renderer.capture(url, extract_options=extract_options)


async def render_async(
    url: str, options: RenderOptions | None = None, *, max_bytes: int | None = None
) -> PageSnapshot:
    """``render`` on the caller's event loop."""
    async with AsyncRenderer(options) as renderer:
        return await renderer.render(url, max_bytes=max_bytes)


async def capture_async(
    url: str,
    options: RenderOptions | None = None,
    *,
    extract_options: ExtractOptions | None = None,
) -> Extraction:
    """``capture`` on the caller's event loop."""
    async with AsyncRenderer(options) as renderer:
        return await renderer.capture(url, extract_options=extract_options)
