"""The ``readermode`` command: one target in, its main content out; one line per error.

Several targets (or ``-i LIST``) run a batch (``_batch``): JSON Lines out, a progress bar on
stderr. ``--compare`` renders targets for Reader View QA instead.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import json
import os
import sys
import traceback
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from extractor import (
    ALL_RULES,
    DEFAULT_MAX_BYTES,
    SITEWIDE_MIN_PAGES,
    SITEWIDE_MIN_SHARE,
    STAGES_BY_NAME,
    EmptyInputError,
    Extraction,
    ExtractOptions,
    InputNotFoundError,
    PageSnapshot,
    ReadermodeError,
    SitewideOptions,
    csv_header,
    csv_line,
    extract,
    front_matter,
    html_to_markdown,
    inert_page_html,
    to_csv_row,
    to_jsonl_line,
    to_xml,
)

from ._api import Renderer
from ._batch import (
    DEFAULT_DELAY_S,
    DEFAULT_JOBS,
    DEFAULT_PER_HOST,
    EXIT_INTERNAL,
    BatchOptions,
    run_batch,
)
from ._batch_output import (
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
from ._bundle import extract_from_bundle
from ._compare import PageComparison, PageFailure, compare_page_sync
from ._fetch import DEFAULT_TIMEOUT_S
from ._options import (
    DEFAULT_MAX_DOM_BYTES,
    DEFAULT_MAX_ELEMENTS,
    DEFAULT_MAX_REDIRECTS,
    RenderOptions,
)
from ._report import html_report, text_overview, text_summary
from ._static import is_url, static_snapshot

FORMATS = ("markdown", "text", "html", "json", "jsonl", "xml", "csv")
EXTENSIONS = {"markdown": ".md", "text": ".txt", "html": ".html", "json": ".json", "jsonl": ".json"}
FRONT_MATTER_FORMATS = ("markdown", "text")
COMMENTS_RULE = {"markdown": "---", "text": "-" * 40}
"""Sets the comment section apart from the article in Markdown and text output."""
"""File extension of each format for a batch's one-file-per-page output (else ``.FORMAT``)."""
BATCH_STDOUT_FORMATS = ("json", "jsonl", "csv", "xml")
EXIT_INTERRUPTED = 130
DEBUG_ENV = "READERMODE_DEBUG"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="readermode",
        description="Read the main content out of a web page.",
        epilog="Exit codes: 0 ok, 2 usage, 3-8 bad input, 9-14 fetch/render, 15 no content, "
        "70 internal error (see README).",
    )
    parser.add_argument(
        "target",
        nargs="*",
        metavar="TARGET",
        help="URL, path to an HTML file (.gz too), or - for stdin; several run a batch",
    )
    parser.add_argument(
        "-f",
        "--format",
        choices=FORMATS,
        help="output format (default markdown; a batch writes JSON Lines, and -f picks the "
        "format of its page files with -o DIR)",
    )
    parser.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write here instead of stdout; for a batch a .jsonl file or a folder DIR",
    )
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
        "--save-html",
        metavar="FILE",
        help="save the captured page (the DOM the extractor read) as raw markup, not sanitised "
        "content; a Content-Security-Policy keeps its scripts from running in a browser",
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
    limits = parser.add_argument_group("Limits (each error names the one it hit)")
    limits.add_argument(
        "--max-dom-bytes",
        type=_positive_int,
        default=DEFAULT_MAX_DOM_BYTES,
        metavar="N",
        help="cut the rendered snapshot at this many bytes (a partial result with a warning; "
        f"default {DEFAULT_MAX_DOM_BYTES:,})",
    )
    limits.add_argument(
        "--max-elements",
        type=_positive_int,
        default=DEFAULT_MAX_ELEMENTS,
        metavar="N",
        help="cut the rendered snapshot after this many elements (partial, with a warning; "
        f"default {DEFAULT_MAX_ELEMENTS:,})",
    )
    limits.add_argument(
        "--max-redirects",
        type=_non_negative_int,
        default=DEFAULT_MAX_REDIRECTS,
        metavar="N",
        help=f"HTTP redirects followed per page, then exit 17 (default {DEFAULT_MAX_REDIRECTS})",
    )
    network = limits.add_mutually_exclusive_group()
    network.add_argument(
        "--block-private",
        dest="block_private",
        action="store_true",
        help="refuse loopback, private, link-local and cloud-metadata addresses (after DNS, "
        "on every redirect and subresource) and file: URLs (exit 16); the Python API does "
        "this by default",
    )
    network.add_argument(
        "--allow-private",
        dest="block_private",
        action="store_false",
        help="allow them (the CLI's default: local dev servers are a real use)",
    )
    capture = parser.add_argument_group("Capture bundles")
    capture.add_argument(
        "--bundle",
        metavar="DIR",
        help="also write a capture bundle: snapshot, MHTML archive, screenshot, extraction "
        "JSON and Markdown, manifest (a batch: one subfolder per rendered page)",
    )
    capture.add_argument(
        "--from-bundle",
        action="store_true",
        help="TARGET is a bundle folder: extract it again offline, with the options it was "
        "captured with",
    )
    content = parser.add_argument_group("Content")
    content.add_argument(
        "--with-metadata",
        action="store_true",
        help="start Markdown and text output with YAML front matter (title, authors, dates, "
        "site, language, description, image, tags, canonical URL)",
    )
    content.add_argument(
        "--no-links", action="store_true", help="keep link text, drop link targets"
    )
    content.add_argument("--no-tables", action="store_true", help="leave tables out")
    content.add_argument("--no-images", action="store_true", help="leave images out")
    content.add_argument(
        "--include-comments",
        action="store_true",
        help="read the page's comment section too, as a separate field (JSON: comments; "
        "Markdown/text: a Comments section after the article)",
    )
    content.add_argument(
        "--min-length",
        type=_non_negative_int,
        default=0,
        metavar="N",
        help="a result under N words is an error (exit 18, status content-too-short in a "
        "batch) rather than output",
    )
    qa = parser.add_argument_group("Reader View QA")
    qa.add_argument(
        "--compare",
        action="store_true",
        help="compare with Firefox Reader View on the same render: both results, the stage that "
        "won and why, isProbablyReaderable, word precision/recall/F1 (-f json: as JSON)",
    )
    qa.add_argument(
        "--report",
        metavar="FILE.html",
        help="write a self-contained side-by-side HTML report (implies --compare); with several "
        "targets one summary report with an F1 histogram",
    )
    batch = parser.add_argument_group("Batch (several TARGETs or -i LIST)")
    batch.add_argument(
        "-i",
        "--input-list",
        metavar="FILE",
        help="read more targets from FILE, one per line, # comments allowed (- for stdin)",
    )
    batch.add_argument(
        "--jobs",
        type=_positive_int,
        default=DEFAULT_JOBS,
        metavar="N",
        help=f"pages captured at once (default {DEFAULT_JOBS})",
    )
    batch.add_argument(
        "--per-host",
        type=_positive_int,
        default=DEFAULT_PER_HOST,
        metavar="N",
        help=f"pages captured at once from one host (default {DEFAULT_PER_HOST})",
    )
    batch.add_argument(
        "--delay",
        type=_non_negative_float,
        default=DEFAULT_DELAY_S,
        metavar="S",
        help=f"seconds between page starts on one host (default {DEFAULT_DELAY_S:g})",
    )
    batch.add_argument(
        "--resume",
        action="store_true",
        help="skip targets already captured in the -o output; failed ones are tried again",
    )
    batch.add_argument(
        "--no-sitewide",
        action="store_true",
        help="keep text blocks that recur across a site's pages (header lines, newsletter "
        "boxes, cookie notices); same as --sitewide-min-share 0",
    )
    batch.add_argument(
        "--sitewide-min-share",
        type=_share,
        default=SITEWIDE_MIN_SHARE,
        metavar="X",
        help="a block on at least this share of a site's pages is removed from each "
        f"(default {SITEWIDE_MIN_SHARE:g}; 0 switches it off)",
    )
    batch.add_argument(
        "--sitewide-min-pages",
        type=_positive_int,
        default=SITEWIDE_MIN_PAGES,
        metavar="N",
        help=f"... and on at least N pages (default {SITEWIDE_MIN_PAGES})",
    )
    return parser


