"""Rendering one page in a fresh browser context until it settles, then snapshotting it.

The phases, each in its own module: ``loading`` (routes and navigation), ``settle`` (quiet,
expand, scroll, images, snapshots until stable), ``snapshot`` (what ``snapshot.js`` reports),
``extras`` (Readability.js, Reader View, screenshot, MHTML). The whole capture shares one time
budget (``session.Deadline``): it ends with what it has when the budget runs out, and the
snapshot says so in ``settled_by`` and ``warnings``. A hard stop past the budget
(``HARD_STOP_GRACE_S``) backs that up, and a context that is slow to close is closed in the
background. What hostile pages do (dialogs, popups, redirect loops, huge responses, leaving for
another origin) is handled by ``PageDefences`` (``defences.py``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from playwright.async_api import BrowserContext, Page
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from extractor import (
    BudgetExceededError,
    EmptyInputError,
    InputError,
    NavigationError,
    PageSnapshot,
    ReadabilityResult,
    ReadermodeError,
    may_hold_noscript_page,
)
from renderer.browser.defences import PageDefences
from renderer.browser.extras import (
    EXTRA_MIN_S,
    run_readability,
    run_reader_view,
    save_mhtml,
    save_screenshot,
)
from renderer.browser.guard import VERIFY_TIMEOUT_S, BrowserGuard, install_guard
from renderer.browser.loading import (
    ServedDocument,
    navigate,
    route_documents_through_decoder,
    route_from_memory,
)
from renderer.browser.offline import refuse_static_requests
from renderer.browser.options import RenderOptions
from renderer.browser.pool import PagePool, Tab
from renderer.browser.scripted import run_steps
from renderer.browser.session import EXTRAS_GRACE_S, Deadline, PageRequest, PageSession
from renderer.browser.settle import settle, until_stable
from renderer.browser.skipped import skip_unneeded_requests
from renderer.browser.snapshot import snapshot_warnings

EXTRAS = 3
"""Reader View, screenshot, MHTML: each may take ``EXTRA_MIN_S`` even once the grace is spent."""
CLOSE_MARGIN_S = 2.0
"""For what follows the extras: building the snapshot, handing the context to be closed."""
HARD_STOP_GRACE_S = EXTRAS_GRACE_S + EXTRAS * EXTRA_MIN_S + VERIFY_TIMEOUT_S + CLOSE_MARGIN_S
"""The capture is cancelled this long after its budget, whatever it waits for. Every wait is
bounded by the budget, except what this sums: the extras' shared grace, each extra's minimum,
and the private-network guard's last check (``BrowserGuard.verify``)."""


SnapshotHook = Callable[[PageSnapshot], None]
"""Told of the settled page's snapshot (no Readability.js result yet) as soon as it is taken,
while the capture goes on in the page: the API reads its extraction ahead meanwhile."""


async def render_page(
    pool: PagePool,
    request: PageRequest,
    options: RenderOptions,
    on_snapshot: SnapshotHook | None = None,
) -> PageSnapshot:
    """Load, settle and snapshot one page in a fresh context of ``pool`` (closed whatever
    happens). ``on_snapshot`` is told of the settled snapshot before Readability.js's run on
    it ends, which then goes on in the page's next task (``settle.until_stable``'s ``ahead``).

    Returns within the budget (plus ``HARD_STOP_GRACE_S`` at worst) whatever the page does. A
    page whose browser side fails (its main thread frozen, its tab crashed, the hard stop) is
    read from the document as served, when one was, flagged partial with the reason.
    """
    served = ServedDocument()
    try:
        return await asyncio.wait_for(
            _render_page(pool, request, options, served, on_snapshot),
            timeout=options.budget + HARD_STOP_GRACE_S,
        )
    except TimeoutError as exc:
        reason = f"the page held the capture past its {options.budget:g} s budget"
        fallback = served_snapshot(request, served, reason)
        if fallback is None:
            raise BudgetExceededError(f"{request.url} {reason}") from exc
        return fallback


