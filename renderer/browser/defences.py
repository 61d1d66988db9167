"""Defences of one capture against what a hostile page does while it is being read.

``PageDefences`` watches a capture's context and page:

- dialogs (alert, confirm, prompt, beforeunload) are dismissed at once, so none can hold the
  page's main thread; popups are closed (``guard.js`` already makes ``window.open`` return
  null); a crashed tab ends the capture with ``NavigationError`` (``render_page`` then reads
  the document as served, when there is one);
- the main document's response is counted over CDP as it arrives: a Content-Length or a
  decoded body over ``max_bytes`` ends the capture with ``InputTooLargeError`` before the rest
  is read (a 50 MB page is refused after its first 5 MB);
- HTTP redirects of a main-frame navigation are counted: more than ``max_redirects`` ends the
  capture with ``LimitExceededError``;
- navigations the page starts itself (script, meta refresh) are followed up to
  ``max_redirects`` times, then refused; once the first document has loaded, a navigation to
  another origin is refused. A refused navigation is answered with 204, which makes Chromium
  stay on the current document, so what was loaded is still read (with a warning).

A failure found in an event handler is kept in ``failure``; ``race`` ends whatever the capture
is waiting for as soon as one is found.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

from playwright.async_api import BrowserContext, Dialog, Frame, Page, Request, Route
from playwright.async_api import Error as PlaywrightError

from extractor import InputTooLargeError, LimitExceededError, NavigationError, ReadermodeError
from renderer.browser.options import RenderOptions
from renderer.browser.pool import PageNetwork
from renderer.browser.routes import RouteChain

T = TypeVar("T")

REFUSED_NAVIGATION_STATUS = 204
"""HTTP 204 No Content to a navigation: Chromium stays on the current document."""


def origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def _header(headers: dict[str, Any], name: str) -> str | None:
    for key, value in headers.items():
        if key.lower() == name:
            return str(value)
    return None


class PageDefences:
    """One capture's guards; ``install`` once the page exists, before navigating."""

    def __init__(
        self, context: BrowserContext, page: Page, options: RenderOptions, url: str
    ) -> None:
        self.context = context
        self.page = page
        self.options = options
        self.url = url
        self.failure: ReadermodeError | None = None
        self.crashed = False
        self._failed = asyncio.Event()
        self.notes: list[str] = []
        self.dialogs = 0
        self.popups = 0
        self.page_navigations = 0
        self._first_navigation_seen = False
        self._loaded_origin: str | None = None
        self._main_frame_id: str | None = None
        self._document_bytes: dict[str, int] = {}
        self.main_document_bytes: int | None = None
        """Decoded bytes of the last main document that finished loading (None: not yet)."""

    def install(self, routes: RouteChain, network: PageNetwork) -> None:
        """Listen to the page, route its requests through ``routes`` and count its document
        bytes on ``network``."""
        self.page.on("dialog", self._dismiss)
        self.page.on("crash", self._crashed)
        self.page.on("request", self._count_redirects)
        self.context.on("page", self._close_popup)
        routes.add(self._route)
        self._watch_bytes(network)

    # ---- failures ------------------------------------------------------------------------------

    def fail(self, error: ReadermodeError) -> None:
        """Keep the first failure and wake ``race``."""
        if self.failure is None:
            self.failure = error
            self._failed.set()

    def check(self) -> None:
        if self.failure is not None:
            raise self.failure

    async def race(self, awaitable: Awaitable[T]) -> T:
        """Await ``awaitable``, unless a failure comes first: then cancel it and raise that."""
        self.check()
        task = asyncio.ensure_future(awaitable)
        waiter = asyncio.ensure_future(self._failed.wait())
        try:
            await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiter.cancel()
            if not task.done():
                task.cancel()
                task.add_done_callback(_retrieve)
        if task.done() and not task.cancelled() and task.exception() is None:
            return task.result()
        if self.failure is not None:
            # The awaited call may have failed because of it (an aborted load): report the cause.
            raise self.failure
        return task.result()

    # ---- the page's own doings -----------------------------------------------------------------

    async def _dismiss(self, dialog: Dialog) -> None:
        self.dialogs += 1
        try:
            await dialog.dismiss()
        except PlaywrightError:
            pass  # the page or the dialog is already gone

    def _crashed(self, page: Page) -> None:
        self.crashed = True
        self.fail(
            NavigationError(
                f"{self.url} crashed the browser tab (out of memory, or too large or too deeply "
                "nested to lay out)"
            )
        )

    async def _close_popup(self, page: Page) -> None:
        if page is self.page:
            return
        self.popups += 1
        try:
            await page.close(run_before_unload=False)
        except PlaywrightError:
            pass

    def _is_main_frame(self, request: Request) -> bool:
        try:
            frame: Frame = request.frame
        except PlaywrightError:  # a service worker's request has no frame
            return False
        return frame == self.page.main_frame

    def _count_redirects(self, request: Request) -> None:
        if request.redirected_from is None or not request.is_navigation_request():
            return
        if not self._is_main_frame(request):
            return
        hops, first = 0, request
        while first.redirected_from is not None:
            hops += 1
            first = first.redirected_from
        if hops > self.options.max_redirects:
            self.fail(
                LimitExceededError(
                    "max_redirects",
                    self.options.max_redirects,
                    f"{first.url} was redirected {hops} times",
                )
            )

    def loaded(self) -> None:
        """The first document has loaded: from now on it is not left for another origin."""
        self._loaded_origin = origin(self.page.url)

    async def _route(self, route: Route) -> None:
        request = route.request
        if not (request.is_navigation_request() and self._is_main_frame(request)):
            await route.fallback()
            return
        if not self._first_navigation_seen:  # our own page.goto
            self._first_navigation_seen = True
            await route.fallback()
            return
        target = origin(request.url)
        if self._loaded_origin is not None and target != self._loaded_origin:
            self._note(f"stayed on {self.page.url}: the page tried to go to {target} after loading")
            await route.fulfill(status=REFUSED_NAVIGATION_STATUS)
            return
        if self.page_navigations >= self.options.max_redirects:
            self._note(
                f"partial: the page kept navigating; stopped after max_redirects="
                f"{self.options.max_redirects} of its own navigations"
            )
            await route.fulfill(status=REFUSED_NAVIGATION_STATUS)
            return
        self.page_navigations += 1
        await route.fallback()

    def _note(self, note: str) -> None:
        if note not in self.notes:
            self.notes.append(note)

    def warnings(self) -> list[str]:
        """What the defences did, for the snapshot's warnings."""
        done = list(self.notes)
        if self.dialogs:
            done.append(f"dismissed {self.dialogs} dialog(s) the page opened")
        if self.popups:
            done.append(f"closed {self.popups} window(s) the page opened")
        return done

    # ---- the main document's size --------------------------------------------------------------

    def document_from_memory(self, size: int, network: PageNetwork) -> None:
        """The main document is served from memory (``size`` bytes) and, the capture being
        offline, no other can load (a navigation away is answered 204): its size is known, and
        Chromium's count is not needed. The tab's Network domain stays on for the requests
        Chromium refuses itself (``offline.refuse_static_requests``); its events no longer
        reach the counting."""
        self.main_document_bytes = size
        for event, handler in self._byte_handlers():
            network.session.remove_listener(event, handler)

    def _watch_bytes(self, network: PageNetwork) -> None:
        """Count the main frame's document bytes as Chromium receives them (CDP Network)."""
        self._main_frame_id = network.main_frame_id
        for event, handler in self._byte_handlers():
            network.session.on(event, handler)

    def _byte_handlers(self) -> tuple[tuple[str, Callable[[dict[str, Any]], None]], ...]:
        return (
            ("Network.requestWillBeSent", self._document_started),
            ("Network.responseReceived", self._document_answered),
            ("Network.dataReceived", self._document_data),
            ("Network.loadingFinished", self._document_finished),
        )

    def _document_started(self, event: dict[str, Any]) -> None:
        if event.get("type") == "Document" and event.get("frameId") == self._main_frame_id:
            self._document_bytes[event["requestId"]] = 0  # a redirect starts the count again

    def _document_answered(self, event: dict[str, Any]) -> None:
        if event.get("requestId") not in self._document_bytes:
            return
        response = event.get("response") or {}
        if response.get("status") in (204, 205) or int(response.get("status") or 0) >= 300:
            # no document comes of it: a refused navigation, a redirect, an error page
            self._document_bytes.pop(event["requestId"], None)
            return
        declared = _header(response.get("headers") or {}, "content-length")
        if declared and declared.strip().isdigit() and int(declared) > self.options.max_bytes:
            self._too_large(int(declared), response.get("url") or self.url)

    def _document_data(self, event: dict[str, Any]) -> None:
        request_id = event.get("requestId")
        if request_id not in self._document_bytes:
            return
        size = self._document_bytes[request_id] + int(event.get("dataLength") or 0)
        self._document_bytes[request_id] = size
        if size > self.options.max_bytes:
            self._too_large(size, self.url)

    def _document_finished(self, event: dict[str, Any]) -> None:
        request_id = event.get("requestId")
        if request_id in self._document_bytes:
            self.main_document_bytes = self._document_bytes.pop(request_id)

    def _too_large(self, size: int, url: str) -> None:
        self.fail(InputTooLargeError(size, self.options.max_bytes, f"response from {url}"))


def _retrieve(task: asyncio.Future[Any]) -> None:
    """Mark a cancelled-or-failed task's exception as seen (no "never retrieved" warning)."""
    if not task.cancelled():
        task.exception()
