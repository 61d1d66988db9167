"""Back-pressure, not collapse: at most ``max_concurrent`` pages at once, at most ``queue``
requests waiting for one, and every request beyond that answered ``429`` at once with a
``Retry-After`` that says when a slot is likely free. While draining (SIGTERM) new work is
refused with ``503``; requests already admitted finish."""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from extractor import BudgetExceededError
from renderer.serve.errors import EXIT_TEMPFAIL, ServiceError

EWMA_WEIGHT = 0.2
"""Weight of the newest page in the running mean of page durations behind ``Retry-After``:
recent pages count most, one slow page does not swing it."""
INITIAL_PAGE_S = 2.0
"""The mean page duration assumed before any page finished (a rendered article, loaded machine)."""
MAX_RETRY_AFTER_S = 120
"""A client is never told to wait longer than this: the estimate is a hint, not a promise."""


class Admission:
    """Slots for pages, a bounded queue in front of them, and the drain switch."""

    def __init__(self, max_concurrent: int, queue: int) -> None:
        self.max_concurrent = max_concurrent
        self.queue_limit = queue
        self._slots = asyncio.Semaphore(max_concurrent)
        self.running = 0
        """Pages holding a slot now."""
        self.waiting = 0
        """Requests in the queue (waiting for a slot)."""
        self.draining = False
        self._mean_page_s = INITIAL_PAGE_S

    def retry_after(self) -> int:
        """Seconds until the queue has likely moved on by one slot's worth of pages."""
        rounds = (self.waiting + self.running) / self.max_concurrent
        return max(1, min(MAX_RETRY_AFTER_S, math.ceil(self._mean_page_s * rounds)))

    def refuse_if_draining(self) -> None:
        if self.draining:
            raise ServiceError(
                503,
                "ShuttingDown",
                "the server is shutting down: try another instance or again later",
                exit_code=EXIT_TEMPFAIL,
                headers={"Retry-After": str(self.retry_after())},
            )

    @asynccontextmanager
    async def page(self, wait: float | None, *, queued: bool = True) -> AsyncIterator[None]:
        """Hold a page slot while the body runs. ``wait`` bounds the time in the queue
        (BudgetExceededError past it; None waits as long as it takes). ``queued=False`` is for
        a batch's own pages: they wait their turn without counting against the queue's bound,
        since the batch itself was admitted once."""
        self.refuse_if_draining()
        if queued and self._slots.locked() and self.waiting >= self.queue_limit:
            raise ServiceError(
                429,
                "QueueFull",
                f"{self.running} pages are rendering and {self.waiting} requests waiting "
                f"(--max-concurrent {self.max_concurrent}, --queue {self.queue_limit})",
                exit_code=EXIT_TEMPFAIL,
                headers={"Retry-After": str(self.retry_after())},
            )
        self.waiting += queued
        try:
            async with asyncio.timeout(wait):
                await self._slots.acquire()
        except TimeoutError as exc:
            raise BudgetExceededError(
                f"no page was free within the request's {wait:g} s budget"
            ) from exc
        finally:
            self.waiting -= queued
        self.running += 1
        started = time.monotonic()
        try:
            yield
        finally:
            self.running -= 1
            self._slots.release()
            spent = time.monotonic() - started
            self._mean_page_s += EWMA_WEIGHT * (spent - self._mean_page_s)
