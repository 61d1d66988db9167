"""Aligning two results block by block, and the word diff inside a changed pair: what the
QA report and the terminal summary show of where readermode and Reader View differ.

The side-by-side view aligns the two results block by block (paragraphs, headings, list items,
tables...) with difflib; blocks only one side has are marked whole, and inside a changed pair
the words are diffed. ``<del class="rem">``: in Reader View, not in readermode; ``<ins
class="add">``: added by readermode. Pure Python on lxml: tested without a browser.
"""

from __future__ import annotations

import difflib
import html
import re
from collections.abc import Sequence
from dataclasses import dataclass

import lxml.html
from lxml.html import HtmlElement

from extractor import BLOCK_TAGS, element_text, parse_fragment, sanitize_html

ATOMIC_TAGS = frozenset({"pre", "table", "figure"})
"""Blocks kept whole whatever they hold."""
HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
OWN_TAGS = HEADINGS | {"p", "pre", "blockquote", "table", "figure"}
"""Leaf blocks rendered as themselves; other leaf containers (div, section...) become <p>."""
PAIR_MIN_RATIO = 0.4
"""Two blocks in a changed region are diffed word by word when at least this similar."""


# --- blocks ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Block:
    """One paragraph-level piece of an article: its render tag, clean HTML and plain text."""

    tag: str
    """How it is rendered: p, h1-h6, li, pre, blockquote, table, figure, dt, dd."""
    html: str
    text: str
    list_tag: str = "ul"
    start: int | None = None

    @property
    def key(self) -> str:
        """What the block diff compares: the text, whitespace-collapsed."""
        if self.text:
            return self.text
        return "\0" + " ".join(re.findall(r'src="([^"]*)"', self.html))


def collapse_space(text: str) -> str:
    return " ".join(text.split())


def _has_block(element: HtmlElement) -> bool:
    return any(
        isinstance(d.tag, str) and (d.tag in BLOCK_TAGS or d.tag in ATOMIC_TAGS)
        for d in element.iterdescendants()
    )


def serialise(element: HtmlElement) -> str:
    return lxml.html.tostring(element, encoding="unicode", with_tail=False)


def blocks_of(page_html: str) -> list[Block]:
    """Cut (sanitised) article HTML into blocks, in document order. Inline content directly
    inside a container becomes a paragraph of its own; blocks with neither text nor an image
    are dropped."""
    clean = sanitize_html(page_html or "").strip()
    if not clean:
        return []
    out: list[Block] = []
    pending: list[str] = []

    def add(tag: str, inner_html: str, element: HtmlElement, **extra: object) -> None:
        text = collapse_space(element_text(element))
        if text or "<img" in inner_html:
            out.append(Block(tag=tag, html=inner_html, text=text, **extra))  # type: ignore[arg-type]

    def flush() -> None:
        if pending:
            inner = "".join(pending)
            pending.clear()
            if inner.strip():
                add("p", f"<p>{inner}</p>", parse_fragment(inner))

    def leaf(element: HtmlElement, parent: HtmlElement) -> None:
        tag = element.tag
        if tag == "li":
            list_tag = parent.tag if parent.tag in ("ul", "ol") else "ul"
            start = None
            if list_tag == "ol":
                try:
                    first = int(parent.get("start") or 1)
                except ValueError:
                    first = 1
                start = first + [c for c in parent if c.tag == "li"].index(element)
            add("li", serialise(element), element, list_tag=list_tag, start=start)
        elif tag in ("dt", "dd"):
            add(tag, serialise(element), element)
        elif tag in OWN_TAGS:
            add(tag, serialise(element), element)
        else:  # a div, section, summary... holding only inline content
            inner = (html.escape(element.text or "", quote=False)) + "".join(
                serialise(child) + html.escape(child.tail or "", quote=False) for child in element
            )
            add("p", f"<p>{inner}</p>", element)

    def walk(container: HtmlElement) -> None:
        pending.append(html.escape(container.text or "", quote=False))
        for child in container:
            if isinstance(child.tag, str):
                blockish = child.tag in BLOCK_TAGS or child.tag in ATOMIC_TAGS
                if child.tag in ATOMIC_TAGS or (blockish and not _has_block(child)):
                    flush()
                    leaf(child, container)
                elif blockish or _has_block(child):
                    flush()
                    walk(child)
                    flush()
                else:
                    pending.append(serialise(child))
            pending.append(html.escape(child.tail or "", quote=False))

    root = parse_fragment(clean)
    if _has_block(root):
        walk(root)
        flush()
    else:
        leaf(root, root)
    return out