def check_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Usage errors argparse cannot see (exit 2). One TARGET stays a string in ``args.target``;
    with --compare or a batch (``args.batch``) every target is in ``args.targets``."""
    args.compare = args.compare or args.report is not None
    targets = list(args.target)
    if args.bundle and (args.no_render or args.compare or args.from_bundle):
        parser.error(
            "--bundle captures a rendered page: not with --no-render, --compare or --from-bundle"
        )
    if args.from_bundle and (len(targets) != 1 or args.input_list or args.compare):
        parser.error("--from-bundle takes one TARGET, a bundle folder")
    args.batch = not args.compare and (len(targets) > 1 or args.input_list is not None)
    if args.batch:
        _check_batch_args(parser, args)
        args.targets = targets
        return
    if args.resume:
        parser.error("--resume goes with a batch (several TARGETs or -i FILE) and -o")
    if args.format is None:
        args.format = "markdown"
    if not args.compare:
        if not targets:
            parser.error("the following arguments are required: target")
        args.target = targets[0]
        return
    if not targets and not args.input_list:
        parser.error("the following arguments are required: TARGET (or -i FILE)")
    if args.no_render:
        parser.error("--compare runs Reader View in the browser: it does not go with --no-render")
    several = len(targets) > 1 or args.input_list is not None
    if several:
        for flag, value in (
            ("--url", args.url),
            ("--screenshot", args.screenshot),
            ("--save-html", args.save_html),
        ):
            if value:
                parser.error(f"{flag} takes a single TARGET, not a list")
    args.targets = targets


def _check_batch_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    for flag, value in (
        ("--url", args.url),
        ("--screenshot", args.screenshot),
        ("--save-html", args.save_html),
    ):
        if value:
            parser.error(f"{flag} takes a single TARGET, not a batch")
    output = Path(args.output) if args.output else None
    file_format = batch_file_format(output) if output is not None else None
    to_folder = output is not None and file_format is None
    if file_format is not None:
        if args.format not in (None, file_format, "json"):
            parser.error(f"-o {output} is a {file_format} file, but -f {args.format} was given")
        args.format = file_format
    if args.format is None:
        args.format = "jsonl"
    if not to_folder and args.format not in BATCH_STDOUT_FORMATS:
        parser.error(
            f"a batch writes JSON Lines, CSV or XML to stdout or one file; for one "
            f"{args.format} file per page give -o DIR"
        )
    if to_folder and output.exists() and not output.is_dir():  # type: ignore[union-attr]
        parser.error(
            f"-o {output}: not a folder (a batch's single file ends in .jsonl, .csv or .xml)"
        )
    if args.resume and (output is None or file_format not in (None, "jsonl")):
        parser.error("--resume reads the output back: give -o FILE.jsonl or -o DIR")
    if args.input_list == "-" and "-" in args.target:
        parser.error("stdin cannot be both the list (-i -) and a target (-)")


def _non_negative_float(value: str) -> float:
    number = float(value)
    if not number >= 0 or number == float("inf"):
        raise argparse.ArgumentTypeError("must be a number >= 0")
    return number


def _share(value: str) -> float:
    number = float(value)
    if not 0 <= number <= 1:
        raise argparse.ArgumentTypeError("must be between 0 and 1")
    return number


def _positive_float(value: str) -> float:
    number = float(value)
    if not number > 0:
        raise argparse.ArgumentTypeError("must be a positive number")
    return number


def _non_negative_int(value: str) -> int:
    number = int(value)
    if number < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
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


def extract_options(args: argparse.Namespace) -> ExtractOptions:
    """The extraction options the command line asks for (every mode builds them here)."""
    return ExtractOptions(
        # A rendered snapshot is bounded by --max-dom-bytes, the input by --max-bytes.
        max_bytes=max(args.max_bytes, args.max_dom_bytes),
        rules=ALL_RULES - frozenset(args.keep),
        stages=args.stages,
        links=not args.no_links,
        tables=not args.no_tables,
        images=not args.no_images,
        include_comments=args.include_comments,
        min_length=args.min_length,
    )


def render_options(args: argparse.Namespace, **overrides: object) -> RenderOptions:
    """The render options the command line asks for; ``overrides`` are the mode's own."""
    options = RenderOptions(
        budget=args.timeout,
        browser=args.browser,
        readability_js=not args.no_readability_js,
        offline=args.offline,
        screenshot=args.screenshot,
        max_bytes=args.max_bytes,
        max_dom_bytes=args.max_dom_bytes,
        max_elements=args.max_elements,
        max_redirects=args.max_redirects,
        block_private=args.block_private,
    )
    return replace(options, **overrides)  # type: ignore[arg-type]


