"""The terminal's view of Reader View QA: one comparison summed up, and one line per page of
a multi-page run."""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from renderer.qa.align import align, blocks_of, collapse_space, diff_stats
from renderer.qa.compare import PageComparison, PageFailure

Entry = PageComparison | PageFailure


def _num(value: float) -> str:
    return f"{value:.3f}"


def _clip(text: str, limit: int = 96) -> str:
    text = collapse_space(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def text_summary(comparison: PageComparison, *, passages: int = 5) -> str:
    """A readable terminal summary of one comparison."""
    rv, rm, s = comparison.reader_view, comparison.readermode, comparison.scores
    rows = align(blocks_of(rv.html), blocks_of(rm.html))
    stats = diff_stats(rows)

    def yes_no(value: bool | None) -> str:
        return "unknown" if value is None else "yes" if value else "no"

    lines = [
        f"Reader View vs readermode: {comparison.final_url or comparison.url or comparison.target}",
        f"  scores       precision {_num(s.precision)}  recall {_num(s.recall)}  F1 {_num(s.f1)}"
        "  (readermode's words against Reader View's)",
        f"  readerable   {yes_no(rv.readerable)} (isProbablyReaderable on the live page)",
        "  Reader View  "
        + (
            f"{len(rv.text.split())} words, title {rv.title!r}"
            + (f", byline {rv.byline!r}" if rv.byline else "")
            if rv.found
            else "found no article"
        ),
        "  readermode   "
        + (
            f"{len(rm.text.split())} words from stage {rm.stage}"
            if rm.stage
            else "found no content"
        ),
        f"  why          {rm.stage_reason}",
        f"  blocks       {stats.equal} identical, {stats.changed} changed, "
        f"{stats.only_reader_view} only in Reader View, {stats.only_readermode} only in readermode",
    ]
    for kind, label, sign in (
        ("delete", "only in Reader View (missing from readermode)", "-"),
        ("insert", "only in readermode (added)", "+"),
    ):
        picked = [row.left if kind == "delete" else row.right for row in rows if row.kind == kind]
        if picked:
            lines.append(f"  {label}:")
            lines.extend(
                f"    {sign} {_clip(block.text or '(image)')}"
                for block in picked[:passages]
                if block
            )
            if len(picked) > passages:
                lines.append(f"    ... and {len(picked) - passages} more")
    if comparison.warnings:
        lines.append("  warnings     " + "; ".join(comparison.warnings))
    return "\n".join(lines) + "\n"


def text_overview(entries: Sequence[Entry]) -> str:
    """One line per page, then the mean F1: the end of a multi-page text summary."""
    lines = [f"{'F1':>6} {'P':>6} {'R':>6}  {'stage':<16} page"]
    f1s = []
    for entry in entries:
        if isinstance(entry, PageFailure):
            lines.append(f"{'-':>6} {'-':>6} {'-':>6}  {'error':<16} {entry.target}: {entry.error}")
            continue
        s = entry.scores
        f1s.append(s.f1)
        lines.append(
            f"{_num(s.f1):>6} {_num(s.precision):>6} {_num(s.recall):>6}  "
            f"{entry.readermode.stage or 'none':<16} {entry.target}"
        )
    if f1s:
        lines.append(f"mean F1 {_num(statistics.fmean(f1s))} over {len(f1s)} page(s)")
    return "\n".join(lines) + "\n"
