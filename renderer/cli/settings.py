"""The extraction, render and site-wide options a command line asks for: every mode builds
them here, so one flag means the same thing in each."""

from __future__ import annotations

import argparse
from dataclasses import replace

from extractor import ALL_RULES, ExtractOptions, SitewideOptions
from renderer.browser.options import RenderOptions
from renderer.browser.steps import load_steps
from renderer.fetch.controls import RequestControls, load_cookies


def extract_options(args: argparse.Namespace) -> ExtractOptions:
    """The extraction options of the command line."""
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


def render_options(args: argparse.Namespace, *, reader_view: bool = False) -> RenderOptions:
    """The render options of the command line; ``reader_view`` for --compare."""
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
        fetch_everything=args.fetch_all,
        request=request_controls(args),
        viewport=args.viewport,
        wait_for=args.wait_for,
        actions=load_steps(args.actions) if args.actions else (),
    )
    return replace(options, reader_view=True) if reader_view else options


def request_controls(args: argparse.Namespace) -> RequestControls:
    """User-Agent, headers, cookies, proxy and locale of the command line."""
    return RequestControls(
        user_agent=args.user_agent,
        headers=tuple(args.header),
        cookies=load_cookies(args.cookies) if args.cookies else (),
        proxy=args.proxy,
        locale=args.locale,
    )


def sitewide_options(args: argparse.Namespace) -> SitewideOptions | None:
    """Site-wide boilerplate removal for a batch, or None when switched off."""
    if args.no_sitewide or args.sitewide_min_share == 0:
        return None
    return SitewideOptions(min_share=args.sitewide_min_share, min_pages=args.sitewide_min_pages)
