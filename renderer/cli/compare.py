"""``--compare`` / ``--report``: every target rendered once in one browser, Firefox Reader View
against readermode, as a text summary, JSON or a self-contained HTML report."""

from __future__ import annotations

import json
import sys
from dataclasses import replace

from extractor import ReadermodeError, inert_page_html
from renderer.cli.invocation import Invocation
from renderer.cli.output import write_file, write_result
from renderer.cli.settings import extract_options, render_options
from renderer.cli.targets import all_targets
from renderer.qa.compare import PageComparison, PageFailure, compare_page_sync
from renderer.qa.report import html_report
from renderer.qa.summary import text_overview, text_summary

Entry = PageComparison | PageFailure


def run_compare(invocation: Invocation) -> int:
    """With several targets a page that cannot be rendered becomes a failed row (its error on
    stderr) and the exit code is the first such error's; the outputs are still written."""
    from renderer.browser.api import Renderer  # the browser only when this mode runs

    args = invocation.options
    targets = all_targets(invocation)
    entries: list[Entry] = []
    exit_code = 0
    with Renderer(render_options(args, reader_view=True)) as renderer:
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
    first = entries[0]
    if args.save_html and isinstance(first, PageComparison) and first.snapshot:
        write_file(args.save_html, inert_page_html(first.snapshot.page_html))
    if args.report:
        write_file(args.report, html_report(entries))
    write_result(compare_output(entries, invocation), args.output)
    return exit_code


def compare_output(entries: list[Entry], invocation: Invocation) -> str:
    """The comparison on stdout: JSON with -f json, else the text summary."""
    if invocation.format == "json":
        if len(entries) == 1:
            data: dict[str, object] = {"comparison": entries[0].to_dict()}
        else:
            data = {"comparisons": [entry.to_dict() for entry in entries]}
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    parts = [text_summary(e) for e in entries if isinstance(e, PageComparison)]
    if len(entries) > 1:
        parts.append(text_overview(entries))
    if invocation.options.report:
        parts.append(f"report: {invocation.options.report}\n")
    return "\n".join(parts)
