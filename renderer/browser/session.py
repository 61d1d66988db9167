"""One capture's clock and page: the time budget (``Deadline``), the requests in flight, and
``PageSession``, through which every call into the page goes, bounded by the budget.

Every wait is bounded by what is left of the budget and every call into the page goes through
``asyncio.wait_for``, so a page whose main thread is stuck cannot hold the capture past it.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any, Literal

from playwright.async_api import CDPSession, Page, Request
from playwright.async_api import Error as PlaywrightError

from renderer.browser.defences import PageDefences
from renderer.browser.inpage import MISSING, call_expression, source_expression
from renderer.browser.options import DOM_QUIET_MS, IDLE_QUIET_MS, MAX_REVEAL, NETWORK_QUIET_MS

POLL_S = 0.05
"""How often the settle loop looks at the network and the DOM again."""
INFLIGHT_POLL_S = 0.01
"""How long the wait for a quiet network waits at most, while requests are in flight, before
it looks again (it wakes as soon as the last one ends)."""
SNAPSHOT_RESERVE_S = 3.0
SNAPSHOT_RESERVE_SHARE = 0.25
"""Kept back from settling for the snapshot and Readability.js (measured: 0.1-1 s each on the
article benchmark; pages that spent the whole budget settling ended with no result at all)."""
EXTRAS_GRACE_S = 5.0
"""How far past the budget the extras a caller asked for (Reader View, screenshot, MHTML
archive), all of them together, may run: they start only once the content is read, so a slow
page must not cost the caller the extras it wanted, nor hold the capture open for long."""


class Deadline:
    """What is left of the capture's time budget, of the part of it for settling, and of the
    extras' grace after it."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self.clock = clock  # injectable, so tests can make time pass without waiting
        self.end = clock() + seconds
        # Waiting for the page to settle may not eat the time a snapshot (and Readability.js)
        # needs: a slow page then ends with a partial result instead of none.
        reserve = min(max(SNAPSHOT_RESERVE_S, SNAPSHOT_RESERVE_SHARE * seconds), seconds / 2)
        self.settle_end = self.end - reserve
        self.extras_end = self.end + EXTRAS_GRACE_S

    def remaining(self) -> float:
        return max(0.0, self.end - self.clock())

    def settle_remaining(self) -> float:
        return max(0.0, self.settle_end - self.clock())

    def extras_remaining(self) -> float:
        """Time left for the extras: the budget plus ``EXTRAS_GRACE_S``, shared by all."""
        return max(0.0, self.extras_end - self.clock())

    def expired(self) -> bool:
        return self.remaining() <= 0


@dataclass(frozen=True)
class PageRequest:
    """What to load: a URL, optionally with the page's bytes served from memory at that URL."""

    url: str
    body: bytes | None = None


REFUSED_BY_US = "ERR_BLOCKED_BY_CLIENT"
"""What Chromium reports for a request a route of ours aborted (a font, a tracker, anything
when offline): the only extension-like blocker in our browser is the capture itself."""
REFUSED_IN_BROWSER = "inspector"
"""What Playwright reports for a request Chromium refused on the blocked URL patterns of our
CDP session (``offline.refuse_static_requests``)."""


def refused_by_us(request: Request) -> bool:
    """Whether ``request`` failed because the capture refused it, in a route or in Chromium."""
    failure = request.failure or ""
    return REFUSED_BY_US in failure or failure == REFUSED_IN_BROWSER


