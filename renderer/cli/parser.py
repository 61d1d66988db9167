"""The ``readermode`` argument parser, one helper per option group, and its value types.

Defaults come from the modules that own them (``DEFAULT_TIMEOUT_S`` from the static fetcher,
the snapshot caps from ``RenderOptions``, the batch's politeness from the batch runner), so the
help text and the behaviour cannot drift apart. Nothing here loads Playwright.
"""

from __future__ import annotations

import argparse
import re
from urllib.parse import urlsplit

from extractor import (
    ALL_RULES,
    DEFAULT_MAX_BYTES,
    SITEWIDE_MIN_PAGES,
    SITEWIDE_MIN_SHARE,
    STAGES_BY_NAME,
    Stage,
)
from renderer.batch.ray_runner import DEFAULT_ACTORS
from renderer.batch.runner import DEFAULT_DELAY_S, DEFAULT_JOBS, DEFAULT_PER_HOST
from renderer.browser.options import (
    DEFAULT_MAX_DOM_BYTES,
    DEFAULT_MAX_ELEMENTS,
    DEFAULT_MAX_REDIRECTS,
)
from renderer.discover import DEFAULT_MAX_DEPTH, DEFAULT_MAX_PAGES
from renderer.fetch.controls import parse_header, proxy_host
from renderer.fetch.http import DEFAULT_TIMEOUT_S

FORMATS = ("markdown", "text", "html", "json", "jsonl", "xml", "csv")
URL_SCHEMES = ("http", "https")
"""What ``--url`` may be: the address a saved page came from."""


def build_parser() -> argparse.ArgumentParser:
    """The whole command line: targets and output, then each option group in --help order."""
    parser = argparse.ArgumentParser(
        prog="readermode",
        description="Read the main content out of a web page.",
        epilog="Exit codes: 0 ok, 2 usage, 3-8 bad input, 9-14 and 16-17 fetch/render, "
        "15 and 18 no content, 19 output not written, 70 internal error (see README).",
    )
    _add_target_and_output(parser)
    _add_fetch_options(parser)
    _add_extraction_switches(parser)
    _add_limits(parser)
    _add_bundle_options(parser)
    _add_content_options(parser)
    _add_qa_options(parser)
    _add_batch_options(parser)
    _add_discovery_options(parser)
    _add_request_controls(parser)
    return parser


def _add_target_and_output(parser: argparse.ArgumentParser) -> None:
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


def _add_fetch_options(parser: argparse.ArgumentParser) -> None:
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
        "--url",
        type=page_url,
        help="original URL of a file or stdin: relative links resolve against it",
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
    parser.add_argument(
        "--fetch-all",
        action="store_true",
        help="when rendering, fetch fonts, audio, video and analytics or ad scripts too "
        "(refused by default: the text never needs them)",
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
        type=positive_float,
        default=DEFAULT_TIMEOUT_S,
        metavar="S",
        help=f"time budget in seconds for the whole fetch or render (default {DEFAULT_TIMEOUT_S:g})",
    )
    parser.add_argument(
        "--max-bytes",
        type=positive_int,
        default=DEFAULT_MAX_BYTES,
        metavar="N",
        help=f"refuse input larger than this (default {DEFAULT_MAX_BYTES:,})",
    )


