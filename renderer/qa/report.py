"""Reader View QA's self-contained HTML report: one page's comparison, or a summary of many.

Pure Python (string building with ``html.escape``), so it is tested without a browser. The HTML report loads nothing: inline CSS, no
script, the screenshot as a ``data:`` PNG, and a Content-Security-Policy that refuses anything
else (page images are shown as placeholders). Every piece of page HTML in it went through
``extractor.sanitize_html``; every piece of page text is escaped.

The side-by-side view shows the alignment of ``align.py`` (blocks only one side has marked
whole, words diffed inside a changed pair); the terminal's summary is ``summary.py``.
"""

from __future__ import annotations

import base64
import html
import math
import statistics
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import PurePosixPath
from urllib.parse import urlsplit

import lxml.html

from extractor import parse_fragment, sanitize_html
from renderer.qa.align import (
    HEADINGS,
    Block,
    Row,
    align,
    blocks_of,
    diff_stats,
    serialise,
    word_diff,
)
from renderer.qa.compare import PNG_SIGNATURE, PageComparison, PageFailure

Entry = PageComparison | PageFailure

FOLD_MIN = 9
"""A run of at least this many identical blocks is folded, ..."""
FOLD_CONTEXT = 2
"""... keeping this many open at each end."""
CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'"


# --- rendering blocks -----------------------------------------------------------------------


def _placeholder_images(clean_html: str) -> str:
    """Swap images (which the report's CSP would refuse anyway) for a labelled placeholder."""
    if "<img" not in clean_html:
        return clean_html
    root = parse_fragment(clean_html)
    for img in list(root.iter("img")):
        name = PurePosixPath(urlsplit(img.get("src") or "").path).name or "image"
        label = img.get("alt") or name
        span = lxml.html.Element("span")
        span.set("class", "img")
        span.set("title", img.get("src") or "")
        span.text = f"image: {label}"
        span.tail = img.tail
        if (parent := img.getparent()) is not None:  # always: root itself is no <img>
            parent.replace(img, span)
    return html.escape(root.text or "", quote=False) + "".join(
        serialise(child) + html.escape(child.tail or "", quote=False) for child in root
    )


def _block_html(block: Block) -> str:
    """A block's page HTML for the report: sanitised again, images as placeholders, list items
    and definition parts inside their list."""
    inner = _placeholder_images(sanitize_html(block.html))
    if block.tag == "li":
        start = f' start="{block.start}"' if block.list_tag == "ol" and block.start else ""
        return f"<{block.list_tag}{start}>{inner}</{block.list_tag}>"
    if block.tag in ("dt", "dd"):
        return f"<dl>{inner}</dl>"
    return inner


def _text_tag(block: Block) -> tuple[str, str]:
    """Open and close markup for a block rendered as diffed text."""
    if block.tag == "li":
        start = f' start="{block.start}"' if block.list_tag == "ol" and block.start else ""
        return f"<{block.list_tag}{start}><li>", f"</li></{block.list_tag}>"
    if block.tag in HEADINGS or block.tag in ("pre", "blockquote"):
        return f"<{block.tag}>", f"</{block.tag}>"
    return "<p>", "</p>"


def _wrap_text(block: Block, marked: str) -> str:
    opening, closing = _text_tag(block)
    return opening + marked + closing


def _row_html(row: Row) -> str:
    if row.kind == "equal":
        assert row.left is not None and row.right is not None
        left, right = _block_html(row.left), _block_html(row.right)
    elif row.kind == "change":
        assert row.left is not None and row.right is not None
        old, new = word_diff(row.left.text, row.right.text)
        left, right = _wrap_text(row.left, old), _wrap_text(row.right, new)
    elif row.kind == "delete":
        assert row.left is not None
        left = f'<del class="rem blk">{_block_html(row.left)}</del>'
        right = '<span class="gap" aria-label="not in readermode"></span>'
    else:
        assert row.right is not None
        left = '<span class="gap" aria-label="not in Reader View"></span>'
        right = f'<ins class="add blk">{_block_html(row.right)}</ins>'
    return (
        f'<div class="cell rv {row.kind}">{left}</div><div class="cell rm {row.kind}">{right}</div>'
    )


