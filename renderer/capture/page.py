"""Rendering one page in a fresh browser context until it settles, then snapshotting it.

The whole capture shares one time budget (``Deadline``). Every wait is bounded by what is left
of it, and every call into the page goes through ``asyncio.wait_for``, so a page whose main
thread is stuck cannot hold the capture past its budget: it ends with what it has, and the
snapshot says so in ``settled_by`` and ``warnings``. A hard stop a little past the budget
(``HARD_STOP_GRACE_S``) backs that up, and a context that is slow to close is closed in the
background. What hostile pages do (dialogs, popups, redirect loops, huge responses, leaving
for another origin) is handled by ``PageDefences`` (``_defences.py``); the snapshot's size is
capped by ``RenderOptions.max_elements`` and ``max_dom_bytes``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import Message
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag

from playwright.async_api import BrowserContext, Page, Request, Route
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from extractor import (
    DEFAULT_STAGES,
    FEED_MARK,
    HIDDEN_MARK,
    BudgetExceededError,
    EmptyInputError,
    ExtractOptions,
    FetchError,
    HTTPStatusError,
    InputTooLargeError,
    LimitExceededError,
    NavigationError,
    NotHTMLError,
    PageSnapshot,
    ReadabilityResult,
    ReadermodeError,
    decode_html,
    extract,
)
from renderer.capture.browser import BrowserHandle
from renderer.capture.browser_guard import install_guard
from renderer.capture.defences import PageDefences
from renderer.capture.options import (
    DOM_QUIET_MS,
    IMAGE_WAIT_S,
    MAX_REVEAL,
    NETWORK_QUIET_MS,
    SCROLL_PAUSE_MS,
    STABILITY_INTERVAL_S,
    RenderOptions,
)
from renderer.capture.readability import (
    ReadabilityUnavailable,
    parse_run,
    readability_expression,
    reader_view_options,
    run_options,
)

JS = Path(__file__).with_name("js")
HIDDEN_ATTRIBUTE = HIDDEN_MARK
FEED_ATTRIBUTE = FEED_MARK
MAX_SNAPSHOT_DEPTH = 500
"""Elements nested deeper are left out of the snapshot (their content is kept). The
extractor's text walk recurses once per level and meets Python's recursion limit (1,000) at
~990 levels; Chromium's HTML parser itself stops nesting at 512, only scripts go deeper."""
HARD_STOP_GRACE_S = 12.0
"""The capture is cancelled this long after its budget, whatever it waits for. Every wait is
already bounded by the budget; only the extras (screenshot, Reader View) may each run up to
5 s past it."""
POLL_S = 0.05
READABILITY_RESERVE_S = 1.5
"""The stability checks stop while this much is left for the Readability.js run."""
SNAPSHOT_RESERVE_S = 3.0
SNAPSHOT_RESERVE_SHARE = 0.25
"""Kept back from settling for the snapshot and Readability.js (measured: 0.1-1 s each on the
article benchmark; pages that spent the whole budget settling ended with no result at all)."""
FEED_GROWTH_STEPS = 3
"""A page still taller than it was this many scroll steps ago, when scrolling hit its cap, is
an endless feed ..."""
FEED_MIN_ITEMS = 10
"""... and a container that received at least this many new elements while we scrolled, some
in those last steps, is the feed itself."""
# Static stages only: the stability check must not depend on the Readability.js run it precedes.
_CHECK_OPTIONS = ExtractOptions(stages=DEFAULT_STAGES[1:])


@cache
def _script(name: str) -> str:
    return (JS / name).read_text(encoding="utf-8")


class Deadline:
    """What is left of the capture's time budget, and of the part of it for settling."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.end = time.monotonic() + seconds
        # Waiting for the page to settle may not eat the time a snapshot (and Readability.js)
        # needs: a slow page then ends with a partial result instead of none.
        reserve = min(max(SNAPSHOT_RESERVE_S, SNAPSHOT_RESERVE_SHARE * seconds), seconds / 2)
        self.settle_end = self.end - reserve

    def remaining(self) -> float:
        return max(0.0, self.end - time.monotonic())

    def settle_remaining(self) -> float:
        return max(0.0, self.settle_end - time.monotonic())

    def expired(self) -> bool:
        return self.remaining() <= 0


@dataclass(frozen=True)
class PageRequest:
    """What to load: a URL, optionally with the page's bytes served from memory at that URL."""

    url: str
    body: bytes | None = None


