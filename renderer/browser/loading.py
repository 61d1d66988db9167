"""Getting the document into the page: the page's bytes served from memory, documents from
the network decoded the way the static path decodes them, and the navigation itself, whose
failures become the error tree's kinds (HTTP status, not HTML, too many redirects ...)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from email.message import Message

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Route
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from extractor import (
    BudgetExceededError,
    FetchError,
    HTTPStatusError,
    InputTooLargeError,
    LimitExceededError,
    NavigationError,
    NotHTMLError,
    ReadermodeError,
    decode_html,
)
from renderer.browser.options import RenderOptions
from renderer.browser.routes import REFUSED, RouteChain, document_address
from renderer.browser.session import Deadline, PageRequest, PageSession


@dataclass
class ServedDocument:
    """The top-level document as handed to Chromium (decoded), for a render that stalls."""

    text: str | None = None


def route_from_memory(
    routes: RouteChain, request: PageRequest, offline: bool, served: ServedDocument
) -> None:
    """Serve the page's own bytes at its URL; when offline, refuse every other request.

    The bytes are decoded the way the static path decodes them (BOM, <meta charset>,
    charset-normalizer) and served as UTF-8 with that charset in the header: served without
    one, Chromium guessed, and pages without <meta charset> came out garbled.
    """
    page_url = document_address(request.url)
    body = request.body
    if body is not None:
        served.text = decode_html(body, max_bytes=max(len(body), 1)).text
        body = served.text.encode("utf-8")

    async def handle(route: Route) -> None:
        target = route.request
        if document_address(target.url) == page_url and body is not None:
            await route.fulfill(
                status=200, body=body, headers={"Content-Type": "text/html; charset=utf-8"}
            )
        elif offline and target.is_navigation_request() and target.frame.parent_frame is None:
            # The page's script navigating away (a redirect, a consent bounce): stay on the
            # page. A refused navigation would replace it with Chromium's error page.
            await route.fulfill(status=204)
        elif offline:
            await route.abort(REFUSED)
        else:
            await route.fallback()  # to the private-network guard, when there is one

    if request.body is not None or offline:
        routes.add(handle)


DECODED_TYPES = ("text/html", "application/xhtml+xml")
DOCUMENT_FETCH_SHARE = 1 / 3
"""The decoder's fetch of a document may take this share of the budget. It needs the whole
body, which a page that trickles (its article at once, then comments a second apart with no
Content-Length) never completes: past this share Chromium loads the document itself, showing
what arrived, and the rest of the budget is left for reading it."""
READY_POLL_S = 0.25
"""How often the wait for DOMContentLoaded asks the document its ``readyState``."""
DOM_LOADED_SHARE = 1 / 2
"""Of the settle time left once the server answered, waiting for DOMContentLoaded may take
this share: a document that never completes (a trickling body, a parser stopped by a script
that never arrives) is still settled and read with the rest."""


def route_documents_through_decoder(
    routes: RouteChain,
    request: PageRequest,
    options: RenderOptions,
    deadline: Deadline,
    fail: Callable[[ReadermodeError], None],
    served: ServedDocument,
) -> None:
    """Decode top-level HTML documents from the network the way the static path does.

    Chromium follows the HTML standard: a lying header or <meta> charset wins, and a page
    without one is never guessed to be UTF-8, so such pages came out as mojibake. The
    document is fetched here instead, decoded with ``decode_html`` (BOM, UTF-8 validity,
    declarations checked against the bytes, charset-normalizer) and handed to Chromium as
    UTF-8. Anything else (redirects, errors, other types) goes to Chromium untouched. A body
    over ``max_bytes`` is refused here (``fail``, the defences' failure) rather than handed on:
    copying 50 MB back into the browser cost seconds of the budget.
    """
    if request.body is not None:  # served from memory: already decoded
        return

    async def handle(route: Route) -> None:
        target = route.request
        if not (
            target.method == "GET"
            and target.is_navigation_request()
            and target.frame.parent_frame is None
        ):
            await route.fallback()
            return
        allowed = min(deadline.settle_remaining(), DOCUMENT_FETCH_SHARE * deadline.seconds)
        try:
            response = await route.fetch(max_redirects=0, timeout=max(1.0, allowed) * 1000)
        except PlaywrightError:
            await route.fallback()  # Chromium meets the same failure and reports it
            return
        headers = response.headers
        declared = Message()
        declared["content-type"] = headers.get("content-type", "text/html")
        length = headers.get("content-length", "")
        if response.status != 200 or declared.get_content_type() not in DECODED_TYPES:
            await route.fulfill(response=response)
            return
        if length.isdigit() and int(length) > options.max_bytes:
            await _refuse_too_large(route, fail, int(length), options.max_bytes)
            return
        body = await response.body()
        if len(body) > options.max_bytes:
            await _refuse_too_large(route, fail, len(body), options.max_bytes)
            return
        try:
            text = decode_html(
                body, declared_encoding=declared.get_content_charset(), max_bytes=options.max_bytes
            ).text
        except ReadermodeError:
            await route.fulfill(response=response)  # too large, binary, empty: Chromium decides
            return
        decoded_headers = {
            name: value
            for name, value in headers.items()
            if name.lower() not in ("content-type", "content-length", "content-encoding")
        }
        decoded_headers["content-type"] = "text/html; charset=utf-8"
        served.text = text
        await route.fulfill(status=200, headers=decoded_headers, body=text.encode("utf-8"))

    routes.add(handle)


async def _refuse_too_large(
    route: Route, fail: Callable[[ReadermodeError], None], size: int, limit: int
) -> None:
    fail(InputTooLargeError(size, limit, f"response from {route.request.url}"))
    await route.abort(REFUSED)


async def _dom_loaded(session: PageSession, allowed: float) -> None:
    """Wait, at most ``allowed`` seconds, for DOMContentLoaded, or for the document to say it
    is past loading: a page that starts a navigation of its own which is then refused (an
    anti-adblock redirect, offline) never gets the lifecycle event, though it is complete.
    Whether it came at all is read at the end (``PageSession.stalled``)."""
    event = asyncio.ensure_future(
        session.page.wait_for_load_state("domcontentloaded", timeout=max(1.0, allowed) * 1000)
    )
    end = time.monotonic() + allowed
    try:
        while not event.done() and time.monotonic() < end:
            await asyncio.wait({event}, timeout=READY_POLL_S)
            if event.done():
                break
            with suppress(TimeoutError, PlaywrightError):  # a busy or navigating page: ask again
                state = await asyncio.wait_for(
                    session.page.evaluate("document.readyState"), timeout=READY_POLL_S
                )
                if state in ("interactive", "complete"):
                    session.dom_loaded = True
                    return
        with suppress(PlaywrightTimeoutError):
            await event
    finally:
        event.cancel()


async def navigate(session: PageSession, url: str, options: RenderOptions) -> int | None:
    """Load ``url``; the defences' failures (too large, too many redirects, a crash) end the
    wait at once."""
    started = time.monotonic()
    race = session.defences.race
    try:
        # "commit": the server answered. A page that then never reaches DOMContentLoaded
        # (a script that never returns) is read as far as it got, not lost.
        response = await race(
            session.page.goto(
                url,
                wait_until="commit",
                timeout=max(1.0, session.deadline.settle_remaining() * 1000),
            )
        )
    except PlaywrightTimeoutError as exc:
        raise BudgetExceededError(
            f"{url} did not answer within the {session.deadline.seconds:g} s budget"
        ) from exc
    except PlaywrightError as exc:
        raise navigation_error(url, exc, options) from exc
    try:
        await race(_dom_loaded(session, DOM_LOADED_SHARE * session.deadline.settle_remaining()))
    except PlaywrightError as exc:
        raise navigation_error(url, exc, options) from exc
    session.mark("navigate", started)
    if response is None:
        return None
    if response.status >= 400:
        raise HTTPStatusError(response.status, url, response.status_text)
    # the headers Chromium reported with the response: ``all_headers`` would ask for the
    # raw ones in one more round trip, and the content type is among these
    content_type = response.headers.get("content-type", "text/html").split(";")[0].strip().lower()
    if content_type and content_type not in (
        "text/html",
        "application/xhtml+xml",
        "text/plain",
        "application/xml",
        "text/xml",
    ):
        raise NotHTMLError(f"{url} is {content_type}, not HTML")
    return response.status


def navigation_error(url: str, exc: PlaywrightError, options: RenderOptions) -> ReadermodeError:
    message = str(exc).splitlines()[0]
    if "Download is starting" in message:
        return NotHTMLError(f"{url} is a download, not a page")
    if "net::ERR_TOO_MANY_REDIRECTS" in message:  # Chromium's own cap (20) came first
        return LimitExceededError(
            "max_redirects", options.max_redirects, f"{url} redirected too many times"
        )
    if "net::ERR_" in message:
        code = message[message.index("net::ERR_") :].split()[0]
        return FetchError(f"cannot load {url}: {code}")
    return NavigationError(f"cannot load {url}: {message}")
