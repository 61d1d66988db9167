"""One target: rendered (URLs) or read statically (files, stdin, ``--no-render``), extracted,
written; or captured into a bundle, or a bundle extracted again."""

from __future__ import annotations

import sys
from pathlib import Path

from extractor import Extraction, PageSnapshot, extract, inert_page_html
from renderer.browser.bundle import extract_from_bundle
from renderer.browser.steps import with_action_trace
from renderer.cli.invocation import Invocation, Mode
from renderer.cli.output import render_output, write_file, write_result
from renderer.cli.settings import extract_options, render_options, request_controls
from renderer.fetch.static import is_url, static_snapshot


def run_page(invocation: Invocation) -> int:
    """``readermode TARGET``, ``--bundle DIR`` and ``--from-bundle``: exit code 0 once written."""
    args = invocation.options
    if invocation.mode is Mode.FROM_BUNDLE:
        extraction = extract_from_bundle(Path(invocation.target))
    elif invocation.mode is Mode.BUNDLE:
        extraction = _capture_bundle(invocation)
    else:
        snapshot = _render(invocation) if should_render(invocation) else _fetch(invocation)
        if args.save_html:
            write_file(args.save_html, inert_page_html(snapshot.page_html))
        extraction = with_action_trace(extract(snapshot, options=extract_options(args)), snapshot)
    text = render_output(extraction, invocation.format, with_metadata=args.with_metadata)
    write_result(text, args.output)
    # JSON carries them too; in the other formats stderr is the only place a reader of the
    # output learns it may be a page of leftovers ("low confidence: ... empty listing").
    for warning in extraction.warnings:
        print(f"readermode: warning: {warning}", file=sys.stderr)
    return 0


def should_render(invocation: Invocation) -> bool:
    """URLs render unless --no-render; files and stdin only with --render."""
    args = invocation.options
    if args.no_render:
        return False
    return args.render or is_url(invocation.target)


def _render(invocation: Invocation) -> PageSnapshot:
    # Imported here: the static path (files, --no-render) never loads Playwright.
    from renderer.browser.api import Renderer

    args = invocation.options
    with Renderer(render_options(args)) as renderer:
        return renderer.render(invocation.target, url=args.url, max_bytes=args.max_bytes)


def _fetch(invocation: Invocation) -> PageSnapshot:
    args = invocation.options
    return static_snapshot(
        invocation.target,
        url=args.url,
        timeout=args.timeout,
        max_bytes=args.max_bytes,
        max_redirects=args.max_redirects,
        block_private=args.block_private,
        controls=request_controls(args),
    )


def _capture_bundle(invocation: Invocation) -> Extraction:
    from renderer.browser.api import Renderer

    args = invocation.options
    with Renderer(render_options(args)) as renderer:
        return renderer.capture_bundle(
            invocation.target, args.bundle, url=args.url, extract_options=extract_options(args)
        )
