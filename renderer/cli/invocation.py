"""What one ``readermode`` command line asks for, checked: the mode, the targets, the format.

argparse reads the options; ``check_args`` adds the usage rules argparse cannot express (which
options go with which mode) and returns an ``Invocation``, leaving the parsed ``Namespace``
as argparse made it: every mode reads ``targets`` as a tuple, whatever their number.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from renderer.batch.output import batch_file_format

BATCH_STDOUT_FORMATS = ("json", "jsonl", "csv", "xml")
"""What a batch can write as one stream; the other formats need one file per page (-o DIR)."""
SINGLE_TARGET_OPTIONS = (
    ("--url", "url"),
    ("--screenshot", "screenshot"),
    ("--save-html", "save_html"),
)
"""Options about one page, which a list of targets cannot take."""


class Mode(Enum):
    """Which command runs."""

    PAGE = "page"  # one target: render or fetch, extract, write
    BUNDLE = "bundle"  # one target rendered into a capture bundle (--bundle DIR)
    FROM_BUNDLE = "from-bundle"  # one bundle folder extracted again (--from-bundle)
    BATCH = "batch"  # several targets or -i LIST
    COMPARE = "compare"  # Reader View QA (--compare, --report)
    LIST = "list"  # discovery only: print the URLs found (--list-only)


@dataclass(frozen=True, kw_only=True)
class Invocation:
    """A checked command line: ``options`` is argparse's namespace, untouched."""

    mode: Mode
    targets: tuple[str, ...]
    format: str
    options: argparse.Namespace

    @property
    def target(self) -> str:
        """The one target of a single-page mode."""
        return self.targets[0]


def check_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Invocation:
    """The invocation ``args`` asks for; usage errors argparse cannot see exit 2 here."""
    targets = tuple(args.target)
    compare = args.compare or args.report is not None
    if args.bundle and (args.no_render or compare or args.from_bundle):
        parser.error(
            "--bundle captures a rendered page: not with --no-render, --compare or --from-bundle"
        )
    if args.from_bundle and (len(targets) != 1 or args.input_list or compare):
        parser.error("--from-bundle takes one TARGET, a bundle folder")
    discovering = bool(args.sitemap or args.feed or args.crawl)
    if args.list_only and not discovering:
        parser.error("--list-only prints what --sitemap, --feed or --crawl found: give one")
    if args.max_age is not None and not args.seen:
        parser.error("--max-age says how long a --seen capture counts: give --seen DB")
    if discovering and (compare or args.from_bundle):
        parser.error("--sitemap, --feed and --crawl feed a batch: not with --compare")
    if args.list_only:
        return Invocation(mode=Mode.LIST, targets=targets, format="text", options=args)
    if compare:
        return _compare(parser, args, targets)
    if len(targets) > 1 or args.input_list is not None or discovering:
        return _batch(parser, args, targets)
    if args.seen or args.shard:
        parser.error("--seen and --shard go with a batch (several TARGETs, -i FILE or discovery)")
    if args.resume:
        parser.error("--resume goes with a batch (several TARGETs or -i FILE) and -o")
    if not targets:
        parser.error("the following arguments are required: target")
    mode = Mode.FROM_BUNDLE if args.from_bundle else Mode.BUNDLE if args.bundle else Mode.PAGE
    return Invocation(mode=mode, targets=targets, format=args.format or "markdown", options=args)


def _compare(
    parser: argparse.ArgumentParser, args: argparse.Namespace, targets: tuple[str, ...]
) -> Invocation:
    if args.resume:
        parser.error("--resume goes with a batch (several TARGETs or -i FILE) and -o")
    if not targets and not args.input_list:
        parser.error("the following arguments are required: TARGET (or -i FILE)")
    if args.no_render:
        parser.error("--compare runs Reader View in the browser: it does not go with --no-render")
    if len(targets) > 1 or args.input_list is not None:
        _refuse_single_target_options(parser, args, "a list")
    return Invocation(
        mode=Mode.COMPARE, targets=targets, format=args.format or "markdown", options=args
    )


def _batch(
    parser: argparse.ArgumentParser, args: argparse.Namespace, targets: tuple[str, ...]
) -> Invocation:
    _refuse_single_target_options(parser, args, "a batch")
    output = Path(args.output) if args.output else None
    file_format = batch_file_format(output) if output is not None else None
    to_folder = output is not None and file_format is None
    output_format = args.format
    if file_format is not None:
        if output_format not in (None, file_format, "json"):
            parser.error(f"-o {output} is a {file_format} file, but -f {output_format} was given")
        output_format = file_format
    output_format = output_format or "jsonl"
    if not to_folder and output_format not in BATCH_STDOUT_FORMATS:
        parser.error(
            f"a batch writes JSON Lines, CSV or XML to stdout or one file; for one "
            f"{output_format} file per page give -o DIR"
        )
    if output is not None and to_folder and output.exists() and not output.is_dir():
        parser.error(
            f"-o {output}: not a folder (a batch's single file ends in .jsonl, .csv or .xml)"
        )
    if to_folder and args.ray is not None and args.format not in (None, "json", "jsonl"):
        parser.error(
            f"--ray -o {output} writes JSON Lines shards and index.jsonl, not a {args.format} "
            "file per page (drop -f, or run without --ray)"
        )
    if args.resume and (output is None or file_format not in (None, "jsonl")):
        parser.error("--resume reads the output back: give -o FILE.jsonl or -o DIR")
    if args.input_list == "-" and "-" in targets:
        parser.error("stdin cannot be both the list (-i -) and a target (-)")
    return Invocation(mode=Mode.BATCH, targets=targets, format=output_format, options=args)


def _refuse_single_target_options(
    parser: argparse.ArgumentParser, args: argparse.Namespace, what: str
) -> None:
    for flag, name in SINGLE_TARGET_OPTIONS:
        if getattr(args, name):
            parser.error(f"{flag} takes a single TARGET, not {what}")
