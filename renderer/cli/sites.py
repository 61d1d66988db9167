"""Whole sites from the command line: robots.txt politeness, discovery (``--sitemap``,
``--feed``, ``--crawl``, ``--list-only``), the ``--seen`` memory and ``--shard``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from extractor import EmptyInputError, OutputError
from renderer.batch.seen import SeenStore
from renderer.batch.shard import in_shard
from renderer.cli.invocation import Invocation
from renderer.cli.settings import extract_options, render_options, request_controls
from renderer.discover import DiscoverOptions, OnCapture, Sources, discover
from renderer.fetch.addresses import AddressGuard
from renderer.fetch.robots import ROBOTS_TIMEOUT_S, RobotsPolicy


def note(line: str) -> None:
    """One line on stderr, as every other message of the command."""
    print(f"readermode: {line}", file=sys.stderr, flush=True)


def robots_policy(args: argparse.Namespace) -> RobotsPolicy | None:
    """robots.txt as the command line says: obeyed unless --ignore-robots."""
    if args.ignore_robots:
        return None
    guard = AddressGuard() if args.block_private else None
    return RobotsPolicy(
        guard=guard,
        notes=note,
        timeout=min(ROBOTS_TIMEOUT_S, args.timeout),
        controls=request_controls(args),
    )


def sources(args: argparse.Namespace) -> Sources:
    return Sources(sitemaps=tuple(args.sitemap), feeds=tuple(args.feed), crawls=tuple(args.crawl))


def discovered_targets(
    args: argparse.Namespace, robots: RobotsPolicy | None, *, on_capture: OnCapture | None = None
) -> list[str]:
    """What --sitemap, --feed and --crawl found (nothing when none was given); ``on_capture``
    hears the pages a rendered crawl found, extracted from its render."""
    if not sources(args):
        return []
    options = DiscoverOptions(
        max_pages=args.max_pages,
        max_depth=args.max_depth,
        include=args.include,
        exclude=args.exclude,
        render=not args.no_render,
        render_options=render_options(args),
        robots=robots,
        delay=args.delay,
        extract_options=extract_options(args),
    )
    urls = discover(sources(args), options, notes=note, on_capture=on_capture)
    note(f"discovered {len(urls)} URL{'s' if len(urls) != 1 else ''}")
    return urls


def run_list_command(invocation: Invocation) -> int:
    """--list-only: the URLs discovery found, one a line, to stdout or -o FILE."""
    args = invocation.options
    urls = discovered_targets(args, robots_policy(args))
    if args.shard:
        urls = in_shard(urls, *args.shard)
    if not urls:
        raise EmptyInputError("discovery found no URLs")
    text = "".join(url + "\n" for url in urls)
    if not args.output:
        sys.stdout.write(text)
        return 0
    try:
        Path(args.output).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise OutputError(f"cannot write {args.output}: {exc.strerror or exc}") from exc
    return 0


def narrow(args: argparse.Namespace, todo: list[str], seen: SeenStore | None) -> list[str]:
    """``todo`` less what --shard leaves to others and what --seen captured recently."""
    if args.shard:
        todo = in_shard(todo, *args.shard)
    if seen is not None:
        recent = seen.recent(todo, args.max_age)
        if recent:
            note(
                f"skipped {len(recent)} target{'s' if len(recent) != 1 else ''} captured "
                f"before (--seen {args.seen})"
            )
            todo = [target for target in todo if target not in recent]
    return todo


def open_seen(args: argparse.Namespace) -> SeenStore | None:
    return SeenStore(Path(args.seen)) if args.seen else None
