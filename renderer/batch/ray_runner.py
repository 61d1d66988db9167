"""``--ray [ADDRESS]``: the batch on a Ray cluster, for corpora that outgrow one machine.

The targets are split into partitions by host (``shard.py``), several per actor; each actor
runs the ordinary ``run_batch`` on one partition at a time with its own browser (started
when a partition renders), so each host's politeness (``per_host``, ``delay``, robots.txt)
and the site-wide pass hold exactly as on one machine, with no coordinator. The driver
writes every record: through the same sinks as the plain batch (so the output, its failure
lines and ``--resume`` are the single-machine batch's), or, for ``-o DIR``, a JSON Lines
shard per finished partition plus ``index.jsonl`` (``shards.py``).

A partition's records reach the driver only when the whole partition is done. An actor that
dies (its worker or node lost) is restarted by Ray and its partition runs again
(``max_task_retries``); what it had done was never written, so nothing is written twice and
no page is lost. A partition that still fails after the retries becomes one failure record
per target. Ray is imported only here, only when ``--ray`` is given (the ``ray`` extra).
"""

from __future__ import annotations

import asyncio
import copyreg
import os
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from extractor import EXIT_INTERNAL, ReadermodeError
from renderer.batch.runner import (
    BatchOptions,
    BatchSummary,
    Captured,
    PageRecord,
    _Capturer,
    run_batch,
)
from renderer.batch.shard import shard_of

LOOPBACK = "127.0.0.1"

PARTITIONS_PER_ACTOR = 4
"""Partitions per actor: small enough that a lost actor costs a quarter of its share, large
enough that a host's pages stay together (one partition holds whole hosts)."""

MAX_TASK_RETRIES = 3
"""Times a partition runs again after its actor died, before its targets are failures."""

CLOSE_WAIT_S = 30.0
"""How long the actors may take to shut their browsers down at the end of a run."""

DEFAULT_ACTORS = 2
"""Actors (one browser each) when ``--ray-actors`` is not given: one per core of this kind of
2-core machine; on a cluster, give about one per two cores of the cluster."""


def _rebuild(cls: type[ReadermodeError], message: str, state: dict[str, Any]) -> ReadermodeError:
    error = Exception.__new__(cls)
    Exception.__init__(error, message)
    error.__dict__.update(state)
    return error


def _reduce(error: ReadermodeError) -> tuple[Any, ...]:
    return _rebuild, (type(error), str(error), dict(error.__dict__))


def _portable_errors() -> None:
    """Errors with their own constructor arguments (HTTPStatusError(status, url)) cannot be
    unpickled as Python does it (``cls(*args)``): records cross processes with them."""
    classes: list[type[ReadermodeError]] = [ReadermodeError]
    while classes:
        cls = classes.pop()
        copyreg.pickle(cls, _reduce)
        classes.extend(cls.__subclasses__())


_portable_errors()


class BatchWorker:
    """One Ray actor: runs partitions of the batch, one at a time, on its own event loop with
    one browser and page pool kept across partitions (started when a partition renders)."""

    def __init__(self) -> None:
        _portable_errors()  # in the worker process too (and for errors defined since)
        self._loop = asyncio.new_event_loop()
        self._capturer: _Capturer | None = None

    def run(
        self, targets: list[str], options: BatchOptions, captured: Captured | None = None
    ) -> list[PageRecord]:
        """The records of one partition, site-wide pass done, in the order they finished;
        ``captured``: its pages the driver's crawl already rendered."""
        if self._capturer is None:
            self._capturer = _Capturer(options)
        records: list[PageRecord] = []
        batch = run_batch(
            targets, options, emit=records.append, capture=self._capturer, captured=captured
        )
        self._loop.run_until_complete(batch)
        return records

    def usage(self) -> dict[str, float]:
        """This actor's process id and resident memory (MiB), for the figures script."""
        rss_kib = next(
            int(line.split()[1])
            for line in Path("/proc/self/status").read_text().splitlines()
            if line.startswith("VmRSS:")
        )
        return {"pid": os.getpid(), "rss_mib": rss_kib / 1024}

    def close(self) -> None:
        """Shut the browser down, so no Chromium outlives the actor."""
        if self._capturer is not None:
            self._loop.run_until_complete(self._capturer.close())
            self._capturer = None


