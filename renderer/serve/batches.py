"""``POST /v1/batch``: many URLs captured in the background on the shared browser, with the
batch runner's politeness (``renderer.batch``: pages per host, delay between starts, the
site-wide pass), their records kept under the batch's id and streamed as JSON Lines.

The body's request controls (``controls.py``) apply to every page; with context controls
(User-Agent, headers, cookies, proxy, locale, viewport) the batch gets one browser of its
own for all its pages, closed when it ends. Each page, and the proxy, pass the guard."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from typing import Any

from extractor import Extraction
from renderer.batch.runner import (
    DEFAULT_DELAY_S,
    DEFAULT_JOBS,
    DEFAULT_PER_HOST,
    BatchOptions,
    PageRecord,
    run_batch,
)
from renderer.serve.controls import controls_from_json
from renderer.serve.errors import bad_request
from renderer.serve.limits import Job, checked_url, formats_of, wait_selector
from renderer.serve.reports import BoundedStore
from renderer.serve.work import Worker

MAX_BATCH_URLS = 100
"""URLs in one batch: a larger list is split by the client, so one batch cannot hold the
browser for hours while other clients wait."""
MAX_BATCHES = 50
"""Batches kept (running or finished); the oldest goes first."""
BATCH_FORMATS = ("markdown", "text", "html", "json")
CONTENT_FIELDS = ("markdown", "text", "html")


@dataclass
class Batch:
    """One batch's progress and records, in the order pages finish."""

    total: int
    formats: tuple[str, ...]
    records: list[dict[str, Any]] = field(default_factory=list)
    failed: int = 0
    finished: bool = False
    task: asyncio.Task[None] | None = None
    _changed: asyncio.Event = field(default_factory=asyncio.Event)

    def progress(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "done": len(self.records),
            "failed": self.failed,
            "finished": self.finished,
        }

    def add(self, record: PageRecord) -> None:
        data = record.to_dict()
        if "json" not in self.formats:
            for name in CONTENT_FIELDS:
                if name not in self.formats:
                    data.pop(name, None)
        self.records.append(data)
        self.failed += not record.ok
        self._wake()

    def finish(self) -> None:
        self.finished = True
        self._wake()

    def _wake(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def lines(self) -> AsyncIterator[bytes]:
        """Every record as one JSON line, as soon as it is there, until the batch is done."""
        sent = 0
        while True:
            changed = self._changed
            while sent < len(self.records):
                yield (json.dumps(self.records[sent], ensure_ascii=False) + "\n").encode()
                sent += 1
            if self.finished:
                return
            await changed.wait()


def _number(data: dict[str, Any], name: str, default: float, *, integer: bool = False) -> float:
    value = data.get(name, default)
    kind = int if integer else (int, float)
    if isinstance(value, bool) or not isinstance(value, kind) or value < (1 if integer else 0):
        raise bad_request(
            f"{name} must be a {'positive whole' if integer else 'non-negative'} number"
        )
    return value


class Batches:
    """The running and finished batches of the service."""

    def __init__(self, worker: Worker) -> None:
        self.worker = worker
        self.store: BoundedStore[Batch] = BoundedStore(MAX_BATCHES)

    async def start(self, data: dict[str, Any]) -> str:
        """The new batch's id; the body checked, and its proxy through the guard, first."""
        urls = data.get("urls")
        if not isinstance(urls, list) or not urls:
            raise bad_request('"urls" must be a non-empty list of URLs')
        if len(urls) > MAX_BATCH_URLS:
            raise bad_request(f"at most {MAX_BATCH_URLS} URLs in one batch, not {len(urls)}")
        targets = [checked_url(url, "each of urls") for url in urls]
        formats = formats_of(data.get("formats"), BATCH_FORMATS)
        config = self.worker.config
        options = BatchOptions(
            jobs=min(config.max_concurrent, DEFAULT_JOBS),
            per_host=int(_number(data, "per_host", DEFAULT_PER_HOST, integer=True)),
            delay=_number(data, "delay", DEFAULT_DELAY_S),
        )
        template = Job(
            url=None,
            formats=formats,
            timeout=config.max_timeout,
            wait_for=wait_selector(data),
            controls=controls_from_json(data),
        )
        # the proxy vetted once, here (a refusal is the request's 403), and its browser
        # pointed at the vetted address; each page's extract vets it again
        template = await self.worker.vetted(template)
        batch = Batch(total=len(dict.fromkeys(targets)), formats=formats)
        own = None
        if template.controls.own_context:
            own = self.worker.own_browser(template, max_pages=options.jobs)

        async def capture(target: str) -> Extraction:
            job = replace(template, url=target)
            outcome = await self.worker.extract(job, queued=False, renderer=own)
            return outcome.extraction

        async def run() -> None:
            try:
                await run_batch(targets, options, emit=batch.add, capture=capture)
            finally:
                batch.finish()
                if own is not None:
                    await own.close()

        batch.task = asyncio.get_running_loop().create_task(run())
        return self.store.add(batch)

    async def close(self) -> None:
        """Cancel the batches still running (the server is stopping)."""
        tasks = [b.task for b in self.store.values() if b.task is not None and not b.task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