@dataclass
class NetworkActivity:
    """Requests in flight, to tell when the network has gone quiet.

    A request our own routes refused is no activity: it brings nothing into the page, and its
    start is not counted once it is refused (fonts are asked for when the page is first laid
    out, just after it loaded, and their refusals held every capture for a quiet window). A
    route of ours says so when it refuses (``refused``), before Chromium reports the failure:
    that report came 10 to 30 ms later, behind the other requests' events.

    ``answers_nothing``: offline, where every request but the page's own document is refused,
    nothing in flight means nothing more can arrive: the network is quiet for good then, with
    no window to wait out after the document's last byte (with the load-event wake, the quiet
    phase went from 47 to 26 ms a page on the article benchmark). What a refusal sets off in
    the page is the page's own work, which its in-page state reports (scheduled timers, DOM
    changes)."""

    inflight: set[Request] = field(default_factory=set)
    answers_nothing: bool = False
    _events: list[tuple[float, Request]] = field(default_factory=list)
    _refused: set[Request] = field(default_factory=set)
    _since: float = field(default_factory=time.monotonic)
    _emptied: asyncio.Event = field(default_factory=asyncio.Event)

    def attach(self, page: Page) -> None:
        page.on("request", self._started)
        page.on("requestfinished", self._ended)
        page.on("requestfailed", self._failed)

    @property
    def last_change(self) -> float:
        """When a request last started or ended, refused ones left out (or when this began)."""
        for moment, request in reversed(self._events):
            if request not in self._refused:
                return moment
        return self._since

    def refused(self, request: Request) -> None:
        """A route of ours refused ``request``: it is no activity, whenever it is reported."""
        self._refused.add(request)
        self._discard(request)

    async def wait_emptied(self, timeout: float) -> None:
        """Until no request is in flight, at most ``timeout`` seconds."""
        if self.inflight:
            with suppress(TimeoutError):
                await asyncio.wait_for(self._emptied.wait(), timeout)

    def _started(self, request: Request) -> None:
        if request in self._refused:  # refused before its start was reported
            return
        self.inflight.add(request)
        self._emptied.clear()
        self._events.append((time.monotonic(), request))

    def _ended(self, request: Request) -> None:
        self._discard(request)
        self._events.append((time.monotonic(), request))

    def _failed(self, request: Request) -> None:
        if refused_by_us(request):
            self.refused(request)
        else:
            self._ended(request)

    def _discard(self, request: Request) -> None:
        self.inflight.discard(request)
        if not self.inflight:
            self._emptied.set()

    def quiet_for(self) -> float:
        """Seconds since a request that could bring something last started or ended (0 while
        one is in flight; forever, offline, once none is: ``answers_nothing``)."""
        if self.inflight:
            return 0.0
        return math.inf if self.answers_nothing else time.monotonic() - self.last_change


def awaited_timers(state: dict[str, Any]) -> int:
    """The pending timers (``quiet``) worth waiting for: all of them while the page has no
    article yet, only the short ones once it has (a long one is a third party's fallback far
    more often than the page's text arriving)."""
    timers = int(state.get("timers") or 0)
    if state.get("hasArticle"):
        timers -= int(state.get("longTimers") or 0)
    return timers