def side_by_side(rows: Sequence[Row]) -> str:
    """The two columns, row-aligned; long runs of identical blocks folded."""
    parts = [
        '<div class="sbs">',
        '<div class="colhead rv">Reader View <small>Readability.js on the live page, '
        "as Firefox shows it</small></div>",
        '<div class="colhead rm">readermode <small>final result of the cascade</small></div>',
    ]
    if not rows:
        parts.append('<div class="cell empty">Neither side has any content.</div>')
    index = 0
    while index < len(rows):
        end = index
        while end < len(rows) and rows[end].kind == "equal":
            end += 1
        run = end - index
        if run >= FOLD_MIN:
            hidden = rows[index + FOLD_CONTEXT : end - FOLD_CONTEXT]
            parts.extend(_row_html(row) for row in rows[index : index + FOLD_CONTEXT])
            parts.append(
                f'<details class="fold"><summary>{len(hidden)} identical blocks</summary>'
                '<div class="sbs inner">'
                + "".join(_row_html(row) for row in hidden)
                + "</div></details>"
            )
            parts.extend(_row_html(row) for row in rows[end - FOLD_CONTEXT : end])
            index = end
        elif run:
            parts.extend(_row_html(row) for row in rows[index:end])
            index = end
        else:
            parts.append(_row_html(rows[index]))
            index += 1
    parts.append("</div>")
    return "".join(parts)


# --- one page -------------------------------------------------------------------------------


def _e(value: object) -> str:
    return html.escape("" if value is None else str(value))


def _or_dash(value: object) -> str:
    return _e(value) if value not in (None, "") else '<span class="none">—</span>'


def _clamped(value: str | None) -> str:
    """Long text cut to a few lines on screen (all of it stays in the page)."""
    return f'<div class="clamp">{_e(value)}</div>' if value else _or_dash(value)


def _yes_no(value: bool | None) -> str:
    if value is None:
        return '<span class="none">unknown</span>'
    return '<span class="yes">yes</span>' if value else '<span class="no">no</span>'


def _f1_class(f1: float) -> str:
    return "good" if f1 >= 0.95 else "fair" if f1 >= 0.8 else "poor"


def _num(value: float) -> str:
    return f"{value:.3f}"


def _png_data_uri(png: bytes | None) -> str | None:
    if not png or not png.startswith(PNG_SIGNATURE):
        return None
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def _safe_link(url: str | None) -> str:
    """An http(s) URL as a link (escaped), anything else as text."""
    if not url:
        return '<span class="none">—</span>'
    if urlsplit(url).scheme in ("http", "https"):
        return f'<a href="{_e(url)}">{_e(url)}</a>'
    return _e(url)


def metadata_table(comparison: PageComparison) -> str:
    rv, rm = comparison.reader_view, comparison.readermode
    meta = rm.metadata
    s = comparison.scores
    rows = [
        ("Title", _or_dash(rv.title), _or_dash(meta.title)),
        ("Byline / author", _or_dash(rv.byline), _or_dash(meta.author)),
        ("Excerpt / description", _clamped(rv.excerpt), _clamped(meta.description)),
        ("Site name", _or_dash(rv.site_name), _or_dash(meta.site_name)),
        ("Language", _or_dash(rv.lang), _or_dash(meta.lang)),
        ("Published", _or_dash(rv.published_time), _or_dash(meta.date)),
        ("Words", str(len(rv.text.split())), str(len(rm.text.split()))),
    ]
    body = "".join(f"<tr><th>{name}</th><td>{a}</td><td>{b}</td></tr>" for name, a, b in rows)
    found = "" if rv.found else ' <span class="no">(found no article)</span>'
    wide = [
        ("Readerable", _yes_no(rv.readerable) + found + " <small>isProbablyReaderable</small>"),
        (
            "Stage",
            (f"<code>{_e(rm.stage)}</code>" if rm.stage else '<span class="no">none</span>')
            + f' <span class="why">{_e(rm.stage_reason)}</span>',
        ),
        (
            "Scores",
            f'<span class="score">P <b>{_num(s.precision)}</b></span> '
            f'<span class="score">R <b>{_num(s.recall)}</b></span> '
            f'<span class="score f1 {_f1_class(s.f1)}">F1 <b>{_num(s.f1)}</b></span>'
            " <small>words of readermode against Reader View</small>",
        ),
        ("URL", _safe_link(comparison.final_url or comparison.url or comparison.target)),
    ]
    if comparison.warnings:
        wide.append(("Warnings", "<br>".join(_e(w) for w in comparison.warnings)))
    body += "".join(f'<tr><th>{name}</th><td colspan="2">{value}</td></tr>' for name, value in wide)
    return (
        '<table class="meta"><thead><tr><th></th><th>Reader View</th><th>readermode</th></tr>'
        f"</thead><tbody>{body}</tbody></table>"
    )