@dataclass
class _Network:
    """Requests in flight, to tell when the network has gone quiet."""

    inflight: set[Request] = field(default_factory=set)
    last_change: float = field(default_factory=time.monotonic)

    def attach(self, page: Page) -> None:
        page.on("request", self._started)
        page.on("requestfinished", self._ended)
        page.on("requestfailed", self._ended)

    def _started(self, request: Request) -> None:
        self.inflight.add(request)
        self.last_change = time.monotonic()

    def _ended(self, request: Request) -> None:
        self.inflight.discard(request)
        self.last_change = time.monotonic()

    def quiet_for(self) -> float:
        return 0.0 if self.inflight else time.monotonic() - self.last_change


class _Session:
    """One capture's page, clock, defences and notes."""

    def __init__(self, page: Page, deadline: Deadline, defences: PageDefences) -> None:
        self.page = page
        self.deadline = deadline
        self.defences = defences
        self.network = _Network()
        self.network.attach(page)
        self.timings: dict[str, float] = {}
        self.warnings: list[str] = []
        self.started = time.monotonic()
        self.stalled = False  # never reached DOMContentLoaded

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
        return await asyncio.wait_for(self.page.evaluate(expression, arg), timeout=timeout)

    async def settle_action(self, action: str, **extra: Any) -> dict[str, Any]:
        try:
            result = await self.evaluate(
                _script("settle.js"),
                {"action": action, "maxReveal": MAX_REVEAL, **extra},
                settling=True,
            )
        except (TimeoutError, PlaywrightError) as exc:
            self.warnings.append(f"{action}: {type(exc).__name__}")
            return {}
        return result or {}

    async def wait_network_quiet(self, cap: float) -> bool:
        end = time.monotonic() + min(cap, self.deadline.settle_remaining())
        while time.monotonic() < end:
            if self.network.quiet_for() * 1000 >= NETWORK_QUIET_MS:
                return True
            await asyncio.sleep(POLL_S)
        return False

    async def wait_dom_quiet(self, cap: float) -> bool:
        end = time.monotonic() + min(cap, self.deadline.settle_remaining())
        while time.monotonic() < end:
            state = await self.settle_action("quiet")
            if (
                state.get("sinceMutation", 0) >= DOM_QUIET_MS
                and not state.get("timers")
                and self.network.quiet_for() * 1000 >= NETWORK_QUIET_MS / 2
            ):
                return True
            await asyncio.sleep(POLL_S * 2)
        return False


def _navigation_error(url: str, exc: PlaywrightError, options: RenderOptions) -> ReadermodeError:
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


@dataclass
class _ServedDocument:
    """The top-level document as handed to Chromium (decoded), for a render that stalls."""

    text: str | None = None


async def _route_from_memory(
    context: BrowserContext, request: PageRequest, offline: bool, served: _ServedDocument
) -> None:
    """Serve the page's own bytes at its URL; when offline, refuse every other request.

    The bytes are decoded the way the static path decodes them (BOM, <meta charset>,
    charset-normalizer) and served as UTF-8 with that charset in the header: served without
    one, Chromium guessed, and pages without <meta charset> came out garbled.
    """
    page_url = urldefrag(request.url).url
    body = request.body
    if body is not None:
        served.text = decode_html(body, max_bytes=max(len(body), 1)).text
        body = served.text.encode("utf-8")

    async def handle(route: Route) -> None:
        target = route.request
        if urldefrag(target.url).url == page_url and body is not None:
            await route.fulfill(
                status=200, body=body, headers={"Content-Type": "text/html; charset=utf-8"}
            )
        elif offline and target.is_navigation_request() and target.frame.parent_frame is None:
            # The page's script navigating away (a redirect, a consent bounce): stay on the
            # page. A refused navigation would replace it with Chromium's error page.
            await route.fulfill(status=204)
        elif offline:
            await route.abort("blockedbyclient")
        else:
            await route.fallback()  # to the private-network guard, when there is one

    if request.body is not None or offline:
        await context.route("**/*", handle)


DECODED_TYPES = ("text/html", "application/xhtml+xml")