class PageSession:
    """One capture's page, clock, defences and notes (timings, warnings)."""

    def __init__(
        self,
        page: Page,
        deadline: Deadline,
        defences: PageDefences,
        cdp: CDPSession | None = None,
    ) -> None:
        self.page = page
        self.cdp = cdp
        """The tab's CDP session, which our in-page calls go through (``_evaluate``)."""
        self.deadline = deadline
        self.defences = defences
        self.network = NetworkActivity()
        self.network.attach(page)
        self.timings: dict[str, float] = {}
        self.warnings: list[str] = []
        self.started = time.monotonic()
        self.dom_loaded = False
        self._dom_loaded_event = False  # the lifecycle event itself, not the readyState probe
        self.navigation_refused = False
        page.on("domcontentloaded", self._dom_loaded)
        self._loaded = asyncio.Event()
        page.on("load", lambda _page: self._loaded.set())
        self._first_navigation: Request | None = None
        page.on("request", self._request_started)
        page.on("requestfailed", self._request_failed)

    def _dom_loaded(self, _page: Page) -> None:
        self.dom_loaded = self._dom_loaded_event = True

    def _main_navigation(self, request: Request) -> bool:
        try:
            return request.is_navigation_request() and request.frame == self.page.main_frame
        except PlaywrightError:
            return False  # a request with no frame (a service worker's)

    def _request_started(self, request: Request) -> None:
        if self._first_navigation is None and self._main_navigation(request):
            self._first_navigation = request

    def _request_failed(self, request: Request) -> None:
        """A navigation of the main frame, after the one that brought the page, failed (offline,
        or refused by the defences) before DOMContentLoaded: Chromium stopped parsing the page
        where it began (one started later, a download on ``load``, cut nothing short)."""
        if (
            not self._dom_loaded_event
            and request is not self._first_navigation
            and self._main_navigation(request)
        ):
            self.navigation_refused = True

    @property
    def stalled(self) -> bool:
        """The document never reached DOMContentLoaded (its parser stopped, or its body never
        ended): what the DOM holds may be a part of the page only."""
        return not self.dom_loaded

    def mark(self, name: str, since: float) -> None:
        self.timings[name] = round(time.monotonic() - since, 3)

    async def evaluate(
        self, expression: str, arg: Any = None, *, cap: float = 10.0, settling: bool = False
    ) -> Any:
        """Evaluate in the page, bounded by the budget (and ``cap``) even if the page hangs.
        ``settling``: bounded by the settle part of the budget, so a slow settle step cannot
        eat the time kept for the snapshot."""
        self.defences.check()
        left = self.deadline.settle_remaining() if settling else self.deadline.remaining()
        timeout = min(cap, left)
        if timeout <= 0:
            raise TimeoutError("budget spent")
        return await asyncio.wait_for(self._evaluate(expression, arg), timeout=timeout)

    async def _evaluate(self, expression: str, arg: Any) -> Any:
        """``expression`` (a function's source) called with ``arg`` in the page's main world:
        through the tab's CDP session when it has one. Playwright's ``evaluate`` sets up its
        own script in every new document on its first call (about 4 ms of the first call
        after a load) and serialises both ways; ``Runtime.evaluate`` does neither, and our
        functions take and return plain JSON."""
        if self.cdp is None:
            return await self.page.evaluate(expression, arg)
        reply = await self.defences.race(
            self.cdp.send(
                "Runtime.evaluate",
                {
                    "expression": f"({expression})({json.dumps(arg)})",
                    "returnByValue": True,
                    "awaitPromise": True,
                    "userGesture": True,  # as Playwright's evaluate: opening a control may need it
                },
            )
        )
        if "exceptionDetails" in reply:
            details = reply["exceptionDetails"]
            thrown = details.get("exception", {}).get("description") or details.get("text")
            raise PlaywrightError(f"the page's call failed: {thrown}")
        return reply.get("result", {}).get("value")

    async def call(
        self, name: str, arg: Any = None, *, cap: float = 10.0, settling: bool = False
    ) -> Any:
        """Call our in-page function ``name`` (``inpage.py``) like ``evaluate``; with its whole
        source where the document lacks our functions."""
        result = await self.evaluate(call_expression(name), arg, cap=cap, settling=settling)
        if result == MISSING:
            result = await self.evaluate(source_expression(name), arg, cap=cap, settling=settling)
        return result

    async def settle_action(self, action: str, **extra: Any) -> dict[str, Any]:
        """One step of ``settle.js`` (scroll, reveal, expand ...); a failed step is a warning."""
        try:
            result = await self.call(
                "settle",
                {"action": action, "maxReveal": MAX_REVEAL, "idleMs": IDLE_QUIET_MS, **extra},
                settling=True,
            )
        except (TimeoutError, PlaywrightError) as exc:
            self.warnings.append(f"{action}: {type(exc).__name__}")
            return {}
        return result or {}

    async def wait_quiet(self, cap: float) -> None:
        """The network quiet, then the DOM; a look at the page that showed it idle answers
        both (the DOM's wait would only ask again)."""
        if await self.wait_network_quiet(cap) != "idle":
            await self.wait_dom_quiet(cap)

    async def wait_network_quiet(self, cap: float) -> Literal["window", "idle"] | None:
        """No request for ``NETWORK_QUIET_MS`` ("window"), or for ``IDLE_QUIET_MS`` on an idle
        page ("idle", ``is_idle``); None when ``cap`` or the settle time ran out first."""
        end = time.monotonic() + min(cap, self.deadline.settle_remaining())
        while time.monotonic() < end:
            quiet_ms = self.network.quiet_for() * 1000
            if quiet_ms >= NETWORK_QUIET_MS:
                return "window"
            if self.network.inflight:
                # most often a font or a tracker, refused by a route of ours within
                # milliseconds, which then counts as no activity at all
                await self.network.wait_emptied(INFLIGHT_POLL_S)
                continue
            if quiet_ms < IDLE_QUIET_MS:  # not a moment before the idle window could end
                await asyncio.sleep(max(0.005, (IDLE_QUIET_MS - quiet_ms) / 1000))
                continue
            state = await self._quiet_state()
            if self._idle(state):
                return "idle"
            await self._until_loaded_or(state, self._until_idle(state))
        return None

    async def wait_dom_quiet(self, cap: float) -> bool:
        """No DOM change for ``DOM_QUIET_MS`` and no short timer pending, or an idle page
        (``is_idle``)."""
        end = time.monotonic() + min(cap, self.deadline.settle_remaining())
        while time.monotonic() < end:
            state = await self._quiet_state()
            if self._idle(state) or (
                state.get("sinceMutation", 0) >= DOM_QUIET_MS
                and not awaited_timers(state)
                and self.network.quiet_for() * 1000 >= NETWORK_QUIET_MS / 2
            ):
                return True
            await self._until_loaded_or(state, min(POLL_S * 2, self._until_idle(state)))
        return False

    async def _quiet_state(self) -> dict[str, Any]:
        """The page's ``quiet`` state; on a page with nothing scheduled whose DOM changed in the
        last ``IDLE_QUIET_MS``, after two rendering frames, or at once where nothing observes
        what a frame reports (``settled``, in the same call), which may show it idle sooner
        than that window."""
        return await self.settle_action("settled")

    async def _until_loaded_or(self, state: dict[str, Any], seconds: float) -> None:
        """Wait ``seconds``, or less when ``state`` shows the document still loading and its
        load event comes first: a page complete at load is asked again at once, rather than
        a poll later (most pages are idle as soon as their load handlers have run)."""
        if state.get("readyState") in ("loading", "interactive") and not self._loaded.is_set():
            with suppress(TimeoutError):
                await asyncio.wait_for(self._loaded.wait(), seconds)
        else:
            await asyncio.sleep(seconds)

    def _until_idle(self, state: dict[str, Any]) -> float:
        """For a page with nothing scheduled (``quiet``), how long until its DOM and network
        have been quiet for ``IDLE_QUIET_MS``; ``POLL_S`` for any other page."""
        if not state.get("idle"):
            return POLL_S
        since_ms = min(float(state.get("sinceMutation") or 0), self.network.quiet_for() * 1000)
        return max(0.005, min(POLL_S, (IDLE_QUIET_MS - since_ms) / 1000))

    async def pause(self, seconds: float) -> None:
        """Give the page ``seconds`` to change, or only ``IDLE_QUIET_MS`` if it is idle by then:
        an idle page has nothing scheduled that could change it."""
        await asyncio.sleep(IDLE_QUIET_MS / 1000)
        if seconds > IDLE_QUIET_MS / 1000 and not self._idle(await self.settle_action("quiet")):
            await asyncio.sleep(seconds - IDLE_QUIET_MS / 1000)

    def is_idle(self, state: dict[str, Any]) -> bool:
        """The page's evidence (``quiet``) that it has nothing left to do: nothing scheduled,
        every document loaded, the network quiet for ``IDLE_QUIET_MS``, and the DOM too, or
        unchanged since ``settled`` found it quiet with nothing scheduled (``framesQuiet``)."""
        return (
            bool(state.get("idle"))
            and (state.get("sinceMutation", 0) >= IDLE_QUIET_MS or bool(state.get("framesQuiet")))
            and self.network.quiet_for() * 1000 >= IDLE_QUIET_MS
        )

    def _idle(self, state: dict[str, Any]) -> bool:
        """``is_idle``; each wait it ends early is counted in ``timings["idle_waits"]``."""
        idle = self.is_idle(state)
        if idle:
            self.timings["idle_waits"] = self.timings.get("idle_waits", 0) + 1
        return idle