def trace_table(comparison: PageComparison) -> str:
    if not comparison.trace:
        return ""
    rows = "".join(
        f'<tr class="{_e(t.outcome)}"><td>{_e(t.kind)}</td><td>{_e(t.name)}</td>'
        f"<td>{_e(t.outcome)}</td><td>{_e(t.reason)}</td>"
        f"<td>{'' if t.count is None else t.count}</td>"
        f"<td>{'' if t.words is None else t.words}</td></tr>"
        for t in comparison.trace
    )
    return (
        '<details class="trace"><summary>Trace</summary><table><thead><tr><th>kind</th>'
        "<th>name</th><th>outcome</th><th>reason</th><th>count</th><th>words</th></tr></thead>"
        f"<tbody>{rows}</tbody></table></details>"
    )


LEGEND = (
    '<div class="legend"><span class="key rem">Reader View only</span> missing from readermode'
    '<span class="key add">readermode only</span> added by readermode'
    '<span class="key chg">changed</span> words differ inside a paragraph</div>'
)


def page_section(comparison: PageComparison, *, anchor: str, number: int | None = None) -> str:
    rv, rm = comparison.reader_view, comparison.readermode
    rows = align(blocks_of(rv.html), blocks_of(rm.html))
    stats = diff_stats(rows)
    title = rv.title or rm.metadata.title or comparison.target
    prefix = f"{number}. " if number is not None else ""
    shot = _png_data_uri(comparison.screenshot_png)
    screenshot = (
        f'<figure class="shot"><div class="frame"><img src="{shot}" alt="screenshot of the '
        f'rendered page"></div><figcaption>The rendered page (full page)</figcaption></figure>'
        if shot
        else '<figure class="shot none">no screenshot</figure>'
    )
    counts = (
        f'<p class="counts">{stats.equal} identical, {stats.changed} changed, '
        f'<span class="c-rem">{stats.only_reader_view} only in Reader View</span>, '
        f'<span class="c-add">{stats.only_readermode} only in readermode</span> blocks</p>'
    )
    back = '<a class="back" href="#summary">↑ summary</a>' if number is not None else ""
    return (
        f'<section class="page" id="{_e(anchor)}">'
        f"<h2>{prefix}{_e(title)} {back}</h2>"
        f'<p class="target">{_safe_link(comparison.target)}</p>'
        f'<div class="overview">{metadata_table(comparison)}{screenshot}</div>'
        f"{counts}{LEGEND}{side_by_side(rows)}{trace_table(comparison)}</section>"
    )


def failure_section(failure: PageFailure, *, anchor: str, number: int) -> str:
    return (
        f'<section class="page failed" id="{_e(anchor)}"><h2>{number}. {_e(failure.target)} '
        '<a class="back" href="#summary">↑ summary</a></h2>'
        f'<p class="error">Not compared: {_e(failure.error)}</p></section>'
    )


# --- several pages --------------------------------------------------------------------------


def f1_bins(values: Sequence[float]) -> list[int]:
    """Counts of F1 values in the bins [0, 0.1), [0.1, 0.2) ... [0.9, 1.0]."""
    counts = [0] * 10
    for value in values:
        counts[min(9, max(0, math.floor(value * 10 + 1e-9)))] += 1
    return counts


