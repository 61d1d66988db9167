"""The private-network guard inside the browser: every request of a capture's context vetted.

The policy itself (which addresses, how hosts resolve) is ``renderer.fetch.addresses``, shared
with the static path; this module applies it to Playwright's routes and events.

What the browser guard can and cannot stop, measured with Playwright 1.65 and Chromium 156
(tests/browser/test_netguard.py): ``context.route`` sees navigations and subresources, so those
are refused before any byte leaves; it does *not* see redirect hops (Playwright continues them
itself), and Chromium resolves a host again after our check (DNS rebinding). Those two are
caught afterwards, from the ``request`` event (``redirected_from``) and from every response's
``server_addr``; the request has then reached the address, so ``BrowserGuard.verify`` fails
the whole capture with ``BlockedAddressError`` rather than return what came back.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from playwright.async_api import BrowserContext, Request, Response, Route, WebSocketRoute
from playwright.async_api import Error as PlaywrightError

from extractor import BlockedAddressError, FetchError, ReadermodeError
from renderer.browser.routes import REFUSED, RouteChain, document_address
from renderer.fetch.addresses import (
    ALLOW_HINT,
    FETCH_SCHEMES,
    AddressGuard,
    blocked_message,
    normalise_host,
)

WEBSOCKET_SCHEMES = ("ws", "wss")
LOCAL_SCHEMES = ("data", "blob", "about")
"""Never reach the network: a page's own data: images and blob: workers stay allowed."""
BROWSER_CHECK_TIMEOUT_S = 2.0
"""Cap on one after-the-fact check (``server_addr`` is a round trip to the browser)."""
VERIFY_TIMEOUT_S = 5.0
"""How long ``verify`` waits for pending checks (DNS of redirect hops) before refusing."""


@dataclass(frozen=True)
class Refusal:
    """One request the browser guard refused or caught.

    ``prevented`` is False when the request had already reached the address (a redirect hop,
    a host that resolved differently for the browser): the capture must then fail.
    """

    url: str
    message: str
    navigation: bool = False
    prevented: bool = True


