"""Batch capture: many targets, one browser, a few pages at a time, every outcome recorded.

Scheduling (``HostScheduler``): at most ``jobs`` pages in flight, at most ``per_host`` of them
on one host, and page starts on one host at least ``delay`` seconds apart. Local files have no
host and only count against ``jobs``.

Failures never stop the batch: each target gives a ``PageRecord``, the extraction or the error
(its class name and exit code).

Site-wide boilerplate (``extractor`` ``remove_sitewide``) needs every page of a site before it
can judge any of them, so records are held back per site (``SiteBuffer``): a site's pages are
handed on, cleaned, once the last of its targets has finished; a failure, or a page of a site
with too few targets in the batch to reach the thresholds, goes on at once. Only the
extraction of a waiting page is kept (never its snapshot). On Ctrl-C the pages already
captured are cleaned against each other and handed on, so ``--resume`` need not fetch them again.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from extractor import (
    EXIT_INTERNAL,
    Extraction,
    ExtractOptions,
    Failure,
    ReadermodeError,
    RobotsDisallowedError,
    SitewideOptions,
    TraceEntry,
    error_status,
    extract,
    remove_sitewide,
    site_key,
)
from renderer.browser.options import RenderOptions
from renderer.fetch.robots import RobotsPolicy
from renderer.fetch.static import is_url, static_snapshot

if TYPE_CHECKING:
    from renderer.browser.api import AsyncRenderer

DEFAULT_JOBS = 4
"""Pages in flight at once. A page context costs ~0.25 s to open and tens of MiB: four keep two
cores busy while pages wait on the network."""

DEFAULT_PER_HOST = 2
"""Pages in flight on one host: two is the old HTTP/1.1 politeness limit (RFC 2616 8.1.4)."""

DEFAULT_DELAY_S = 1.0
"""Seconds between page starts on one host: one page a second, a common polite crawl rate."""

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[object]]
Capture = Callable[[str], Awaitable[Extraction]]
Captured = Mapping[str, "Extraction | ReadermodeError"]
"""Pages captured already (a rendered crawl's renders), by target: not captured again."""


@dataclass(frozen=True, kw_only=True)
class BatchOptions:
    """How to run a batch. ``render=None`` follows the single-page rule: URLs are rendered and
    files read statically; True renders files too, False renders nothing."""

    jobs: int = DEFAULT_JOBS
    per_host: int = DEFAULT_PER_HOST
    delay: float = DEFAULT_DELAY_S
    render: bool | None = None
    render_options: RenderOptions = field(default_factory=RenderOptions)
    extract_options: ExtractOptions = field(default_factory=ExtractOptions)
    sitewide: SitewideOptions | None = field(default_factory=SitewideOptions)
    """None (or ``min_share`` 0) switches the site-wide pass off."""
    bundle_folder: Callable[[str], Path] | None = None
    """When set, each rendered page is captured into a bundle in the folder it names for the
    target (``AsyncRenderer.capture_bundle``); static pages have no bundle (nothing rendered)."""
    robots: RobotsPolicy | None = None
    """robots.txt politeness: a URL it disallows is a ``robots-disallowed`` record, never
    fetched, and a host's ``Crawl-delay`` raises ``delay`` there. None (the Python API's
    default, and ``--ignore-robots``): not read."""
    robots_ignored: bool = False
    """Say in every page's trace that robots.txt was not read (``--ignore-robots``)."""


@dataclass(frozen=True, kw_only=True)
class PageRecord:
    """One target's outcome: its extraction, or the error that stopped it."""

    index: int
    target: str
    extraction: Extraction | None = None
    error_kind: str | None = None
    error: str | None = None
    exit_code: int = 0
    exception: ReadermodeError | None = field(default=None, repr=False, compare=False)
    """The error that stopped a page (None for an internal error: that is a bug, not a kind)."""

    @property
    def ok(self) -> bool:
        return self.extraction is not None

    @property
    def status(self) -> str:
        """ "ok", or the error's kind in kebab case ("content-too-short"), as in every format."""
        if self.ok:
            return "ok"
        return error_status(self.exception) if self.exception else "internal-error"

    def as_format_record(self) -> Extraction | Failure:
        """The record the CSV and XML writers take."""
        if self.extraction is not None:
            return self.extraction
        return Failure(self.target, self.exception or ReadermodeError(self.error or ""))

    def to_dict(self, *, content: bool = True) -> dict[str, Any]:
        """The record as one JSON object; ``content=False`` leaves out text, html, markdown."""
        data: dict[str, Any] = {"target": self.target, "ok": self.ok, "status": self.status}
        if self.extraction is None:
            data.update(error_kind=self.error_kind, error=self.error, exit_code=self.exit_code)
            return data
        fields = self.extraction.to_dict()
        if not content:
            for name in ("text", "html", "markdown"):
                fields.pop(name, None)
        data.update(fields)
        return data


@dataclass(frozen=True)
class BatchSummary:
    """What a finished batch did; ``exit_code`` is the first failed target's (in input order)
    or 0 when every page was captured."""

    total: int
    ok: int
    failed: int
    exit_code: int

    @classmethod
    def of(cls, total: int, failures: dict[int, int]) -> BatchSummary:
        """The summary of ``total`` targets, ``failures`` being exit codes by input index."""
        first_failure = failures[min(failures)] if failures else 0
        return cls(
            total=total, ok=total - len(failures), failed=len(failures), exit_code=first_failure
        )


def host_of(target: str) -> str | None:
    """The host a target loads from (host:port), or None for a local file or stdin."""
    if not is_url(target):
        return None
    return urlsplit(target).netloc.lower() or None


class HostScheduler:
    """At most ``jobs`` pages in flight, ``per_host`` per host, and starts on one host at least
    ``delay`` seconds apart. ``clock`` and ``sleep`` are injectable for tests."""

    def __init__(
        self,
        *,
        jobs: int,
        per_host: int,
        delay: float,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        if jobs < 1 or per_host < 1 or delay < 0:
            raise ValueError("jobs and per_host must be at least 1, delay not negative")
        self.delay = delay
        self._clock = clock
        self._sleep = sleep
        self._jobs = asyncio.Semaphore(jobs)
        self._per_host = per_host
        self._host_slots: dict[str, asyncio.Semaphore] = {}
        self._host_pacing: dict[str, asyncio.Lock] = {}
        self._last_start: dict[str, float] = {}
        self._host_delay: dict[str, float] = {}

    def raise_delay(self, host: str, delay: float) -> None:
        """Space ``host``'s starts at least ``delay`` apart (its robots.txt Crawl-delay)."""
        self._host_delay[host] = max(self._host_delay.get(host, self.delay), delay)

    @asynccontextmanager
    async def slot(self, host: str | None) -> AsyncIterator[None]:
        """Hold a page slot for ``host`` (None: no host limits) while the body runs."""
        if host is None:
            async with self._jobs:
                yield
            return
        host_slots = self._host_slots.setdefault(host, asyncio.Semaphore(self._per_host))
        pacing = self._host_pacing.setdefault(host, asyncio.Lock())
        async with host_slots:
            # One start at a time per host; its time is taken once the global slot is held,
            # so starts stay `delay` apart even when every job slot was busy.
            async with pacing:
                delay = self._host_delay.get(host, self.delay)
                wait = self._last_start.get(host, -math.inf) + delay - self._clock()
                if wait > 0:
                    await self._sleep(wait)
                await self._jobs.acquire()
                self._last_start[host] = self._clock()
            try:
                yield
            finally:
                self._jobs.release()


class SiteBuffer:
    """Holds a site's records until all of its targets are done, then cleans them together."""

    def __init__(self, targets: Iterable[str], options: SitewideOptions | None) -> None:
        self._options = options if options is not None and options.enabled else None
        self._expected = Counter(site_key(target) for target in targets)
        self._finished: Counter[str] = Counter()
        self._waiting: dict[str, list[PageRecord]] = defaultdict(list)

    def add(self, record: PageRecord) -> list[PageRecord]:
        """The records ready to write now that ``record`` is done (maybe none, maybe many)."""
        if self._options is None:
            return [record]
        site = site_key(record.target)
        self._finished[site] += 1
        if self._expected[site] < self._options.min_pages or not record.ok:
            ready = [record]  # nothing to learn from it, or nothing to clean
        else:
            self._waiting[site].append(record)
            ready = []
        if self._finished[site] >= self._expected[site]:
            ready += self._release(site)
        return ready

    def flush(self) -> list[PageRecord]:
        """Every waiting record, each site cleaned against the pages it has (after Ctrl-C)."""
        return [record for site in list(self._waiting) for record in self._release(site)]

    def _release(self, site: str) -> list[PageRecord]:
        records = self._waiting.pop(site, [])
        if not records or self._options is None:
            return records
        cleaned = remove_sitewide(
            [record.extraction for record in records],  # type: ignore[misc]
            site=site,
            options=self._options,
        )
        return [
            replace(record, extraction=extraction)
            for record, extraction in zip(records, cleaned, strict=True)
        ]


ROBOTS_IGNORED = TraceEntry(
    kind="post", name="robots", outcome="skipped", reason="robots.txt not read: --ignore-robots"
)


def _failure(index: int, target: str, exc: ReadermodeError) -> PageRecord:
    return PageRecord(
        index=index,
        target=target,
        error_kind=type(exc).__name__,
        error=str(exc),
        exit_code=exc.exit_code,
        exception=exc,
    )


async def _attempt(capture: Capture, index: int, target: str) -> PageRecord:
    try:
        extraction = await capture(target)
        # Every record is written with its metadata, which is read on first access: read it
        # now, so a page held back for the site-wide pass does not keep its HTML alive.
        extraction.metadata  # noqa: B018
    except ReadermodeError as exc:
        return _failure(index, target, exc)
    except Exception as exc:  # a bug on one page must not cost the batch the others
        return PageRecord(
            index=index,
            target=target,
            error_kind=type(exc).__name__,
            error=f"internal error: {type(exc).__name__}: {exc}",
            exit_code=EXIT_INTERNAL,
        )
    return PageRecord(index=index, target=target, extraction=extraction)


class _Capturer:
    """Captures one target the way the options say: in the shared browser (started on first
    use, so a batch of files never starts one) or statically on a worker thread."""

    def __init__(self, options: BatchOptions) -> None:
        self._options = options
        self._renderer: AsyncRenderer | None = None
        self._executor = ThreadPoolExecutor(options.jobs, thread_name_prefix="readermode-batch")

    def _renders(self, target: str) -> bool:
        return is_url(target) if self._options.render is None else self._options.render

    async def __call__(self, target: str) -> Extraction:
        if self._renders(target):
            renderer = self._browser()
            if self._options.bundle_folder is not None:
                return await renderer.capture_bundle(
                    target,
                    self._options.bundle_folder(target),
                    extract_options=self._options.extract_options,
                )
            return await renderer.capture(target, extract_options=self._options.extract_options)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self._static, target)

    def _browser(self) -> AsyncRenderer:
        # Imported here: a batch of files or --no-render never loads Playwright.
        from renderer.browser.api import AsyncRenderer

        if self._renderer is None:
            # the batch's own scheduler bounds its pages: the pool's bound must not be lower
            self._renderer = AsyncRenderer(
                self._options.render_options, max_pages=max(self._options.jobs, 1)
            )
        return self._renderer

    def _static(self, target: str) -> Extraction:
        options = self._options
        snapshot = static_snapshot(
            target,
            timeout=options.render_options.budget,
            max_bytes=options.extract_options.max_bytes,
            max_redirects=options.render_options.max_redirects,
            block_private=options.render_options.block_private,
            controls=options.render_options.request,
        )
        return extract(snapshot, options=options.extract_options)

    async def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
        if self._renderer is not None:
            await self._renderer.close()


async def run_batch(
    targets: Sequence[str],
    options: BatchOptions | None = None,
    *,
    emit: Callable[[PageRecord], None],
    on_done: Callable[[PageRecord], None] | None = None,
    capture: Capture | None = None,
    captured: Captured | None = None,
    clock: Clock = time.monotonic,
    sleep: Sleep = asyncio.sleep,
) -> BatchSummary:
    """Capture every target (duplicates once); ``on_done`` sees each record as it finishes,
    ``emit`` each record ready to write (after the site-wide pass). ``capture`` replaces the
    browser/static capture (tests); a target in ``captured`` takes its outcome from there
    (robots.txt and the host's delay were the crawl's), never fetched again. Cancelling
    (Ctrl-C) closes the browser and still emits the pages captured so far."""
    options = options or BatchOptions()
    unique = list(dict.fromkeys(targets))
    scheduler = HostScheduler(
        jobs=options.jobs, per_host=options.per_host, delay=options.delay, clock=clock, sleep=sleep
    )
    buffer = SiteBuffer(unique, options.sitewide)
    capturer = _Capturer(options) if capture is None else None
    capture_fn: Capture = capture or capturer  # type: ignore[assignment]
    failures: dict[int, int] = {}

    async def one(index: int, target: str) -> None:
        host = host_of(target)
        known = captured.get(target) if captured else None
        if isinstance(known, ReadermodeError):
            record = _failure(index, target, known)
        elif known is not None:
            record = PageRecord(index=index, target=target, extraction=known)
        elif refused := await _robots_refusal(options, scheduler, host, target):
            record = _failure(index, target, refused)
        else:
            async with scheduler.slot(host):
                record = await _attempt(capture_fn, index, target)
        if record.extraction is not None and options.robots_ignored and host is not None:
            trace = (*record.extraction.trace, ROBOTS_IGNORED)
            record = replace(record, extraction=record.extraction.revised(trace=trace))
        if not record.ok:
            failures[index] = record.exit_code
        if on_done is not None:
            on_done(record)
        for ready in buffer.add(record):
            emit(ready)

    tasks = [asyncio.create_task(one(index, target)) for index, target in enumerate(unique)]
    try:
        await asyncio.gather(*tasks)
    except asyncio.CancelledError:
        await _stop(tasks, capturer)
        for ready in buffer.flush():
            emit(ready)
        raise
    except BaseException:
        await _stop(tasks, capturer)
        raise
    await _stop(tasks, capturer)
    for ready in buffer.flush():
        emit(ready)
    return BatchSummary.of(len(unique), failures)


async def _robots_refusal(
    options: BatchOptions, scheduler: HostScheduler, host: str | None, target: str
) -> RobotsDisallowedError | None:
    """The refusal when robots.txt disallows ``target``; else None, its Crawl-delay applied.
    robots.txt is fetched on a worker thread (blocking I/O, once per host)."""
    if options.robots is None or host is None:
        return None
    answer = await asyncio.get_running_loop().run_in_executor(None, options.robots.check, target)
    if not answer.allowed:
        return RobotsDisallowedError(answer.reason)
    if answer.crawl_delay:
        scheduler.raise_delay(host, answer.crawl_delay)
    return None


async def _stop(tasks: list[asyncio.Task[None]], capturer: _Capturer | None) -> None:
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    if capturer is not None:
        await capturer.close()