def served_snapshot(
    request: PageRequest,
    served: ServedDocument,
    reason: str,
    session: PageSession | None = None,
) -> PageSnapshot | None:
    """A snapshot that hands the extractor the served document alone (``html`` is empty), or
    None when nothing was served. Only a decoded 200 answer is kept in ``served``."""
    if not served.text:
        return None
    warnings = list(session.warnings) if session is not None else []
    warnings.append(f"partial: {reason}; the document as served was read instead")
    timings = dict(session.timings) if session is not None else {}
    if session is not None:
        timings["total"] = round(time.monotonic() - session.started, 3)
    return PageSnapshot(
        html="",
        url=request.url,
        final_url=request.url,
        status=200,
        timings=timings,
        warnings=tuple(warnings),
        settled_by="served",
        source_html=served.text,
    )


@dataclass
class _Capture:
    """What one capture holds while it runs: its context, page, guard and served document."""

    context: BrowserContext
    page: Page
    session: PageSession
    defences: PageDefences
    guard: BrowserGuard | None
    served: ServedDocument
    loaded: Callable[[], None]
    """Called once the page has loaded: the pool opens the next capture's context then."""


async def _render_page(
    pool: PagePool,
    request: PageRequest,
    options: RenderOptions,
    served: ServedDocument,
    on_snapshot: SnapshotHook | None,
) -> PageSnapshot:
    async with pool.tab() as tab:
        deadline = Deadline(options.budget)
        capture = await _open(tab, request, options, deadline, served, pool.prepare_spares)
        try:
            return await _capture(capture, request, options, on_snapshot)
        except NavigationError:
            crashed = "the browser tab crashed"
            if capture.defences.crashed and (
                fallback := served_snapshot(request, served, crashed, capture.session)
            ):
                return fallback
            raise


async def _capture(
    capture: _Capture,
    request: PageRequest,
    options: RenderOptions,
    on_snapshot: SnapshotHook | None,
) -> PageSnapshot:
    session = capture.session
    status = await _load(capture, request, options)
    capture.loaded()
    if options.wait_for:
        await _wait_for_selector(session, options.wait_for)
    if options.actions:
        await run_steps(session, options.actions)
    await settle(session, options)
    snap, settled_by = await until_stable(session, options, ahead=on_snapshot is not None)
    if snap is None and capture.defences.failure is None:
        frozen = f"the page's main thread did not answer within the {options.budget:g} s budget"
        if fallback := served_snapshot(request, capture.served, frozen, session):
            return fallback
    _check_snapshot(capture, snap, request, options)
    assert snap is not None  # _check_snapshot raised otherwise
    session.warnings.extend(snapshot_warnings(snap, options, request.url))
    if session.stalled:
        session.warnings.append("partial: the page did not finish loading (no DOMContentLoaded)")
    elif session.navigation_refused:
        session.warnings.append(
            "partial: the page began a navigation of its own, refused, which stopped its parsing"
        )
    if settled_by == "budget":
        session.warnings.append(
            f"partial: the page was still changing when the {options.budget:g} s budget ran out"
        )
    # the document read: page.url already shows a refused navigation's target
    final_url = snap.get("url") or capture.page.url
    source_html = _served_to_compare(capture, session)
    if on_snapshot is not None:
        on_snapshot(
            PageSnapshot(
                html=snap["html"], url=request.url, final_url=final_url, source_html=source_html
            )
        )
    readability, reader_view = await _after_snapshot(
        capture, snap["html"], options, snap.get("readability")
    )
    session.timings["total"] = round(time.monotonic() - session.started, 3)
    return PageSnapshot(
        html=snap["html"],
        url=request.url,
        final_url=final_url,
        status=status,
        readability=readability,
        timings=session.timings,
        warnings=tuple(session.warnings),
        settled_by=settled_by,
        reader_view=reader_view,
        source_html=source_html,
    )


def _served_to_compare(capture: _Capture, session: PageSession) -> str | None:
    """The served document, for the extractor to read too and keep the larger reading, where
    the render may lack what it holds: what the parser did not reach (stalled, or stopped by a
    refused navigation), or a page kept in ``<noscript>``, which scripts hide."""
    served = capture.served.text
    if served is None:
        return None
    if session.stalled or session.navigation_refused or may_hold_noscript_page(served):
        return served
    return None


