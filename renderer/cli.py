"""The ``readermode`` command: one target in, its main content out; one line per error."""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path

from extractor import (
    ALL_RULES,
    DEFAULT_MAX_BYTES,
    STAGES_BY_NAME,
    Extraction,
    ExtractOptions,
    PageSnapshot,
    ReadermodeError,
    extract,
)

from ._api import Renderer
from ._fetch import DEFAULT_TIMEOUT_S
from ._options import RenderOptions
from ._static import is_url, static_snapshot

FORMATS = ("markdown", "text", "html", "json")
EXIT_INTERRUPTED = 130
EXIT_INTERNAL = 70
DEBUG_ENV = "READERMODE_DEBUG"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="readermode",
        description="Read the main content out of a web page.",
        epilog="Exit codes: 0 ok, 2 usage, 3-8 bad input, 9-14 fetch/render, 15 no content, "
        "70 internal error (see README).",
    )
    parser.add_argument("target", help="URL, path to an HTML file (.gz too), or - for stdin")
    parser.add_argument("-f", "--format", choices=FORMATS, default="markdown")
    parser.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--no-render", action="store_true", help="fetch URLs without a browser (no JavaScript runs)"
    )
    mode.add_argument(
        "--render",
        action="store_true",
        help="render a local file or stdin in Chromium too (served from memory at --url)",
    )
    parser.add_argument(
        "--url", help="original URL of a file or stdin: relative links resolve against it"
    )
    parser.add_argument("--browser", metavar="PATH", help="Chromium executable to use")
    parser.add_argument(
        "--no-readability-js",
        action="store_true",
        help="skip the in-page Readability.js pass; the Python cascade reads the page",
    )
    parser.add_argument(
        "--offline",
        action="store_true",
        help="when rendering, refuse every request but the page itself (saved pages, tests)",
    )
    parser.add_argument("--screenshot", metavar="FILE", help="save a full-page PNG when rendering")
    parser.add_argument(
        "--save-html", metavar="FILE", help="save the snapshot the extractor read (rendered DOM)"
    )
    parser.add_argument(
        "--timeout",
        type=_positive_float,
        default=DEFAULT_TIMEOUT_S,
        metavar="S",
        help=f"time budget in seconds for the whole fetch or render (default {DEFAULT_TIMEOUT_S:g})",
    )
    parser.add_argument(
        "--max-bytes",
        type=_positive_int,
        default=DEFAULT_MAX_BYTES,
        metavar="N",
        help=f"refuse input larger than this (default {DEFAULT_MAX_BYTES:,})",
    )
    parser.add_argument(
        "--stages",
        type=_stage_list,
        metavar="A,B",
        help=f"cascade stages in order (default {','.join(STAGES_BY_NAME)})",
    )
    parser.add_argument(
        "--keep",
        action="append",
        choices=sorted(ALL_RULES),
        default=[],
        metavar="RULE",
        help=f"switch off a removal family ({', '.join(sorted(ALL_RULES))}); repeatable",
    )
    return parser


def _positive_float(value: str) -> float:
    number = float(value)
    if not number > 0:
        raise argparse.ArgumentTypeError("must be a positive number")
    return number


def _positive_int(value: str) -> int:
    number = int(value)
    if number <= 0:
        raise argparse.ArgumentTypeError("must be a positive integer")
    return number


def _stage_list(value: str) -> tuple:
    names = [name.strip() for name in value.split(",") if name.strip()]
    unknown = [name for name in names if name not in STAGES_BY_NAME]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown stage {', '.join(unknown) or '(none)'}; "
            f"choose from {', '.join(STAGES_BY_NAME)}"
        )
    return tuple(STAGES_BY_NAME[name] for name in names)


def render_output(extraction: Extraction, output_format: str) -> str:
    """The extraction in the requested format, ending with one newline."""
    if output_format == "json":
        return extraction.to_json() + "\n"
    body = {"markdown": extraction.markdown, "text": extraction.text, "html": extraction.html}[
        output_format
    ]
    return body if body.endswith("\n") else body + "\n"


def should_render(args: argparse.Namespace) -> bool:
    """URLs render unless --no-render; files and stdin only with --render."""
    if args.no_render:
        return False
    return args.render or is_url(args.target)


def render_snapshot(args: argparse.Namespace) -> PageSnapshot:
    options = RenderOptions(
        budget=args.timeout,
        browser=args.browser,
        readability_js=not args.no_readability_js,
        offline=args.offline,
        screenshot=args.screenshot,
    )
    with Renderer(options) as renderer:
        return renderer.render(args.target, url=args.url, max_bytes=args.max_bytes)


def run(args: argparse.Namespace) -> int:
    options = ExtractOptions(
        max_bytes=args.max_bytes,
        rules=ALL_RULES - frozenset(args.keep),
        stages=args.stages,
    )
    if should_render(args):
        snapshot = render_snapshot(args)
    else:
        snapshot = static_snapshot(
            args.target, url=args.url, timeout=args.timeout, max_bytes=args.max_bytes
        )
    if args.save_html:
        Path(args.save_html).write_text(snapshot.html, encoding="utf-8")
    extraction = extract(snapshot, options=options)
    text = render_output(extraction, args.format)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console command; returns the exit code."""
    args = build_parser().parse_args(argv)
    try:
        return run(args)
    except ReadermodeError as exc:
        print(f"readermode: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("readermode: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader of our stdout went away (| head): not an error worth a message.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:  # writing -o FILE failed
        print(f"readermode: cannot write output: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # a bug: one line for users, the traceback on request
        if os.environ.get(DEBUG_ENV):
            traceback.print_exc()
        print(
            f"readermode: internal error: {type(exc).__name__}: {exc} "
            f"(set {DEBUG_ENV}=1 for a traceback, and please report it)",
            file=sys.stderr,
        )
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