def sitewide_options(args: argparse.Namespace) -> SitewideOptions | None:
    if args.no_sitewide or args.sitewide_min_share == 0:
        return None
    return SitewideOptions(min_share=args.sitewide_min_share, min_pages=args.sitewide_min_pages)


def render_output(
    extraction: Extraction, output_format: str, *, with_metadata: bool = False
) -> str:
    """The extraction in the requested format, ending with one newline. ``with_metadata``
    puts YAML front matter before Markdown and text."""
    if output_format == "json":
        return extraction.to_json() + "\n"
    if output_format == "jsonl":
        return to_jsonl_line(extraction) + "\n"
    if output_format == "xml":
        return to_xml(extraction)
    if output_format == "csv":
        return csv_line(csv_header()) + csv_line(to_csv_row(extraction))
    body = {"markdown": extraction.markdown, "text": extraction.text, "html": extraction.html}[
        output_format
    ]
    body = headline(extraction.metadata.title, output_format) + body.rstrip("\n") + "\n"
    if extraction.comments is not None and output_format in FRONT_MATTER_FORMATS:
        comments = getattr(extraction.comments, output_format).rstrip("\n")
        heading = "## Comments" if output_format == "markdown" else "Comments"
        body += f"\n{COMMENTS_RULE[output_format]}\n\n{heading}\n\n{comments}\n"
    if with_metadata and output_format in FRONT_MATTER_FORMATS:
        header = front_matter(extraction.metadata, url=extraction.url)
        body = f"{header}\n{body}" if header else body
    return body


