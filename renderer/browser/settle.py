"""Settling a loaded page: waiting for the network and the DOM to go quiet, opening what is
folded away, scrolling so lazy loaders fire (and leaving endless feeds out), waiting for images,
then snapshotting until two consecutive extractions agree.

The settle part of the budget (``Deadline.settle_remaining``) bounds every step here, so the
snapshot and Readability.js always keep their share of the budget.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from playwright.async_api import Error as PlaywrightError

from extractor import (
    DEFAULT_STAGES,
    FEED_MARK,
    HIDDEN_MARK,
    ExtractOptions,
    PageSnapshot,
    ReadermodeError,
    extract,
)
from renderer.browser.options import (
    IDLE_QUIET_MS,
    IMAGE_WAIT_S,
    SCROLL_PAUSE_MS,
    STABILITY_INTERVAL_S,
    RenderOptions,
)
from renderer.browser.readability import run_options
from renderer.browser.session import POLL_S, PageSession
from renderer.browser.snapshot import take_first_snapshot, take_snapshot

READABILITY_RESERVE_S = 1.5
"""The stability checks stop while this much is left for the Readability.js run."""
MAX_SCROLL_SCALE = 8
"""Scroll steps double, up to this many times their size, while nothing reacts to them (no
DOM change, request or scheduled work in the two frames after the step). IntersectionObserver
targets jumped over are still brought into view by ``reveal`` at the end."""
STREAM_WAIT_S = 2.0
"""How long a scroll stopped at the bottom waits for the next part of a page still loading."""
FEED_GROWTH_STEPS = 3
"""A page still taller than it was this many scroll steps ago, when scrolling hit its cap, is
an endless feed ..."""
FEED_MIN_ITEMS = 10
"""... and a container that received at least this many new elements while we scrolled, some
in those last steps, is the feed itself."""
# Static stages only: the stability check must not depend on the Readability.js run it precedes.
_CHECK_OPTIONS = ExtractOptions(stages=DEFAULT_STAGES[1:])


async def settle(session: PageSession, options: RenderOptions) -> None:
    """Quiet, expand, scroll, expand again, images: everything before the snapshots. Expanding
    and lifting lazy loading are one call into the page (``prepare``), which also tells what
    is left to do: a page with nothing folded, nothing a scroll could wake and no image loading
    is ready for its snapshot after it."""
    started = time.monotonic()
    await session.wait_quiet(cap=5.0)  # the DOM's wait waits out short pending timers too
    session.mark("quiet", started)
    prepared: dict[str, Any] = {}
    if options.expand or options.scroll:
        started = time.monotonic()
        prepared = await session.settle_action(
            "prepare", expand=options.expand, eager=options.scroll
        )
        expanded = prepared.get("expanded") or {}
        session.timings.update(
            {f"expanded_{k}": v for k, v in expanded.items() if isinstance(v, int) and v}
        )
        session.mark("prepare", started)
    changed_by_scroll = (
        await _scroll_through(session, options, prepared) if options.scroll else False
    )
    if changed_by_scroll:  # what the scroll loaded may still be arriving
        started = time.monotonic()
        await session.wait_dom_quiet(cap=2.0)
        session.mark("scroll_quiet", started)
    if options.expand and (changed_by_scroll or _may_hold_more(prepared)):
        # content that arrived while scrolling, or after what was opened, may hold more to open
        started = time.monotonic()
        await session.settle_action("expand")
        session.mark("expand_again", started)
    if changed_by_scroll or _may_hold_more(prepared) or prepared.get("pending", 1):
        await _wait_images(session)


def _may_hold_more(prepared: dict[str, Any]) -> bool:
    """After ``prepare``: something was opened, or the page still has work scheduled (what it
    does may bring more to open), or the call failed (nothing is known)."""
    expanded = prepared.get("expanded") or {}
    opened = any(isinstance(v, int) and v for v in expanded.values())
    return opened or not prepared.get("still")


async def _scroll_through(
    session: PageSession, options: RenderOptions, state: dict[str, Any]
) -> bool:
    """Scroll window and inner scrollers in steps, then bring observed targets into view.
    Skipped on a page that nothing could make react (``_scroll_cannot_matter``, judged on
    ``state``, the page's ``quiet`` state after ``prepare``). Says whether the page may have
    changed: False when skipped, and when no step had a reaction, no target was brought into
    view and nothing arrived at the bottom (then what follows a scroll, a wait for the DOM, a
    second expand and the images' wait, has nothing new to wait for)."""
    started = time.monotonic()
    if _scroll_cannot_matter(session, state):
        session.timings["scroll_skipped"] = 1
        session.mark("scroll", started)
        return False
    end = started + min(options.scroll_time, session.deadline.settle_remaining() * 0.5)
    steps = 0
    heights: list[int] = []
    reached_end = False
    scale = 1
    # the page's own short timers, before any scroll step could schedule more
    before = await session.settle_action("quiet")
    # the DOM's changes so far: the first step is judged on what it changed too (a failed
    # call leaves it unknown, and then the first step counts as a reaction)
    mutations: int | None = before.get("mutations")
    standing_timers = int(before.get("timers") or 0)
    # one-shot work the page keeps scheduled anyway (a loop of animation frames): a step that
    # leaves more than this scheduled started something
    standing_work = int(before.get("oneShot") or 0)
    waited = False  # at this bottom, for a part the scroll started loading
    changed = False  # a step reacted, a target was revealed, or a part arrived at the bottom
    while steps < options.max_scroll_steps and time.monotonic() < end:
        network_before = session.network.last_change
        result = await session.settle_action("step", scale=scale)
        steps += 1
        standing_timers = min(standing_timers, int(result.get("timers") or 0))
        scheduled_by_step = int(result.get("oneShot") or 0) > standing_work
        standing_work = min(standing_work, int(result.get("oneShot") or 0))
        heights.append(int(result.get("height") or 0))
        if result.get("moved"):
            waited = False
            reacted = (
                result.get("mutations") != mutations
                or scheduled_by_step  # an interval or a running animation is not a reaction
                or session.network.inflight
                or session.network.last_change != network_before
            )
            mutations = result.get("mutations")
            if reacted:  # what came into view is loading: give it a moment, go on gently
                changed = True
                scale = 1
                session.timings["scroll_pauses"] = session.timings.get("scroll_pauses", 0) + 1
                await asyncio.sleep(SCROLL_PAUSE_MS / 1000)
            else:  # nothing on this page reacts to scrolling: cover it in fewer steps
                scale = min(scale * 2, MAX_SCROLL_SCALE)
        else:
            revealed = await session.settle_action("reveal")
            if revealed.get("revealed"):
                changed = True
                await asyncio.sleep(SCROLL_PAUSE_MS / 1000)
            elif waited or not await _more_on_its_way(session, result, standing_timers):
                # (once per bottom: a page that changes in place, a clock, a poll, never
                # lets the scroll move on, and must not hold it until its time runs out)
                reached_end = True
                break
            else:
                waited = changed = True
    session.timings["scroll_steps"] = steps
    if (
        not reached_end
        and len(heights) > FEED_GROWTH_STEPS
        and heights[-1] > heights[-1 - FEED_GROWTH_STEPS]
    ):
        await _mark_feeds(session)
    await session.settle_action("top")
    session.mark("scroll", started)
    return changed


async def _mark_feeds(session: PageSession) -> None:
    """The page still grew when the scroll hit its cap: mark the containers that are endless
    feeds, so the extraction leaves them out, and say so."""
    marked = (
        await session.settle_action(
            "markFeeds",
            feedAttribute=FEED_MARK,
            minFeedItems=FEED_MIN_ITEMS,
            recentSteps=FEED_GROWTH_STEPS,
        )
    ).get("marked", 0)
    if marked:
        session.timings["feeds_marked"] = marked
        session.warnings.append(f"endless feed: {marked} container(s) still growing were left out")


def _scroll_cannot_matter(session: PageSession, state: dict[str, Any]) -> bool:
    """No scroll, wheel or touch listener, no IntersectionObserver target, no scroll handler
    and nothing at all scheduled (a loader that polls the scroll position runs timers or
    frames), in this document or its same-origin frames, and the network quiet: scrolling
    cannot load or change anything (lazy images and content-visibility were made eager
    before)."""
    # ``still`` and nothing in flight, not ``is_idle``: how recently the DOM or the network last
    # changed does not matter here, only whether anything could react to a scroll
    return (
        state.get("scrollWatchers") == 0
        and bool(state.get("still"))
        and not session.network.inflight
    )


async def _more_on_its_way(session: PageSession, step: dict[str, Any], standing: int) -> bool:
    """At the bottom, with a request in flight or more short timers pending than the page's
    ``standing`` ones (what a scroll-triggered loader schedules): wait for the DOM to change,
    bounded, and say whether it did, so the scroll goes on. A pane or page that streams its
    next part on scroll cannot scroll further until that part has arrived. Intervals and
    animations are not waited for: they never end."""
    state = step
    end = time.monotonic() + min(STREAM_WAIT_S, session.deadline.settle_remaining())
    while int(state.get("timers") or 0) > standing or session.network.inflight:
        if state.get("mutations") != step.get("mutations") or time.monotonic() >= end:
            break
        if state is step:  # counted once per stop at the bottom
            session.timings["stream_waits"] = session.timings.get("stream_waits", 0) + 1
        await asyncio.sleep(POLL_S)
        state = await session.settle_action("quiet")
    return state.get("mutations") != step.get("mutations")


async def _wait_images(session: PageSession) -> None:
    started = time.monotonic()
    end = started + min(IMAGE_WAIT_S, session.deadline.settle_remaining())
    while time.monotonic() < end:
        if not (await session.settle_action("pendingImages")).get("pending"):
            break
        await asyncio.sleep(POLL_S * 2)
    session.mark("images", started)


def _check_text(html: str, url: str) -> str:
    try:
        return extract(PageSnapshot(html=html, url=url), options=_CHECK_OPTIONS).text
    except ReadermodeError:
        return ""


async def _first_snapshot(
    session: PageSession, options: RenderOptions, ahead: bool
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The first snapshot with the page's state when it was taken, and Readability.js run on
    it in the same call (or, ``ahead``, held for the next) when the page was idle then and
    options ask for it (kept in the snapshot as ``readability``, for ``page._after_snapshot``)."""
    readability = None
    if options.readability_js and session.network.quiet_for() * 1000 >= IDLE_QUIET_MS:
        # the snapshot's HTML is put in as ``html`` in the page
        readability = run_options(None, hidden_attribute=HIDDEN_MARK)
    before, snap, run = await take_first_snapshot(session, options, readability, ahead=ahead)
    session.timings["snapshot"] = round(float(snap.get("ms") or 0) / 1000, 3)
    if run is not None:
        snap["readability"] = run
    return before, snap


async def until_stable(
    session: PageSession, options: RenderOptions, *, ahead: bool = False
) -> tuple[dict[str, Any] | None, str]:
    """Snapshot until two consecutive extractions agree or the budget runs out; one snapshot
    is enough when the page was idle when it was taken (nothing scheduled, loaded, DOM and
    network quiet): nothing of the page runs while ``snapshot.js`` does, and an idle page has
    nothing left that could change it. ``ahead``: the first snapshot's Readability.js run is
    held for the next call (``snapshot.take_first_snapshot``)."""
    started = time.monotonic()
    previous_text: str | None = None
    snap: dict[str, Any] | None = None
    checks = 0
    reason = "budget"
    before: dict[str, Any] = {}
    while True:
        try:
            if checks:
                latest = await take_snapshot(session, options)
            else:
                before, latest = await _first_snapshot(session, options, ahead)
        except (TimeoutError, PlaywrightError) as exc:
            session.warnings.append(f"snapshot failed: {type(exc).__name__}")
            break
        snap = latest
        checks += 1
        if checks == 1 and session.is_idle(before):
            reason = "stable"
            session.timings["stable_by_evidence"] = 1
            break
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
        await session.pause(STABILITY_INTERVAL_S)
        await session.wait_dom_quiet(cap=2.0)
    session.timings["stability_checks"] = checks
    session.mark("stability", started)
    return snap, reason
