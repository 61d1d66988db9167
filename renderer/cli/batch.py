"""``readermode -i LIST`` / several TARGETs: every target captured (one browser, ``--jobs`` at
a time), one JSON line per page on stdout or in ``-o FILE.jsonl`` (or CSV, XML), or one file per
page in ``-o DIR`` with an ``index.jsonl``; ``--resume`` skips what is already there."""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
import threading
from collections.abc import Callable, Coroutine
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

from extractor import Extraction, OutputError, ReadermodeError
from renderer.batch.output import (
    INDEX_NAME,
    BatchProgress,
    CsvSink,
    FolderSink,
    JsonLinesSink,
    XmlSink,
    batch_file_format,
    open_batch_sink,
    page_file_name,
    resume_jsonl,
)
from renderer.batch.ray_runner import run_batch_on_ray
from renderer.batch.runner import BatchOptions, PageRecord, run_batch
from renderer.batch.shards import ShardSink, resume_shards
from renderer.cli.invocation import Invocation
from renderer.cli.output import render_output
from renderer.cli.settings import extract_options, render_options, sitewide_options
from renderer.cli.sites import discovered_targets, narrow, open_seen, robots_policy
from renderer.cli.targets import all_targets

T = TypeVar("T")

EXTENSIONS = {"markdown": ".md", "text": ".txt", "html": ".html", "json": ".json", "jsonl": ".json"}
"""File extension of each format for a batch's one-file-per-page output (else ``.FORMAT``)."""

Sink = FolderSink | JsonLinesSink | CsvSink | XmlSink | ShardSink


def run_batch_command(invocation: Invocation) -> int:
    """The batch's exit code: 0 when every page was captured, else the first failed target's
    (in input order)."""
    args = invocation.options
    output = Path(args.output) if args.output else None
    to_folder = output is not None and batch_file_format(output) is None
    sharded = to_folder and args.ray is not None  # --ray -o DIR: JSON Lines shards
    done = _resume(output, to_folder=to_folder, sharded=sharded) if args.resume else set()
    robots = robots_policy(args)
    # A rendered crawl's pages, extracted from that render, so the batch does not render them
    # again; not with --bundle (a bundle is written by the batch's own capture).
    captured: dict[str, Extraction | ReadermodeError] = {}
    keep = None if args.bundle else captured.__setitem__
    targets = all_targets(invocation, discovered_targets(args, robots, on_capture=keep))
    seen = open_seen(args)
    todo = narrow(args, [target for target in dict.fromkeys(targets) if target not in done], seen)
    captured = {target: captured[target] for target in todo if target in captured}
    sink = _open_sink(invocation, output, to_folder, sharded=sharded)
    progress = BatchProgress(len(todo))

    def remember(record: PageRecord) -> None:
        if seen is not None and record.extraction is not None:
            seen.remember(record.target, record.extraction.url)

    def write(record: PageRecord) -> None:
        sink.write(record)
        remember(record)

    def write_partition(records: list[PageRecord]) -> None:
        assert isinstance(sink, ShardSink)
        sink.write_partition(records)  # whole and in place before anything is remembered
        for record in records:
            remember(record)

    options = replace(batch_options(args), robots=robots, robots_ignored=args.ignore_robots)
    try:
        if args.ray is not None:
            summary = run_batch_on_ray(
                todo,
                options,
                address=args.ray or None,
                actors=args.ray_actors,
                emit=write,
                on_done=progress.update,
                emit_partition=write_partition if sharded else None,
                captured=captured,
            )
        else:
            batch = run_batch(todo, options, emit=write, on_done=progress.update, captured=captured)
            summary = asyncio.run(interruptible(batch))
    except asyncio.CancelledError:  # our SIGINT handler cancelled the batch
        raise KeyboardInterrupt from None
    finally:
        progress.close()
        sink.close()
        if seen is not None:
            seen.close()
    return summary.exit_code


async def interruptible(work: Coroutine[Any, Any, T]) -> T:
    """Await ``work``; SIGINT cancels it through the loop's own signal handling.

    asyncio.run's Ctrl-C handler is a plain signal handler: it runs only once the main thread
    runs Python again. With a page held (no I/O, no timer due) the loop sleeps in select(),
    and a SIGINT taken by one of the process's other threads never wakes it: under load the
    batch outlived its Ctrl-C. The loop's handler writes to its wakeup fd whichever thread
    takes the signal."""
    if threading.current_thread() is not threading.main_thread():
        return await work  # signals reach the main thread's loop only (an in-process caller)
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    loop.add_signal_handler(signal.SIGINT, task.cancel)
    try:
        return await work
    finally:
        loop.remove_signal_handler(signal.SIGINT)


def batch_options(args: argparse.Namespace) -> BatchOptions:
    """The batch's scheduling, capture and clean-up options from the command line."""
    bundle_folder: Callable[[str], Path] | None = None
    if args.bundle:
        bundles = Path(args.bundle)

        def bundle_folder(target: str) -> Path:  # one subfolder per rendered page
            return bundles / page_file_name(target, "")

    return BatchOptions(
        jobs=args.jobs,
        per_host=args.per_host,
        delay=args.delay,
        render=False if args.no_render else (True if args.render else None),
        render_options=render_options(args),
        extract_options=extract_options(args),
        sitewide=sitewide_options(args),
        bundle_folder=bundle_folder,
    )


def _resume(output: Path | None, *, to_folder: bool, sharded: bool) -> set[str]:
    """The targets ``--resume`` skips: captured successfully in the output already."""
    if output is None:
        return set()
    try:
        if sharded:
            return resume_shards(output)
        if to_folder:
            return resume_jsonl(output / INDEX_NAME, folder=output)
        return resume_jsonl(output)
    except OSError as exc:
        raise OutputError(f"cannot resume {output}: {exc.strerror or exc}") from exc


def _open_sink(
    invocation: Invocation, output: Path | None, to_folder: bool, *, sharded: bool = False
) -> Sink:
    args = invocation.options
    output_format = invocation.format
    if output is None:
        return open_batch_sink(output_format, sys.stdout, owns_stream=False)
    try:
        if sharded:
            return ShardSink(output, append=args.resume)
        if to_folder:
            return FolderSink(
                output,
                extension=EXTENSIONS.get(output_format, "." + output_format),
                render=lambda extraction: render_output(
                    extraction, output_format, with_metadata=args.with_metadata
                ),
                append=args.resume,
            )
        output.parent.mkdir(parents=True, exist_ok=True)
        stream = output.open("a" if args.resume else "w", encoding="utf-8", newline="")
    except OSError as exc:
        raise OutputError(f"cannot write {output}: {exc.strerror or exc}") from exc
    return open_batch_sink(output_format, stream, owns_stream=True, append=args.resume)
