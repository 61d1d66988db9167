"""``NetworkActivity`` (renderer/browser/session.py): a request our own routes refused is no
network activity, every other start and end is."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from renderer.browser.session import NetworkActivity


class _Request:
    def __init__(self, failure: str | None = None) -> None:
        self.failure = failure


def test_a_request_refused_by_us_leaves_the_network_as_quiet_as_before() -> None:
    network = NetworkActivity()
    page = _Request()
    network._started(page)  # type: ignore[arg-type]
    network._ended(page)  # type: ignore[arg-type]
    settled_at = network.last_change
    font = _Request("net::ERR_BLOCKED_BY_CLIENT.Inspector")
    network._started(font)  # type: ignore[arg-type]
    assert network.inflight and network.quiet_for() == 0.0
    network._failed(font)  # type: ignore[arg-type]
    assert not network.inflight
    assert network.last_change == settled_at


def test_other_failures_and_finished_requests_count() -> None:
    network = NetworkActivity()
    before = network.last_change
    time.sleep(0.002)
    broken = _Request("net::ERR_CONNECTION_REFUSED")
    network._started(broken)  # type: ignore[arg-type]
    network._failed(broken)  # type: ignore[arg-type]
    assert not network.inflight
    assert network.last_change > before


def test_a_refusal_does_not_hide_what_happened_after_its_start() -> None:
    network = NetworkActivity()
    tracker, data = _Request("net::ERR_BLOCKED_BY_CLIENT"), _Request()
    network._started(tracker)  # type: ignore[arg-type]
    network._started(data)  # type: ignore[arg-type]
    network._ended(data)  # type: ignore[arg-type]
    data_ended = network.last_change
    network._failed(tracker)  # type: ignore[arg-type]
    assert network.last_change == data_ended


def test_a_request_refused_before_its_start_was_reported_never_counts() -> None:
    network = NetworkActivity()
    before = network.last_change
    font = _Request()
    network.refused(font)  # type: ignore[arg-type]
    network._started(font)  # type: ignore[arg-type]
    assert not network.inflight
    assert network.last_change == before


def test_offline_an_empty_network_is_quiet_for_good_and_a_request_in_flight_is_not() -> None:
    network = NetworkActivity(answers_nothing=True)
    document = _Request()
    network._started(document)  # type: ignore[arg-type]
    assert network.quiet_for() == 0.0  # the page's own document is still arriving
    network._ended(document)  # type: ignore[arg-type]
    assert network.quiet_for() == float("inf")  # nothing more can arrive: no window to wait
    frame = _Request()
    network._started(frame)  # type: ignore[arg-type]
    assert network.quiet_for() == 0.0


def test_online_the_quiet_is_counted_from_the_last_request() -> None:
    network = NetworkActivity()
    document = _Request()
    network._started(document)  # type: ignore[arg-type]
    network._ended(document)  # type: ignore[arg-type]
    assert 0.0 <= network.quiet_for() < float("inf")


def test_the_wait_for_an_empty_network_ends_when_the_last_request_does() -> None:
    async def scenario() -> tuple[bool, bool]:
        network = NetworkActivity()
        script, image = _Request(), _Request()
        network._started(script)  # type: ignore[arg-type]
        network._started(image)  # type: ignore[arg-type]
        waiting = asyncio.ensure_future(network.wait_emptied(timeout=3600))
        network._ended(script)  # type: ignore[arg-type]
        await asyncio.sleep(0)
        still_waiting = not waiting.done()
        network.refused(image)  # type: ignore[arg-type]
        await asyncio.wait_for(waiting, timeout=60)
        return still_waiting, waiting.done()

    assert _in_a_loop(scenario()) == (True, True)


def _in_a_loop(coroutine: Any) -> Any:
    # on a thread of its own: pytest-playwright may keep an event loop in the main thread
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result(timeout=120)