def headline(title: str | None, output_format: str) -> str:
    """The page's title as the document's heading, for the Markdown, text and HTML outputs: the
    extracted content leaves the headline out (it is the metadata's title, as in Readability.js
    and schema.org's articleBody), but a document read on its own wants it on top."""
    if not title:
        return ""
    heading = f"<h1>{html.escape(title)}</h1>"
    if output_format == "markdown":  # through the converter, which escapes Markdown syntax
        return html_to_markdown(heading).strip() + "\n\n"
    if output_format == "html":
        return heading + "\n"
    return " ".join(title.split()) + "\n\n"


def should_render(args: argparse.Namespace) -> bool:
    """URLs render unless --no-render; files and stdin only with --render."""
    if args.no_render:
        return False
    return args.render or is_url(args.target)


def render_snapshot(args: argparse.Namespace) -> PageSnapshot:
    with Renderer(render_options(args)) as renderer:
        return renderer.render(args.target, url=args.url, max_bytes=args.max_bytes)


def read_target_list(path: str) -> list[str]:
    """Targets from a list file: one per line; blank lines and # comments are skipped."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise InputNotFoundError(f"{path}: no such list file") from exc
    except (IsADirectoryError, UnicodeDecodeError) as exc:
        raise InputNotFoundError(f"{path}: not a readable text file") from exc
    lines = (line.strip() for line in text.splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def compare_output(entries: list[PageComparison | PageFailure], args: argparse.Namespace) -> str:
    """The comparison on stdout: JSON with -f json, else the text summary."""
    if args.format == "json":
        if len(entries) == 1:
            data: dict[str, object] = {"comparison": entries[0].to_dict()}
        else:
            data = {"comparisons": [entry.to_dict() for entry in entries]}
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    parts = [text_summary(e) for e in entries if isinstance(e, PageComparison)]
    if len(entries) > 1:
        parts.append(text_overview(entries))
    if args.report:
        parts.append(f"report: {args.report}\n")
    return "\n".join(parts)


def run_compare(args: argparse.Namespace) -> int:
    """--compare/--report: every target rendered once in one browser, Reader View against
    readermode. With several targets a page that cannot be rendered becomes a failed row (its
    error on stderr) and the exit code is the first such error's; the outputs are written."""
    targets = list(args.targets)
    if args.input_list:
        targets += read_target_list(args.input_list)
    if not targets:
        raise EmptyInputError(f"{args.input_list}: the list holds no targets")
    options = render_options(args, reader_view=True)
    entries: list[PageComparison | PageFailure] = []
    exit_code = 0
    with Renderer(options) as renderer:
        for target in targets:
            try:
                comparison = compare_page_sync(
                    renderer,
                    target,
                    url=args.url,
                    extract_options=extract_options(args),
                    screenshot=bool(args.report),
                )
            except ReadermodeError as exc:
                if len(targets) == 1:
                    raise
                print(f"readermode: {target}: {exc}", file=sys.stderr)
                entries.append(PageFailure(target=target, error=str(exc), exit_code=exc.exit_code))
                exit_code = exit_code or exc.exit_code
                continue
            # Only --save-html (one target) needs the snapshot: a long list must not keep them.
            entries.append(comparison if len(targets) == 1 else replace(comparison, snapshot=None))
    if args.save_html and isinstance(entries[0], PageComparison) and entries[0].snapshot:
        Path(args.save_html).write_text(inert_page_html(entries[0].snapshot.html), encoding="utf-8")
    if args.report:
        Path(args.report).write_text(html_report(entries), encoding="utf-8")
    text = compare_output(entries, args)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
    return exit_code