async def _wait_for_selector(session: PageSession, selector: str) -> None:
    """Wait (within the settle time) until ``selector`` matches an element of the page."""
    timeout_ms = max(1.0, session.deadline.settle_remaining() * 1000)
    try:
        await session.page.wait_for_selector(selector, state="attached", timeout=timeout_ms)
    except PlaywrightTimeoutError:
        session.warnings.append(f"partial: {selector!r} did not appear within the budget")
    except PlaywrightError as exc:
        if "selector" in str(exc).lower() or "unexpected token" in str(exc).lower():
            raise InputError(f"wait_for: not a CSS selector: {selector!r}") from exc
        raise


async def _open(
    tab: Tab,
    request: PageRequest,
    options: RenderOptions,
    deadline: Deadline,
    served: ServedDocument,
    loaded: Callable[[], None],
) -> _Capture:
    """Routes, guard and defences on a fresh tab of the pool (its init scripts are in)."""
    context, page = tab.context, tab.page
    # Route handlers (``routes.RouteChain``) run newest first: defences, then the page from memory, then the
    # network guard, then the document decoder: bytes served from memory never count as
    # a network request, and the guard vets a document before the decoder fetches it.
    # The decoder runs only once the page navigates, after ``defences`` below exists.
    defences: PageDefences | None = None

    def fail(error: ReadermodeError) -> None:
        assert defences is not None  # no navigation before the defences are installed
        defences.fail(error)

    routes = tab.routes  # installed with the tab: adding a handler costs no round trip
    route_documents_through_decoder(routes, request, options, deadline, fail, served)
    guard = await install_guard(context, routes=routes) if options.block_private else None
    route_from_memory(routes, request, options.offline, served)
    defences = PageDefences(context, page, options, request.url)
    defences.install(routes, tab.network)  # its route runs before route_from_memory's
    if request.body is not None and options.offline:
        defences.document_from_memory(len(request.body), tab.network)
        await refuse_static_requests(tab.network, page)
    session = PageSession(page, deadline, defences, tab.network.session)
    session.network.answers_nothing = options.offline  # every request but the page is refused
    routes.on_refused(session.network.refused)
    skip_unneeded_requests(routes, session, options)  # newest: runs before the others
    return _Capture(context, page, session, defences, guard, served, loaded)


async def _load(capture: _Capture, request: PageRequest, options: RenderOptions) -> int | None:
    """Navigate; a refused target is the guard's error, not the navigation's."""
    try:
        status = await navigate(capture.session, request.url, options)
    except ReadermodeError:
        if capture.guard is not None:
            capture.guard.raise_if_target_blocked(request.url)
        raise
    if capture.guard is not None:
        await capture.guard.verify()  # a redirect into a private network fails here
    capture.defences.loaded()
    return status


def _check_snapshot(
    capture: _Capture, snap: dict[str, object] | None, request: PageRequest, options: RenderOptions
) -> None:
    """The errors a settled page can still end in: a defence tripped, an error page, no
    snapshot at all, an empty document."""
    capture.defences.check()
    if capture.page.url.startswith("chrome-error:"):
        raise NavigationError(f"{request.url} navigated to a page the browser could not load")
    if snap is None:
        raise BudgetExceededError(
            f"no snapshot of {request.url} within the {options.budget:g} s budget"
        )
    if capture.defences.main_document_bytes == 0:
        raise EmptyInputError(f"{request.url} answered with an empty page (0 bytes)")


async def _after_snapshot(
    capture: _Capture, html: str, options: RenderOptions, done: dict[str, Any] | str | None
) -> tuple[ReadabilityResult | None, ReadabilityResult | None]:
    """Readability.js on the snapshot (``done``: already run, or held, in the snapshot's call), then the
    extras asked for, then the guard's last word."""
    session = capture.session
    problems: list[str | None] = []
    readability = reader_view = None
    if options.readability_js:
        readability, problem = await run_readability(session, html, done)
        problems.append(problem)
    if options.reader_view:
        reader_view, problem = await run_reader_view(session)
        problems.append(problem)
    if options.screenshot:
        problems.append(await save_screenshot(capture.page, options.screenshot, session.deadline))
    if options.mhtml:
        problems.append(
            await save_mhtml(capture.context, capture.page, options.mhtml, session.deadline)
        )
    session.warnings.extend(problem for problem in problems if problem)
    if capture.guard is not None:
        await capture.guard.verify()
    session.warnings.extend(capture.defences.warnings())
    return readability, reader_view