def start_local_ray(num_cpus: int | None = None) -> None:
    """A one-machine Ray cluster for this run, every process on 127.0.0.1. Ray binds its own
    node to the machine's outward address even when told 127.0.0.1, unless multi-node
    clusters are switched off (its switch for laptops, read when Ray is imported, hence the
    constant too): a local run has no other node to reach, so nothing need listen outward."""
    os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"  # inherited by Ray's processes
    import ray
    from ray._private import ray_constants

    ray_constants.ENABLE_RAY_CLUSTER = False
    ray.init(
        address="local",  # a new cluster: without it Ray joins one already running here
        num_cpus=num_cpus,
        _node_ip_address=LOOPBACK,
        log_to_driver=False,
        include_dashboard=False,
    )


def partitions(targets: Sequence[str], count: int) -> list[list[str]]:
    """``targets`` in ``count`` parts by host, input order kept in each; empty parts dropped."""
    parts: list[list[str]] = [[] for _ in range(count)]
    for target in targets:
        parts[shard_of(target, count)].append(target)
    return [part for part in parts if part]


def run_batch_on_ray(
    targets: Sequence[str],
    options: BatchOptions,
    *,
    address: str | None,
    actors: int = DEFAULT_ACTORS,
    emit: Callable[[PageRecord], None],
    on_done: Callable[[PageRecord], None] | None = None,
    emit_partition: Callable[[list[PageRecord]], None] | None = None,
    captured: Captured | None = None,
) -> BatchSummary:
    """Capture every target on the Ray cluster at ``address`` (None: start a local one).
    Each finished partition's records go to ``emit_partition`` at once when it is given (a
    shard each, ``shards.py``), else one by one to ``emit``. ``captured``: pages a rendered
    crawl already rendered, each sent with its partition only."""
    import ray  # the optional extra: only a --ray run needs it

    if not ray.is_initialized():
        if address is None:
            start_local_ray()
        else:
            ray.init(address=address, log_to_driver=False, include_dashboard=False)
    unique = list(dict.fromkeys(targets))
    order = {target: index for index, target in enumerate(unique)}
    worker_class = ray.remote(BatchWorker).options(
        max_restarts=-1, max_task_retries=MAX_TASK_RETRIES, scheduling_strategy="SPREAD"
    )
    workers: list[Any] = [worker_class.remote() for _ in range(actors)]
    queue = partitions(unique, max(1, actors * PARTITIONS_PER_ACTOR))
    pending: dict[Any, tuple[list[str], Any]] = {}
    failures: dict[int, int] = {}

    def submit(worker: Any) -> None:
        if queue:
            part = queue.pop(0)
            known = {t: captured[t] for t in part if t in captured} if captured else None
            pending[worker.run.remote(part, options, known or None)] = (part, worker)

    for worker in workers:
        submit(worker)
    try:
        while pending:
            [ref], _ = ray.wait(list(pending), num_returns=1)
            part, worker = pending.pop(ref)
            records = [_renumbered(r, order[r.target]) for r in _records(ray, ref, part)]
            for record in records:
                if not record.ok:
                    failures[record.index] = record.exit_code
                if on_done is not None:
                    on_done(record)
            if emit_partition is not None:
                emit_partition(records)
            else:
                for record in records:
                    emit(record)
            submit(worker)
    finally:
        _close(ray, workers)
    return BatchSummary.of(len(unique), failures)


def _close(ray: Any, workers: list[Any]) -> None:
    """Each actor closes its browser (bounded), then goes."""
    closing = [worker.close.remote() for worker in workers]
    ray.wait(closing, num_returns=len(closing), timeout=CLOSE_WAIT_S)
    for worker in workers:
        ray.kill(worker)


def _records(ray: Any, ref: Any, part: list[str]) -> list[PageRecord]:
    try:
        records: list[PageRecord] = ray.get(ref)
        return records
    except ray.exceptions.RayError as exc:  # the partition failed after every retry
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return [
            PageRecord(
                index=0,
                target=target,
                error_kind=type(exc).__name__,
                error=f"internal error: the Ray worker was lost: {reason}",
                exit_code=EXIT_INTERNAL,
            )
            for target in part
        ]


def _renumbered(record: PageRecord, index: int) -> PageRecord:
    """A partition numbers its records from 0: the batch's exit code wants input order."""
    return replace(record, index=index)
