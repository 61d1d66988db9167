"""The ``serve`` subcommand: ``readermode serve [--host H] [--port P] [--token T] [--max-concurrent N] [--queue N]
[--allow-private] [--cache DIR --cache-ttl S] [--timeout S] [--max-body-bytes N]``."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from renderer.browser.options import DEFAULT_BUDGET_S
from renderer.cli.parser import non_negative_int, positive_float, positive_int
from renderer.serve.config import (
    DEFAULT_CACHE_TTL_S,
    DEFAULT_HOST,
    DEFAULT_MAX_BODY_BYTES,
    DEFAULT_MAX_CONCURRENT,
    DEFAULT_PORT,
    DEFAULT_QUEUE,
    TOKEN_ENV,
    ServeConfig,
)

LOG_LEVELS = ("critical", "error", "warning", "info", "debug")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="readermode serve",
        description="Serve readermode over HTTP, with a web page at /. The private-network "
        "guard is on unless --allow-private.",
    )
    add = parser.add_argument
    add("--host", default=DEFAULT_HOST, help=f"address to listen on ({DEFAULT_HOST})")
    add("--port", type=non_negative_int, default=DEFAULT_PORT, help="port (0: any free one)")
    add("--token", help=f"require Authorization: Bearer TOKEN (or set {TOKEN_ENV})")
    add("--max-concurrent", type=positive_int, default=DEFAULT_MAX_CONCURRENT, metavar="N",
        help=f"pages rendered at once ({DEFAULT_MAX_CONCURRENT})")
    add("--queue", type=non_negative_int, default=DEFAULT_QUEUE, metavar="N",
        help=f"requests waiting for a page; more get 429 ({DEFAULT_QUEUE})")
    add("--allow-private", action="store_true",
        help="turn the private-network guard off (local development only)")
    add("--cache", metavar="DIR", type=Path, help="cache results in DIR (SQLite)")
    add("--cache-ttl", type=positive_float, default=DEFAULT_CACHE_TTL_S, metavar="S",
        help=f"seconds a cached result is kept ({DEFAULT_CACHE_TTL_S:g})")
    add("--timeout", type=positive_float, default=DEFAULT_BUDGET_S, metavar="S",
        help=f"the most any request's budget may be, in seconds ({DEFAULT_BUDGET_S:g})")
    add("--max-body-bytes", type=positive_int, default=DEFAULT_MAX_BODY_BYTES, metavar="N",
        help=f"request body cap ({DEFAULT_MAX_BODY_BYTES:,})")
    add("--browser", metavar="PATH", help="Chromium executable to use")
    add("--log-level", choices=LOG_LEVELS, default="warning")
    return parser


def main(argv: Sequence[str]) -> int:
    """The ``serve`` subcommand: ``readermode serve ...``: runs until SIGTERM or Ctrl-C has drained it."""
    args = build_parser().parse_args(argv)
    config = ServeConfig(
        host=args.host,
        port=args.port,
        token=args.token or os.environ.get(TOKEN_ENV) or None,
        max_concurrent=args.max_concurrent,
        queue=args.queue,
        allow_private=args.allow_private,
        cache_dir=args.cache,
        cache_ttl=args.cache_ttl,
        max_timeout=args.timeout,
        max_body_bytes=args.max_body_bytes,
        browser=args.browser,
    )
    if config.allow_private:
        print("readermode serve: --allow-private: the private-network guard is OFF",
              file=sys.stderr)
    from renderer.serve.server import serve  # uvicorn and Playwright only when serving

    return serve(config, log_level=args.log_level)