def histogram_svg(values: Sequence[float]) -> str:
    """Inline SVG bar chart of F1 in bins of 0.1, each bar labelled with its count."""
    counts = f1_bins(values)
    width, height, left, bottom, top = 560, 230, 44, 34, 22
    plot_w, plot_h = width - left - 10, height - bottom - top
    bar_w = plot_w / 10
    peak = max(counts) or 1
    parts = [
        f'<svg class="hist" xmlns="http://www.w3.org/2000/svg" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
        'aria-labelledby="hist-title"><title id="hist-title">F1 of readermode against Reader '
        "View: pages per bin of 0.1</title>",
    ]
    for tick in range(0, peak + 1, max(1, math.ceil(peak / 4))):
        y = top + plot_h - plot_h * tick / peak
        parts.append(
            f'<line class="grid" x1="{left}" x2="{width - 10}" y1="{y:.1f}" y2="{y:.1f}"/>'
            f'<text class="ytick" x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{tick}</text>'
        )
    for index, count in enumerate(counts):
        low, high = index / 10, (index + 1) / 10
        h = plot_h * count / peak
        x = left + index * bar_w + 3
        y = top + plot_h - h
        parts.append(
            f'<rect class="bar b{index}" data-bin="{low:.1f}-{high:.1f}" data-count="{count}" '
            f'x="{x:.1f}" y="{y:.1f}" width="{bar_w - 6:.1f}" height="{h:.1f}">'
            f"<title>F1 {low:.1f}–{high:.1f}: {count} page{'s' if count != 1 else ''}</title>"
            "</rect>"
        )
        if count:
            parts.append(
                f'<text class="count" x="{x + (bar_w - 6) / 2:.1f}" y="{y - 5:.1f}" '
                f'text-anchor="middle">{count}</text>'
            )
    for index in range(11):
        x = left + index * bar_w
        parts.append(
            f'<text class="xtick" x="{x:.1f}" y="{top + plot_h + 16}" '
            f'text-anchor="middle">{index / 10:.1f}</text>'
        )
    parts.append(
        f'<line class="axis" x1="{left}" x2="{width - 10}" y1="{top + plot_h}" '
        f'y2="{top + plot_h}"/><text class="xlabel" x="{left + plot_w / 2:.1f}" '
        f'y="{height - 2}" text-anchor="middle">F1</text>'
        f'<text class="ylabel" x="12" y="{top + plot_h / 2:.1f}" text-anchor="middle" '
        f'transform="rotate(-90 12 {top + plot_h / 2:.1f})">pages</text></svg>'
    )
    return "".join(parts)


def summary_section(entries: Sequence[Entry], anchors: Sequence[str]) -> str:
    done = [e for e in entries if isinstance(e, PageComparison)]
    f1s = [c.scores.f1 for c in done]
    rows = []
    for number, (entry, anchor) in enumerate(zip(entries, anchors, strict=True), 1):
        link = f'<a href="#{_e(anchor)}">{_e(entry.target)}</a>'
        if isinstance(entry, PageFailure):
            rows.append(
                f'<tr class="row failed"><td>{number}</td><td class="url">{link}</td>'
                f'<td colspan="5" class="error">{_e(entry.error)}</td></tr>'
            )
            continue
        s = entry.scores
        stage = f"<code>{_e(entry.readermode.stage)}</code>" if entry.readermode.stage else "none"
        rows.append(
            f'<tr class="row"><td>{number}</td><td class="url">{link}</td><td>{stage}</td>'
            f"<td>{_yes_no(entry.reader_view.readerable)}</td><td>{_num(s.precision)}</td>"
            f'<td>{_num(s.recall)}</td><td class="f1 {_f1_class(s.f1)}">{_num(s.f1)}</td></tr>'
        )
    stats = ""
    if f1s:
        stats = (
            f'<p class="stats">{len(done)} page{"s" if len(done) != 1 else ""} compared'
            + (f", {len(entries) - len(done)} failed" if len(entries) > len(done) else "")
            + f" · mean F1 <b>{_num(statistics.fmean(f1s))}</b> · median F1 "
            f"<b>{_num(statistics.median(f1s))}</b> · {sum(f >= 0.95 for f in f1s)} at 0.95 or "
            "more</p>"
        )
    return (
        '<section class="summary" id="summary"><h2>Summary</h2>'
        f'{stats}<div class="histwrap">{histogram_svg(f1s)}</div>'
        '<table class="pages"><thead><tr><th>#</th><th>Page</th><th>Stage</th>'
        "<th>Readerable</th><th>P</th><th>R</th><th>F1</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></section>"
    )