def _add_extraction_switches(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--stages",
        type=stage_list,
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


def _add_limits(parser: argparse.ArgumentParser) -> None:
    limits = parser.add_argument_group("Limits (each error names the one it hit)")
    limits.add_argument(
        "--max-dom-bytes",
        type=positive_int,
        default=DEFAULT_MAX_DOM_BYTES,
        metavar="N",
        help="cut the rendered snapshot at this many bytes (a partial result with a warning; "
        f"default {DEFAULT_MAX_DOM_BYTES:,})",
    )
    limits.add_argument(
        "--max-elements",
        type=positive_int,
        default=DEFAULT_MAX_ELEMENTS,
        metavar="N",
        help="cut the rendered snapshot after this many elements (partial, with a warning; "
        f"default {DEFAULT_MAX_ELEMENTS:,})",
    )
    limits.add_argument(
        "--max-redirects",
        type=non_negative_int,
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


def _add_bundle_options(parser: argparse.ArgumentParser) -> None:
    bundle = parser.add_argument_group("Capture bundles")
    bundle.add_argument(
        "--bundle",
        metavar="DIR",
        help="also write a capture bundle: snapshot, MHTML archive, screenshot, extraction "
        "JSON and Markdown, manifest (a batch: one subfolder per rendered page)",
    )
    bundle.add_argument(
        "--from-bundle",
        action="store_true",
        help="TARGET is a bundle folder: extract it again offline, with the options it was "
        "captured with",
    )


def _add_content_options(parser: argparse.ArgumentParser) -> None:
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
        type=non_negative_int,
        default=0,
        metavar="N",
        help="a result under N words is an error (exit 18, status content-too-short in a "
        "batch) rather than output",
    )


def _add_qa_options(parser: argparse.ArgumentParser) -> None:
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


def _add_batch_options(parser: argparse.ArgumentParser) -> None:
    batch = parser.add_argument_group("Batch (several TARGETs or -i LIST)")
    batch.add_argument(
        "-i",
        "--input-list",
        metavar="FILE",
        help="read more targets from FILE, one per line, # comments allowed (- for stdin)",
    )
    batch.add_argument(
        "--jobs",
        type=positive_int,
        default=DEFAULT_JOBS,
        metavar="N",
        help=f"pages captured at once (default {DEFAULT_JOBS})",
    )
    batch.add_argument(
        "--per-host",
        type=positive_int,
        default=DEFAULT_PER_HOST,
        metavar="N",
        help=f"pages captured at once from one host (default {DEFAULT_PER_HOST})",
    )
    batch.add_argument(
        "--delay",
        type=non_negative_float,
        default=DEFAULT_DELAY_S,
        metavar="S",
        help=f"seconds between page starts on one host (default {DEFAULT_DELAY_S:g})",
    )
    batch.add_argument(
        "--resume",
        action="store_true",
        help="skip targets already captured in the -o output; failed ones are tried again",
    )
    _add_sitewide_options(batch)


def _add_sitewide_options(batch: argparse._ArgumentGroup) -> None:
    batch.add_argument(
        "--no-sitewide",
        action="store_true",
        help="keep text blocks that recur across a site's pages (header lines, newsletter "
        "boxes, cookie notices); same as --sitewide-min-share 0",
    )
    batch.add_argument(
        "--sitewide-min-share",
        type=share,
        default=SITEWIDE_MIN_SHARE,
        metavar="X",
        help="a block on at least this share of a site's pages is removed from each "
        f"(default {SITEWIDE_MIN_SHARE:g}; 0 switches it off)",
    )
    batch.add_argument(
        "--sitewide-min-pages",
        type=positive_int,
        default=SITEWIDE_MIN_PAGES,
        metavar="N",
        help=f"... and on at least N pages (default {SITEWIDE_MIN_PAGES})",
    )


def _add_discovery_options(parser: argparse.ArgumentParser) -> None:
    sites = parser.add_argument_group("Whole sites: discovery, politeness, memory")
    sites.add_argument(
        "--sitemap",
        action="append",
        default=[],
        type=page_url,
        metavar="URL",
        help="capture the pages of a sitemap (index files and .gz followed; a site's root "
        "URL: its robots.txt Sitemap: lines, else /sitemap.xml); repeatable",
    )
    sites.add_argument(
        "--feed",
        action="append",
        default=[],
        type=page_url,
        metavar="URL",
        help="capture the entries of an RSS or Atom feed; repeatable",
    )
    sites.add_argument(
        "--crawl",
        action="append",
        default=[],
        type=page_url,
        metavar="URL",
        help="capture the pages found by following a site's internal links from URL "
        "(rendered, so links made by JavaScript count; static with --no-render); repeatable",
    )
    sites.add_argument(
        "--max-pages",
        type=positive_int,
        default=DEFAULT_MAX_PAGES,
        metavar="N",
        help=f"URLs discovery collects, and pages a crawl fetches (default {DEFAULT_MAX_PAGES})",
    )
    sites.add_argument(
        "--max-depth",
        type=non_negative_int,
        default=DEFAULT_MAX_DEPTH,
        metavar="D",
        help=f"links a crawl follows from its start (default {DEFAULT_MAX_DEPTH})",
    )
    sites.add_argument(
        "--include", type=regex, metavar="REGEX", help="keep only discovered URLs matching it"
    )
    sites.add_argument(
        "--exclude", type=regex, metavar="REGEX", help="drop discovered URLs matching it"
    )
    sites.add_argument(
        "--list-only",
        action="store_true",
        help="print the discovered URLs, one a line (or to -o FILE), instead of capturing them",
    )
    _add_politeness_options(sites)


def _add_politeness_options(sites: argparse._ArgumentGroup) -> None:
    sites.add_argument(
        "--ignore-robots",
        action="store_true",
        help="do not read robots.txt (obeyed by default, Crawl-delay included); each page's "
        "trace says so",
    )
    sites.add_argument(
        "--seen",
        metavar="DB",
        help="SQLite file remembering what was captured: targets captured successfully "
        "within --max-age are skipped",
    )
    sites.add_argument(
        "--max-age",
        type=duration,
        metavar="AGE",
        help="with --seen: how long a capture counts, in seconds or with s/m/h/d "
        "(default: forever)",
    )
    sites.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="run the batch on a Ray cluster (ray start --head; ADDRESS host:port or auto); "
        "alone, on a local one started for the run (pip install 'readermode[ray]')",
    )
    sites.add_argument(
        "--ray-actors",
        type=positive_int,
        default=DEFAULT_ACTORS,
        metavar="N",
        help=f"with --ray: actors, one browser each (default {DEFAULT_ACTORS})",
    )
    sites.add_argument(
        "--shard",
        type=shard,
        metavar="K/N",
        help="capture only part K of N of the targets, split by host (each host's pages in "
        "one part), for other runners to split a list",
    )


