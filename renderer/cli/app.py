"""The ``readermode`` command: parse, check, run the mode, and map every failure to one line
on stderr and its exit code (``extractor``'s error tree; ``docs/architecture.md``)."""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable, Sequence

from extractor import EXIT_INTERNAL, EXIT_INTERRUPTED, ReadermodeError
from renderer.cli.batch import run_batch_command
from renderer.cli.compare import run_compare
from renderer.cli.invocation import Invocation, Mode, check_args
from renderer.cli.page import run_page
from renderer.cli.parser import build_parser
from renderer.cli.sites import run_list_command

DEBUG_ENV = "READERMODE_DEBUG"
"""Set to print the traceback of an internal error (a bug) besides its one line."""

COMMANDS: dict[Mode, Callable[[Invocation], int]] = {
    Mode.PAGE: run_page,
    Mode.BUNDLE: run_page,
    Mode.FROM_BUNDLE: run_page,
    Mode.BATCH: run_batch_command,
    Mode.COMPARE: run_compare,
    Mode.LIST: run_list_command,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console command; returns the exit code."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["serve"]:  # a subcommand (a file named serve: ./serve)
        from renderer.cli.serve import main as serve_main

        return serve_main(arguments[1:])
    parser = build_parser()
    invocation = check_args(parser, parser.parse_intermixed_args(arguments))
    try:
        return COMMANDS[invocation.mode](invocation)
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
    except Exception as exc:  # a bug: one line for users, the traceback on request
        if os.environ.get(DEBUG_ENV):
            traceback.print_exc()
        print(
            f"readermode: internal error: {type(exc).__name__}: {exc} "
            f"(set {DEBUG_ENV}=1 for a traceback, and please report it)",
            file=sys.stderr,
        )
        return EXIT_INTERNAL