# --- alignment ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One line of the side-by-side view: a block of each side, or of one."""

    kind: str  # "equal", "change", "delete" (Reader View only) or "insert" (readermode only)
    left: Block | None
    right: Block | None


def _ratio(a: str, b: str) -> float:
    matcher = difflib.SequenceMatcher(None, a.split(), b.split(), autojunk=False)
    return matcher.ratio() if matcher.quick_ratio() >= PAIR_MIN_RATIO else 0.0


def _pair_region(left: list[Block], right: list[Block]) -> list[Row]:
    """A replaced region: pair similar blocks in order (word diff), the rest stand alone."""
    rows: list[Row] = []
    j = 0
    for block in left:
        best, best_ratio = None, PAIR_MIN_RATIO
        for k in range(j, len(right)):
            ratio = _ratio(block.key, right[k].key)
            if ratio >= best_ratio and (best is None or ratio > best_ratio):
                best, best_ratio = k, ratio
        if best is None:
            rows.append(Row("delete", block, None))
            continue
        rows.extend(Row("insert", None, extra) for extra in right[j:best])
        rows.append(Row("change", block, right[best]))
        j = best + 1
    rows.extend(Row("insert", None, extra) for extra in right[j:])
    return rows


def align(left: list[Block], right: list[Block]) -> list[Row]:
    """Side-by-side rows of two block lists (Reader View left, readermode right)."""
    matcher = difflib.SequenceMatcher(
        None, [b.key for b in left], [b.key for b in right], autojunk=False
    )
    rows: list[Row] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            rows.extend(Row("equal", a, b) for a, b in zip(left[i1:i2], right[j1:j2], strict=True))
        elif op == "delete":
            rows.extend(Row("delete", a, None) for a in left[i1:i2])
        elif op == "insert":
            rows.extend(Row("insert", None, b) for b in right[j1:j2])
        else:
            rows.extend(_pair_region(left[i1:i2], right[j1:j2]))
    return rows


_TOKEN = re.compile(r"\S+\s*")


def word_diff(old: str, new: str) -> tuple[str, str]:
    """Escaped HTML of both texts with the words only ``old`` has in ``<del class="rem">`` and
    the words only ``new`` has in ``<ins class="add">``."""
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    matcher = difflib.SequenceMatcher(
        None, [t.strip() for t in a], [t.strip() for t in b], autojunk=False
    )
    left: list[str] = []
    right: list[str] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            left.append(html.escape("".join(a[i1:i2])))
            right.append(html.escape("".join(b[j1:j2])))
            continue
        if i2 > i1:
            left.append(_marked("del", "rem", "".join(a[i1:i2])))
        if j2 > j1:
            right.append(_marked("ins", "add", "".join(b[j1:j2])))
    return "".join(left), "".join(right)


def _marked(tag: str, css: str, text: str) -> str:
    """Mark a run of words, leaving its trailing space outside the mark."""
    core = text.rstrip()
    return f'<{tag} class="{css}">{html.escape(core)}</{tag}>{html.escape(text[len(core) :])}'


@dataclass(frozen=True)
class DiffStats:
    equal: int
    changed: int
    only_reader_view: int
    only_readermode: int


def diff_stats(rows: Sequence[Row]) -> DiffStats:
    kinds = [row.kind for row in rows]
    return DiffStats(
        equal=kinds.count("equal"),
        changed=kinds.count("change"),
        only_reader_view=kinds.count("delete"),
        only_readermode=kinds.count("insert"),
    )
