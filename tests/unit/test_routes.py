"""The route chain (renderer/browser/routes.py): a capture's handlers behind one route of its
context run as Playwright runs its own, the newest first, each answering or handing on."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from playwright.async_api import Route

from renderer.browser.routes import RouteChain, document_address


class _Route:
    """What the chain needs of Playwright's route: the request, an answer, a fallback."""

    def __init__(self) -> None:
        self.request = "GET https://example.com/"
        self.events: list[str] = []

    async def abort(self, reason: str = "failed") -> None:
        self.events.append(f"abort:{reason}")

    async def fallback(self) -> None:
        self.events.append("playwright-fallback")


def _handler(name: str, events: list[str], answer: bool) -> Any:
    async def handle(route: Route) -> None:
        events.append(f"{name} saw {route.request}")
        if answer:
            await route.abort("blockedbyclient")
        else:
            await route.fallback()

    return handle


def _run(chain: RouteChain, route: _Route) -> None:
    # on a thread of its own: pytest-playwright may keep an event loop in the main thread
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, chain.run(route, 0)).result(timeout=60)  # type: ignore[arg-type]


def test_handlers_run_newest_first_and_past_the_last_go_to_playwright() -> None:
    route = _Route()
    chain = RouteChain()
    chain.add(_handler("first added", route.events, answer=False))
    chain.add(_handler("last added", route.events, answer=False))
    _run(chain, route)
    assert route.events == [
        "last added saw GET https://example.com/",
        "first added saw GET https://example.com/",
        "playwright-fallback",
    ]


def test_a_handler_that_answers_ends_the_chain() -> None:
    route = _Route()
    chain = RouteChain()
    chain.add(_handler("older", route.events, answer=False))
    chain.add(_handler("answering", route.events, answer=True))
    _run(chain, route)
    assert route.events == ["answering saw GET https://example.com/", "abort:blockedbyclient"]


def test_an_empty_chain_hands_every_request_on() -> None:
    route = _Route()
    _run(RouteChain(), route)
    assert route.events == ["playwright-fallback"]


@pytest.mark.parametrize(
    ("given", "requested"),
    [
        ("https://www.gymshark.com", "https://www.gymshark.com/"),
        ("HTTP://Example.COM:80/a?b=1#top", "http://example.com/a?b=1"),
        ("https://example.com:443", "https://example.com/"),
        ("https://example.com:8443/x", "https://example.com:8443/x"),
        ("http://[::1]:8080", "http://[::1]:8080/"),
        ("about:blank", "about:blank"),
    ],
)
def test_a_document_address_is_written_as_the_browser_requests_it(
    given: str, requested: str
) -> None:
    assert document_address(given) == requested


def test_a_refusal_is_told_to_listeners_before_the_route_is_aborted() -> None:
    route = _Route()
    chain = RouteChain()
    chain.on_refused(lambda request: route.events.append(f"refused {request}"))
    chain.add(_handler("tracker filter", route.events, answer=True))
    _run(chain, route)
    assert route.events == [
        "tracker filter saw GET https://example.com/",
        "refused GET https://example.com/",
        "abort:blockedbyclient",
    ]


def test_other_aborts_are_not_refusals() -> None:
    route = _Route()
    chain = RouteChain()
    chain.on_refused(lambda request: route.events.append(f"refused {request}"))

    async def unresolved(link: Route) -> None:
        await link.abort("namenotresolved")

    chain.add(unresolved)
    _run(chain, route)
    assert route.events == ["abort:namenotresolved"]