STYLE = """
:root { --rem: #fde2e1; --rem-ink: #9b1c1c; --add: #dcf5e3; --add-ink: #15612e;
  --chg: #fff4d6; --line: #e3e6ea; --muted: #66707a; --ink: #1d232a; --bg: #f6f7f9; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
main { max-width: 1360px; margin: 0 auto; padding: 24px 28px 64px; }
header.top h1 { margin: 0 0 2px; font-size: 22px; }
header.top p { margin: 0; color: var(--muted); }
h2 { font-size: 18px; margin: 0 0 4px; }
section.page, section.summary { background: #fff; border: 1px solid var(--line);
  border-radius: 10px; padding: 20px 22px; margin-top: 22px; }
.target { margin: 0 0 14px; color: var(--muted); word-break: break-all; }
a { color: #1a5fb4; }
a.back { font-size: 12px; font-weight: normal; margin-left: 8px; }
.none { color: #a0a7ae; }
.yes { color: var(--add-ink); font-weight: 600; }
.no { color: var(--rem-ink); font-weight: 600; }
small { color: var(--muted); font-weight: normal; }
code { font: 12.5px ui-monospace, "DejaVu Sans Mono", monospace; background: #eef1f4;
  padding: 1px 5px; border-radius: 4px; }
.overview { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 20px;
  align-items: start; }
table.meta { width: 100%; border-collapse: collapse; table-layout: fixed; }
table.meta th, table.meta td { text-align: left; vertical-align: top; padding: 6px 8px;
  border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
table.meta thead th { font-size: 12px; text-transform: uppercase; letter-spacing: .04em;
  color: var(--muted); }
table.meta tbody th { width: 150px; color: var(--muted); font-weight: 600; }
.why { color: var(--muted); }
.clamp { display: -webkit-box; -webkit-line-clamp: 4; -webkit-box-orient: vertical;
  overflow: hidden; }
.score { display: inline-block; margin-right: 10px; }
.f1 b, td.f1 { font-variant-numeric: tabular-nums; }
.f1.good { color: var(--add-ink); } .f1.fair { color: #8a5a00; } .f1.poor { color: var(--rem-ink); }
figure.shot { margin: 0; }
figure.shot .frame { max-height: 440px; overflow: auto; border: 1px solid var(--line);
  border-radius: 8px; background: #fafafa; }
figure.shot img { display: block; max-width: 100%; height: auto; margin: 0 auto; }
figure.shot figcaption { color: var(--muted); font-size: 12px; margin-top: 4px; }
figure.shot.none { color: var(--muted); padding: 20px; border: 1px dashed var(--line);
  border-radius: 8px; text-align: center; }
.counts { margin: 18px 0 6px; color: var(--muted); }
.c-rem { color: var(--rem-ink); } .c-add { color: var(--add-ink); }
.legend { display: flex; flex-wrap: wrap; gap: 4px 10px; align-items: center; margin: 0 0 10px;
  color: var(--muted); font-size: 13px; }
.legend .key { padding: 1px 7px; border-radius: 4px; color: var(--ink); margin-left: 8px; }
.legend .key:first-child { margin-left: 0; }
.key.rem { background: var(--rem); box-shadow: inset 3px 0 var(--rem-ink); }
.key.add { background: var(--add); box-shadow: inset 3px 0 var(--add-ink); }
.key.chg { background: var(--chg); box-shadow: inset 3px 0 #c99a00; }
.sbs { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
  border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
.sbs.inner { border: 0; border-radius: 0; }
.colhead { background: #eef1f4; padding: 8px 14px; font-weight: 700; border-bottom: 1px solid
  var(--line); }
.colhead small { display: block; font-weight: normal; }
.colhead.rv, .cell.rv { border-right: 1px solid var(--line); }
.cell { padding: 4px 16px; min-width: 0; font: 16px/1.55 Georgia, "DejaVu Serif", serif;
  overflow-wrap: anywhere; }
.cell.empty { grid-column: 1 / -1; color: var(--muted); }
.cell.change { background: var(--chg); }
.cell.delete.rv { background: var(--rem); box-shadow: inset 3px 0 var(--rem-ink); }
.cell.insert.rm { background: var(--add); box-shadow: inset 3px 0 var(--add-ink); }
.cell.delete.rm, .cell.insert.rv { background: repeating-linear-gradient(135deg, #fafbfc 0 6px,
  #f1f3f5 6px 12px); }
.cell > :first-child, .cell del.blk > :first-child, .cell ins.blk > :first-child { margin-top: 8px; }
.cell > :last-child, .cell del.blk > :last-child, .cell ins.blk > :last-child { margin-bottom: 8px; }
.cell h1 { font-size: 26px; line-height: 1.25; } .cell h2 { font-size: 21px; }
.cell h3 { font-size: 18px; }
.cell ul, .cell ol { margin: 4px 0; padding-left: 26px; }
.cell dl { margin: 4px 0; }
.cell pre { white-space: pre-wrap; font-size: 13px; background: #f3f4f6; padding: 8px;
  border-radius: 6px; }
.cell table { border-collapse: collapse; font-size: 14px; }
.cell td, .cell th { border: 1px solid var(--line); padding: 3px 6px; }
.cell blockquote { margin: 8px 0; padding-left: 12px; border-left: 3px solid var(--line); }
.cell span.img { display: inline-block; font: 12px system-ui, sans-serif; color: var(--muted);
  border: 1px dashed #b8c0c8; border-radius: 4px; padding: 6px 10px; background: #fbfbfc; }
del.blk, ins.blk { display: block; text-decoration: none; color: inherit; background: none; }
del.rem:not(.blk) { background: #f9c0be; color: var(--rem-ink); text-decoration: line-through;
  text-decoration-color: rgba(155, 28, 28, .45); border-radius: 2px; }
ins.add:not(.blk) { background: #a8e6bb; color: var(--add-ink); text-decoration: none;
  border-radius: 2px; }
details.fold { grid-column: 1 / -1; border-top: 1px solid var(--line);
  border-bottom: 1px solid var(--line); }
details.fold > summary { cursor: pointer; padding: 5px 14px; color: var(--muted);
  background: #f8f9fa; font-size: 13px; }
details.trace { margin-top: 14px; }
details.trace > summary { cursor: pointer; color: var(--muted); }
details.trace table { border-collapse: collapse; margin-top: 6px; font-size: 12.5px; width: 100%; }
details.trace td, details.trace th { text-align: left; padding: 3px 8px; vertical-align: top;
  border-bottom: 1px solid var(--line); }
details.trace tr.accepted td { color: var(--add-ink); font-weight: 600; }
details.trace tr.rejected td, details.trace tr.skipped td { color: var(--muted); }
.stats { margin: 4px 0 8px; }
.histwrap { margin: 6px 0 14px; }
svg.hist rect.bar { fill: #4a7fc1; }
svg.hist text { font: 11px system-ui, sans-serif; fill: var(--muted); }
svg.hist text.count { fill: var(--ink); font-weight: 600; }
svg.hist line.grid { stroke: #eceff2; } svg.hist line.axis { stroke: #9aa3ab; }
table.pages { width: 100%; border-collapse: collapse; }
table.pages th, table.pages td { text-align: left; padding: 6px 8px;
  border-bottom: 1px solid var(--line); }
table.pages td.url { word-break: break-all; }
table.pages tr.failed td.error { color: var(--rem-ink); }
p.error { color: var(--rem-ink); }
@media (max-width: 900px) { .overview { grid-template-columns: 1fr; } }
"""


def html_report(entries: Sequence[Entry], *, title: str | None = None) -> str:
    """The whole report: one page's section, or a summary (rows and F1 histogram) followed by
    every page's section, linked by anchors. Self-contained."""
    if not entries:
        raise ValueError("nothing to report")
    several = len(entries) > 1
    anchors = [f"page-{number}" for number in range(1, len(entries) + 1)]
    sections = []
    for number, (entry, anchor) in enumerate(zip(entries, anchors, strict=True), 1):
        if isinstance(entry, PageFailure):
            sections.append(failure_section(entry, anchor=anchor, number=number))
        else:
            sections.append(page_section(entry, anchor=anchor, number=number if several else None))
    heading = title or (
        f"Reader View QA: {len(entries)} pages" if several else "Reader View QA: one page"
    )
    generated = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="referrer" content="no-referrer">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(heading)}</title><style>{STYLE}</style></head><body><main>"
        f'<header class="top"><h1>{_e(heading)}</h1><p>Firefox Reader View (left) against '
        f"readermode (right) · generated {generated} by readermode --compare</p></header>"
        + (summary_section(entries, anchors) if several else "")
        + "".join(sections)
        + "</main></body></html>\n"
    )


# --- text summary ---------------------------------------------------------------------------