def run_batch_command(args: argparse.Namespace) -> int:
    """A batch: every target captured (one browser, --jobs at a time), one JSON line per page on
    stdout or in -o FILE.jsonl, or one file per page in -o DIR with an index.jsonl. The exit code
    is 0 when every page was captured, else the first failed target's (in input order)."""
    targets = list(args.targets)
    if args.input_list:
        targets += read_target_list(args.input_list)
    if not targets:
        raise EmptyInputError(f"{args.input_list}: the list holds no targets")
    output = Path(args.output) if args.output else None
    to_folder = output is not None and batch_file_format(output) is None
    done: set[str] = set()
    if args.resume and output is not None:
        done = resume_jsonl(
            output / INDEX_NAME if to_folder else output, folder=output if to_folder else None
        )
    todo = [target for target in dict.fromkeys(targets) if target not in done]
    if to_folder:
        output_format = args.format
        sink: FolderSink | JsonLinesSink | CsvSink | XmlSink = FolderSink(
            output,  # type: ignore[arg-type]
            extension=EXTENSIONS.get(output_format, "." + output_format),
            render=lambda extraction: render_output(
                extraction, output_format, with_metadata=args.with_metadata
            ),
            append=args.resume,
        )
    elif output is not None:
        output.parent.mkdir(parents=True, exist_ok=True)
        stream = output.open("a" if args.resume else "w", encoding="utf-8", newline="")
        sink = open_batch_sink(args.format, stream, owns_stream=True, append=args.resume)
    else:
        sink = open_batch_sink(args.format, sys.stdout, owns_stream=False)
    options = BatchOptions(
        jobs=args.jobs,
        per_host=args.per_host,
        delay=args.delay,
        render=False if args.no_render else (True if args.render else None),
        render_options=render_options(args),
        extract_options=extract_options(args),
        sitewide=sitewide_options(args),
        bundle_folder=(lambda target: Path(args.bundle) / page_file_name(target, ""))
        if args.bundle
        else None,
    )
    progress = BatchProgress(len(todo))
    try:
        summary = asyncio.run(run_batch(todo, options, emit=sink.write, on_done=progress.update))
    finally:
        progress.close()
        sink.close()
    return summary.exit_code


def run(args: argparse.Namespace) -> int:
    if args.compare:
        return run_compare(args)
    if args.batch:
        return run_batch_command(args)
    options = extract_options(args)
    if args.from_bundle:
        extraction = extract_from_bundle(Path(args.target))
    elif args.bundle:
        with Renderer(render_options(args)) as renderer:
            extraction = renderer.capture_bundle(
                args.target, args.bundle, url=args.url, extract_options=options
            )
    else:
        if should_render(args):
            snapshot = render_snapshot(args)
        else:
            snapshot = static_snapshot(
                args.target,
                url=args.url,
                timeout=args.timeout,
                max_bytes=args.max_bytes,
                max_redirects=args.max_redirects,
                block_private=args.block_private,
            )
        if args.save_html:
            Path(args.save_html).write_text(inert_page_html(snapshot.html), encoding="utf-8")
        extraction = extract(snapshot, options=options)
    text = render_output(extraction, args.format, with_metadata=args.with_metadata)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console command; returns the exit code."""
    parser = build_parser()
    args = parser.parse_intermixed_args(argv)
    check_args(parser, args)
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