@dataclass
class BrowserGuard:
    """The guard of one browser context (one capture): refusals, and a per-host DNS cache."""

    guard: AddressGuard = field(default_factory=AddressGuard)
    refusals: list[Refusal] = field(default_factory=list)
    _verdicts: dict[str, asyncio.Task[list[str]]] = field(default_factory=dict)
    _pending: set[asyncio.Task[None]] = field(default_factory=set)
    _caught: list[Refusal | None] = field(default_factory=list)
    """The after-the-fact checks' verdicts in the order of the events that started them: one
    request can fail two checks (a redirect hop to a loopback address, then its response's
    server), and ``verify`` names the first, whichever check finished first."""

    async def install(self, context: BrowserContext, routes: RouteChain | None = None) -> None:
        """Refuse forbidden requests of ``context`` (in ``routes`` when given) and watch what
        routes cannot see."""
        if routes is not None:
            routes.add(self._handle_route)
        else:
            await context.route("**/*", self._handle_route)
        if hasattr(context, "route_web_socket"):  # Playwright >= 1.48
            await context.route_web_socket(lambda _url: True, self._handle_web_socket)
        context.on("request", self._on_request)
        context.on("response", self._on_response)

    async def vet(self, url: str, schemes: Sequence[str] = FETCH_SCHEMES, note: str = "") -> None:
        """BlockedAddressError/FetchError unless ``url`` may be requested; DNS is resolved off
        the event loop, once per host for the whole capture."""
        self.guard.refuse_scheme(url, schemes)
        host = normalise_host(urlsplit(url).hostname or "")
        if not host:
            raise BlockedAddressError(f"refused {url}: no host to check; {ALLOW_HINT}")
        verdict = self._verdicts.get(host)
        if verdict is None:
            loop = asyncio.get_running_loop()
            verdict = loop.create_task(asyncio.to_thread(self.guard.addresses, host))
            self._verdicts[host] = verdict
        self.guard.vet_addresses(url, host, await asyncio.shield(verdict), note)

    async def _handle_route(self, route: Route) -> None:
        request = route.request
        if urlsplit(request.url).scheme.lower() in LOCAL_SCHEMES:
            await route.fallback()
            return
        try:
            await self.vet(request.url)
        except BlockedAddressError as exc:
            self.refusals.append(Refusal(request.url, str(exc), _is_main_navigation(request)))
            await route.abort(REFUSED)
            return
        except FetchError:
            await route.abort("namenotresolved")  # the browser's own lookup would fail alike
            return
        await route.fallback()  # other handlers (pages served from memory) still run

    async def _handle_web_socket(self, socket_route: WebSocketRoute) -> None:
        try:
            await self.vet(socket_route.url, WEBSOCKET_SCHEMES)
        except ReadermodeError as exc:
            self.refusals.append(Refusal(socket_route.url, str(exc)))
            await socket_route.close(code=1008, reason="blocked by the private-network guard")
            return
        socket_route.connect_to_server()

    def _on_request(self, request: Request) -> None:
        previous = request.redirected_from
        if previous is not None:  # a redirect hop: routes never see it
            self._watch(self._check_redirect(request, previous.url))

    def _on_response(self, response: Response) -> None:
        self._watch(self._check_server(response))

    def _watch(self, check: Coroutine[Any, Any, Refusal | None]) -> None:
        slot = len(self._caught)
        self._caught.append(None)

        async def record() -> None:
            refusal = await check
            if refusal is not None:
                self._caught[slot] = refusal
                self.refusals.append(refusal)

        task = asyncio.get_running_loop().create_task(record())
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _check_redirect(self, request: Request, origin: str) -> Refusal | None:
        if urlsplit(request.url).scheme.lower() in LOCAL_SCHEMES:
            return None
        note = f"a redirect from {origin} the browser followed itself"
        try:
            await self.vet(request.url, note=note)
        except BlockedAddressError as exc:
            return Refusal(request.url, str(exc), _is_main_navigation(request), prevented=False)
        except FetchError:
            pass  # the hop's own request fails the same way
        return None

    async def _check_server(self, response: Response) -> Refusal | None:
        """The address the browser really connected to (it resolved the host again)."""
        try:
            server = await asyncio.wait_for(response.server_addr(), BROWSER_CHECK_TIMEOUT_S)
        except (TimeoutError, PlaywrightError):
            return None
        if not server or not server.get("ipAddress"):
            return None  # fulfilled by a route, a cache or a data: URL: no connection was made
        address = str(server["ipAddress"]).strip("[]")
        reason = self.guard.policy(ipaddress.ip_address(address.split("%")[0]))
        if reason is None:
            return None
        host = urlsplit(response.url).hostname or address
        note = "the browser connected there after its own DNS lookup"
        message = blocked_message(response.url, host, address, reason, note)
        navigation = _is_main_navigation(response.request)
        return Refusal(response.url, message, navigation, prevented=False)

    def raise_if_target_blocked(self, url: str | None = None) -> None:
        """BlockedAddressError if the guard refused the main document (``url``, or any
        top-level navigation when None). Call it when navigation failed."""
        wanted = document_address(url) if url else None
        for refusal in self.refusals:
            if refusal.navigation and (wanted is None or document_address(refusal.url) == wanted):
                raise BlockedAddressError(refusal.message)

    async def verify(self, timeout: float = VERIFY_TIMEOUT_S) -> None:
        """Wait for the after-the-fact checks, then BlockedAddressError if any request reached
        a forbidden address (call after navigation and before returning a capture)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self._pending and loop.time() < end:
            await asyncio.wait(set(self._pending), timeout=end - loop.time())
        if self._pending:  # a hop whose host would not resolve in time: unknown is not safe
            raise BlockedAddressError(
                f"could not check {len(self._pending)} redirected or answered request(s) "
                f"within {timeout:g} s; {ALLOW_HINT}"
            )
        for caught in self._caught:
            if caught is not None:
                raise BlockedAddressError(caught.message)
        self.raise_if_target_blocked()


def _is_main_navigation(request: Request) -> bool:
    try:
        return request.is_navigation_request() and request.frame.parent_frame is None
    except PlaywrightError:  # a service worker's request has no frame
        return False


async def install_guard(
    context: BrowserContext, guard: AddressGuard | None = None, routes: RouteChain | None = None
) -> BrowserGuard:
    """Guard every request of ``context`` (navigations, subresources, WebSockets, redirect
    hops); install it *before* other route handlers so theirs run first."""
    browser_guard = BrowserGuard(guard or AddressGuard())
    await browser_guard.install(context, routes)
    return browser_guard
