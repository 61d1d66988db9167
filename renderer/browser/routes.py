"""One Playwright route per context, installed when the page pool opens it, with the handlers
of the capture that gets the context chained behind it.

Registering a route is a round trip to the browser (about 7 ms a route on the article
benchmark); a capture needs four or five. The pool installs this one route on its spare
contexts ahead of time, and each capture adds its handlers here, which costs nothing. The
handlers run as Playwright runs its own: the newest first, each one answering the request
(``fulfill``, ``abort``, ``continue_``) or handing it on with ``fallback()``; after the last
one, the request goes on to any route registered on the context before this one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, cast
from urllib.parse import urldefrag, urlsplit, urlunsplit

from playwright.async_api import BrowserContext, Request, Route

Handler = Callable[[Route], Awaitable[None]]
REFUSED = "blockedbyclient"
"""The error our handlers refuse a request with (Chromium's ERR_BLOCKED_BY_CLIENT)."""

DEFAULT_PORTS = {"http": ":80", "https": ":443"}


def document_address(url: str) -> str:
    """``url`` as the browser writes it in the request for that document: no fragment, scheme
    and host in lower case, no default port, ``/`` for an empty path. A page served from
    memory at ``https://example.com`` is asked for as ``https://example.com/``: compared as
    given, the request was refused and the capture failed with ERR_ABORTED."""
    plain = urldefrag(url).url
    parts = urlsplit(plain)
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS:
        return plain
    netloc = parts.netloc.lower().removesuffix(DEFAULT_PORTS[scheme])
    return urlunsplit((scheme, netloc, parts.path or "/", parts.query, ""))


class RouteChain:
    """A capture's route handlers behind one route of its context."""

    def __init__(self) -> None:
        self._handlers: list[Handler] = []
        self._refusal_listeners: list[Callable[[Request], None]] = []

    async def install(self, context: BrowserContext) -> None:
        await context.route("**/*", self._dispatch)

    def add(self, handler: Handler) -> None:
        """Add ``handler`` in front: it runs before those added earlier, as with
        ``context.route``."""
        self._handlers.insert(0, handler)

    def on_refused(self, listener: Callable[[Request], None]) -> None:
        """Call ``listener`` with each request a handler refuses (``abort(REFUSED)``), as it
        refuses it: Chromium's report of the failure comes a round trip later."""
        self._refusal_listeners.append(listener)

    def refusing(self, request: Request) -> None:
        """Tell the listeners that a handler is refusing ``request`` (``_Link.abort``)."""
        for listener in self._refusal_listeners:
            listener(request)

    async def _dispatch(self, route: Route) -> None:
        await self.run(route, 0)

    async def run(self, route: Route, index: int) -> None:
        """``route`` through the handlers from ``index`` on; past the last, Playwright's own
        fallback (the routes registered before this chain, then the network)."""
        if index >= len(self._handlers):
            await route.fallback()
            return
        await self._handlers[index](cast(Route, _Link(route, self, index)))


class _Link:
    """The route as one handler of the chain sees it: ``fallback()`` hands the request to the
    next handler; everything else is the route itself."""

    def __init__(self, route: Route, chain: RouteChain, index: int) -> None:
        self._route = route
        self._chain = chain
        self._index = index

    def __getattr__(self, name: str) -> Any:
        return getattr(self._route, name)

    async def fallback(self) -> None:
        await self._chain.run(self._route, self._index + 1)

    async def abort(self, error_code: str | None = None) -> None:
        if error_code == REFUSED:
            self._chain.refusing(self._route.request)
        await self._route.abort(error_code)