async def _route_documents_through_decoder(
    context: BrowserContext,
    request: PageRequest,
    options: RenderOptions,
    deadline: Deadline,
    fail: Callable[[ReadermodeError], None],
    served: _ServedDocument,
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
        try:
            response = await route.fetch(
                max_redirects=0, timeout=max(1.0, deadline.settle_remaining()) * 1000
            )
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

    await context.route("**/*", handle)


async def _refuse_too_large(
    route: Route, fail: Callable[[ReadermodeError], None], size: int, limit: int
) -> None:
    fail(InputTooLargeError(size, limit, f"response from {route.request.url}"))
    await route.abort("blockedbyclient")


async def _navigate(session: _Session, url: str, options: RenderOptions) -> int | None:
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
        raise _navigation_error(url, exc, options) from exc
    try:
        await race(
            session.page.wait_for_load_state(
                "domcontentloaded", timeout=max(1.0, session.deadline.settle_remaining() * 1000)
            )
        )
    except PlaywrightTimeoutError:
        session.warnings.append("partial: the page did not finish loading (no DOMContentLoaded)")
        session.stalled = True
    except PlaywrightError as exc:
        raise _navigation_error(url, exc, options) from exc
    session.mark("navigate", started)
    if response is None:
        return None
    if response.status >= 400:
        raise HTTPStatusError(response.status, url, response.status_text)
    content_type = (
        (await response.all_headers())
        .get("content-type", "text/html")
        .split(";")[0]
        .strip()
        .lower()
    )
    if content_type and content_type not in (
        "text/html",
        "application/xhtml+xml",
        "text/plain",
        "application/xml",
        "text/xml",
    ):
        raise NotHTMLError(f"{url} is {content_type}, not HTML")
    return response.status


async def _scroll_through(session: _Session, options: RenderOptions) -> None:
    """Scroll window and inner scrollers in steps, then bring observed targets into view."""
    started = time.monotonic()
    end = started + min(options.scroll_time, session.deadline.settle_remaining() * 0.5)
    steps = 0
    heights: list[int] = []
    reached_end = False
    while steps < options.max_scroll_steps and time.monotonic() < end:
        result = await session.settle_action("step")
        steps += 1
        heights.append(int(result.get("height") or 0))
        await asyncio.sleep(SCROLL_PAUSE_MS / 1000)
        if not result.get("moved"):
            revealed = await session.settle_action("reveal")
            await asyncio.sleep(SCROLL_PAUSE_MS / 1000)
            if not revealed.get("revealed"):
                reached_end = True
                break
    session.timings["scroll_steps"] = steps
    if (
        not reached_end
        and len(heights) > FEED_GROWTH_STEPS
        and heights[-1] > heights[-1 - FEED_GROWTH_STEPS]
    ):
        marked = (
            await session.settle_action(
                "markFeeds",
                feedAttribute=FEED_ATTRIBUTE,
                minFeedItems=FEED_MIN_ITEMS,
                recentSteps=FEED_GROWTH_STEPS,
            )
        ).get("marked", 0)
        if marked:
            session.timings["feeds_marked"] = marked
            session.warnings.append(
                f"endless feed: {marked} container(s) still growing were left out"
            )
    await session.settle_action("top")
    session.mark("scroll", started)


async def _wait_images(session: _Session) -> None:
    started = time.monotonic()
    end = started + min(IMAGE_WAIT_S, session.deadline.settle_remaining())
    while time.monotonic() < end:
        if not (await session.settle_action("pendingImages")).get("pending"):
            break
        await asyncio.sleep(POLL_S * 2)
    session.mark("images", started)


async def _snapshot(session: _Session, options: RenderOptions) -> dict[str, Any]:
    return await session.evaluate(
        _script("snapshot.js"),
        {
            "hiddenAttribute": HIDDEN_ATTRIBUTE,
            "maxElements": options.max_elements,
            "maxBytes": options.max_dom_bytes,
            "maxDepth": MAX_SNAPSHOT_DEPTH,
        },
        cap=20.0,
    )


def _snapshot_limits(snap: dict[str, Any], options: RenderOptions, url: str) -> list[str]:
    """Warnings for a snapshot cut at a cap; LimitExceededError when it is over one anyway
    (the in-page walk failed and fell back to the whole page's markup)."""
    stats = snap.get("stats") or {}
    size = len(snap["html"].encode("utf-8", "surrogatepass"))
    if size > options.max_dom_bytes:
        raise LimitExceededError(
            "max_dom_bytes", options.max_dom_bytes, f"the snapshot of {url} has {size:,} bytes"
        )
    if not stats.get("truncated"):
        return []
    if stats.get("truncatedBy") == "bytes":
        return [f"partial: the snapshot stopped at max_dom_bytes={options.max_dom_bytes:,} bytes"]
    return [f"partial: the snapshot stopped at max_elements={options.max_elements:,} elements"]


def _check_text(html: str, url: str) -> str:
    try:
        return extract(PageSnapshot(html=html, url=url), options=_CHECK_OPTIONS).text
    except ReadermodeError:
        return ""


async def _until_stable(
    session: _Session, options: RenderOptions
) -> tuple[dict[str, Any] | None, str]:
    """Snapshot until two consecutive extractions agree or the budget runs out."""
    started = time.monotonic()
    previous_text: str | None = None
    snap: dict[str, Any] | None = None
    checks = 0
    reason = "budget"
    while True:
        try:
            latest = await _snapshot(session, options)
        except (TimeoutError, PlaywrightError) as exc:
            session.warnings.append(f"snapshot failed: {type(exc).__name__}")
            break
        snap = latest
        checks += 1
        if session.deadline.remaining() < READABILITY_RESERVE_S:
            break  # the snapshot took the time: no check (and no second snapshot) fits
        try:
            # Bounded like every wait: a huge snapshot can take seconds to extract. The thread
            # cannot be stopped, but the capture goes on without it.
            text = await asyncio.wait_for(
                asyncio.to_thread(_check_text, latest["html"], session.page.url),
                timeout=session.deadline.remaining(),
            )
        except TimeoutError:
            break
        if previous_text is not None and text == previous_text:
            reason = "stable"
            break
        previous_text = text
        if session.deadline.remaining() < STABILITY_INTERVAL_S + READABILITY_RESERVE_S:
            break
        await asyncio.sleep(STABILITY_INTERVAL_S)
        await session.wait_dom_quiet(cap=2.0)
    session.timings["stability_checks"] = checks
    session.mark("stability", started)
    return snap, reason


async def _readability(session: _Session, html: str) -> tuple[Any, str | None]:
    try:
        expression = readability_expression()
    except ReadabilityUnavailable as exc:
        return None, str(exc)
    started = time.monotonic()
    try:
        raw = await session.evaluate(
            expression, run_options(html, hidden_attribute=HIDDEN_ATTRIBUTE), cap=20.0
        )
    except (TimeoutError, PlaywrightError) as exc:
        return None, f"Readability.js did not finish: {type(exc).__name__}"
    session.mark("readability", started)
    run = parse_run(raw or {})
    if run.error:
        return run.result, f"Readability.js failed: {run.error}"
    return run.result, None


async def _reader_view(session: _Session) -> tuple[ReadabilityResult | None, str | None]:
    """Readability.js as Firefox Reader View runs it: a clone of the live document, no
    filtering of ours, ``charThreshold`` 500. Like the screenshot, it may run a little past the
    budget (it is an extra the caller asked for). A run that found no article still gives its
    ``readerable`` verdict, as a result whose ``content`` is None."""
    try:
        expression = readability_expression()
    except ReadabilityUnavailable as exc:
        return None, f"Reader View: {exc}"
    started = time.monotonic()
    try:
        raw = await asyncio.wait_for(
            session.page.evaluate(expression, reader_view_options()),
            timeout=min(20.0, session.deadline.remaining() + 5),
        )
    except (TimeoutError, PlaywrightError) as exc:
        return None, f"Reader View did not finish: {type(exc).__name__}"
    session.mark("reader_view", started)
    run = parse_run(raw or {})
    result = run.result or ReadabilityResult(content=None, readerable=run.readerable)
    if run.error:
        return result, f"Reader View failed: {run.error}"
    return result, None


async def _save_mhtml(
    context: BrowserContext, page: Page, path: str, deadline: Deadline
) -> str | None:
    """Chromium's own MHTML archive of the live page (CDP ``Page.captureSnapshot``): the page
    with its subresources in one file. Like the screenshot, an extra that may fail alone."""
    try:
        session = await context.new_cdp_session(page)
        result = await asyncio.wait_for(
            session.send("Page.captureSnapshot", {"format": "mhtml"}),
            timeout=max(1.0, deadline.remaining() + 5),
        )
        Path(path).write_text(result["data"], encoding="utf-8", newline="")
    except (TimeoutError, PlaywrightError, OSError, KeyError) as exc:
        return f"MHTML archive failed: {type(exc).__name__}"
    return None


async def render_page(
    handle: BrowserHandle, request: PageRequest, options: RenderOptions
) -> PageSnapshot:
    """Load, settle and snapshot one page in a fresh context (closed whatever happens).

    Returns within the budget (plus ``HARD_STOP_GRACE_S`` at worst) whatever the page does.
    """
    try:
        return await asyncio.wait_for(
            _render_page(handle, request, options), timeout=options.budget + HARD_STOP_GRACE_S
        )
    except TimeoutError as exc:
        raise BudgetExceededError(
            f"{request.url} held the capture past its {options.budget:g} s budget"
        ) from exc


async def _render_page(
    handle: BrowserHandle, request: PageRequest, options: RenderOptions
) -> PageSnapshot:
    deadline = Deadline(options.budget)
    context = await handle.new_context()
    try:
        for script in ("guard.js", "init.js", "observe.js"):
            await context.add_init_script(script=_script(script))
        # Route handlers run newest first: defences, then the page from memory, then the
        # network guard, then the document decoder: bytes served from memory never count as
        # a network request, and the guard vets a document before the decoder fetches it.
        # The decoder runs only once the page navigates, after ``defences`` below exists.
        served = _ServedDocument()
        await _route_documents_through_decoder(
            context, request, options, deadline, lambda error: defences.fail(error), served
        )
        network_guard = await install_guard(context) if options.block_private else None
        await _route_from_memory(context, request, options.offline, served)
        page = await context.new_page()
        defences = PageDefences(context, page, options, request.url)
        await defences.install()  # its route runs before _route_from_memory's (newest first)
        session = _Session(page, deadline, defences)
        try:
            status = await _navigate(session, request.url, options)
        except ReadermodeError:
            if network_guard is not None:
                network_guard.raise_if_target_blocked(request.url)
            raise
        if network_guard is not None:
            await network_guard.verify()  # a redirect into a private network fails here
        defences.loaded()
        started = time.monotonic()
        await session.wait_network_quiet(cap=5.0)
        await session.wait_dom_quiet(cap=5.0)  # waits out short pending timers too
        session.mark("quiet", started)
        if options.expand:
            started = time.monotonic()
            session.timings.update(
                {
                    f"expanded_{k}": v
                    for k, v in (await session.settle_action("expand")).items()
                    if isinstance(v, int) and v
                }
            )
            session.mark("expand", started)
        if options.scroll:
            await session.settle_action("eager")
            await _scroll_through(session, options)
            await session.wait_dom_quiet(cap=2.0)
        if options.expand:  # content that arrived while scrolling may hold more to open
            await session.settle_action("expand")
        await _wait_images(session)

        snap, settled_by = await _until_stable(session, options)
        defences.check()
        if page.url.startswith("chrome-error:"):
            raise NavigationError(f"{request.url} navigated to a page the browser could not load")
        if snap is None:
            raise BudgetExceededError(
                f"no snapshot of {request.url} within the {options.budget:g} s budget"
            )
        if defences.main_document_bytes == 0:
            raise EmptyInputError(f"{request.url} answered with an empty page (0 bytes)")
        session.warnings.extend(_snapshot_limits(snap, options, request.url))
        if settled_by == "budget":
            session.warnings.append(
                f"partial: the page was still changing when the {options.budget:g} s budget ran out"
            )

        result = None
        if options.readability_js:
            result, problem = await _readability(session, snap["html"])
            if problem:
                session.warnings.append(problem)
        reader_view = None
        if options.reader_view:
            reader_view, problem = await _reader_view(session)
            if problem:
                session.warnings.append(problem)
        if options.screenshot:
            try:
                await asyncio.wait_for(
                    page.screenshot(path=options.screenshot, full_page=True),
                    timeout=max(1.0, deadline.remaining() + 5),
                )
            except (TimeoutError, PlaywrightError) as exc:
                session.warnings.append(f"screenshot failed: {type(exc).__name__}")
        if options.mhtml:
            problem = await _save_mhtml(context, page, options.mhtml, deadline)
            if problem:
                session.warnings.append(problem)
        if network_guard is not None:
            await network_guard.verify()
        session.warnings.extend(defences.warnings())
        session.timings["total"] = round(time.monotonic() - session.started, 3)
        return PageSnapshot(
            html=snap["html"],
            url=request.url,
            # the document read: page.url already shows a refused navigation's target
            final_url=snap.get("url") or page.url,
            status=status,
            readability=result,
            timings=session.timings,
            warnings=tuple(session.warnings),
            settled_by=settled_by,
            reader_view=reader_view,
            source_html=served.text if session.stalled else None,
        )
    finally:
        await handle.dispose(context)