def _add_request_controls(parser: argparse.ArgumentParser) -> None:
    controls = parser.add_argument_group("Request controls (static fetch and browser)")
    controls.add_argument("--user-agent", metavar="UA", help="the User-Agent header to send")
    controls.add_argument(
        "--header",
        action="append",
        default=[],
        type=header,
        metavar="'K: V'",
        help="an extra request header; repeatable",
    )
    controls.add_argument(
        "--cookies",
        metavar="FILE",
        help="cookies to send: a Netscape cookies.txt or the JSON Playwright writes",
    )
    controls.add_argument(
        "--proxy", type=proxy_url, metavar="URL", help="send every request through this proxy"
    )
    controls.add_argument(
        "--locale", metavar="LANG", help="the browser's locale and Accept-Language (de-DE)"
    )
    controls.add_argument(
        "--viewport", type=viewport, metavar="WxH", help="the browser's window size (1280x900)"
    )
    controls.add_argument(
        "--wait-for",
        metavar="SELECTOR",
        help="when rendering, wait until this CSS selector matches before reading the page",
    )
    controls.add_argument(
        "--actions",
        metavar="FILE",
        help="when rendering, run these steps first: a JSON list of click, type, press, "
        "scroll, wait_for, wait and screenshot steps (see README)",
    )


# Value types: argparse turns ArgumentTypeError (and ValueError) into a usage error, exit 2.


def non_negative_float(value: str) -> float:
    number = float(value)
    if not number >= 0 or number == float("inf"):
        raise argparse.ArgumentTypeError("must be a number >= 0")
    return number


def share(value: str) -> float:
    number = float(value)
    if not 0 <= number <= 1:
        raise argparse.ArgumentTypeError("must be between 0 and 1")
    return number


def positive_float(value: str) -> float:
    number = float(value)
    if not number > 0:
        raise argparse.ArgumentTypeError("must be a positive number")
    return number


def non_negative_int(value: str) -> int:
    number = int(value)
    if number < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return number


def positive_int(value: str) -> int:
    number = int(value)
    if number <= 0:
        raise argparse.ArgumentTypeError("must be a positive integer")
    return number


def stage_list(value: str) -> tuple[Stage, ...]:
    names = [name.strip() for name in value.split(",") if name.strip()]
    unknown = [name for name in names if name not in STAGES_BY_NAME]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown stage {', '.join(unknown) or '(none)'}; "
            f"choose from {', '.join(STAGES_BY_NAME)}"
        )
    return tuple(STAGES_BY_NAME[name] for name in names)


def page_url(value: str) -> str:
    """An absolute http(s) URL with a host: what a page's links can be resolved against."""
    try:
        parts = urlsplit(value.strip())
        host = parts.hostname
        parts.port  # noqa: B018 - a port that is no number raises ValueError here
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a URL: {exc}") from exc
    if parts.scheme.lower() not in URL_SCHEMES or not host:
        raise argparse.ArgumentTypeError("must be an absolute http:// or https:// URL")
    return value.strip()


def regex(value: str) -> re.Pattern[str]:
    try:
        return re.compile(value)
    except re.error as exc:
        raise argparse.ArgumentTypeError(f"not a regular expression: {exc}") from exc


_DURATION_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


def duration(value: str) -> float:
    """Seconds, or a number with s, m, h or d."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*", value.lower())
    if not match:
        raise argparse.ArgumentTypeError("must be seconds or a number with s, m, h or d (7d)")
    return float(match[1]) * _DURATION_UNITS[match[2]]


def shard(value: str) -> tuple[int, int]:
    """K/N with 1 <= K <= N."""
    match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", value)
    if not match or not 1 <= int(match[1]) <= int(match[2]):
        raise argparse.ArgumentTypeError("must be K/N with 1 <= K <= N (e.g. 2/4)")
    return int(match[1]), int(match[2])


def header(value: str) -> tuple[str, str]:
    try:
        return parse_header(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def proxy_url(value: str) -> str:
    try:
        proxy_host(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc
    return value if "://" in value else "http://" + value


def viewport(value: str) -> tuple[int, int]:
    """WxH, each between 100 and 10000 pixels."""
    match = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", value)
    if not match or not all(100 <= int(side) <= 10_000 for side in match.groups()):
        raise argparse.ArgumentTypeError("must be WIDTHxHEIGHT, 100 to 10000 each (1280x900)")
    return int(match[1]), int(match[2])
