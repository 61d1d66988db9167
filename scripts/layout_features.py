"""Where each block sat on the rendered page, as columns beside the block model's features:
the layout a static extractor cannot see (used by scripts/layout_experiment.py).

A render with ``RenderOptions(record_layout=True)`` gives each visible block of the page its
box and font size (``BOX_MARK``: ``x,y,width,height,fontSize``, CSS px in page coordinates)
and the root the viewport and the page's size (``VIEWPORT_MARK``). A block of the cut page
(``extractor._segment``) takes the box of its nearest boxed element. Per block: whether it has
a box at all (a static page has none: then every column is 0), its horizontal extent against
the page's width and against the column most of the page's words stand in (a sidebar lies
beside it), how far down the page it starts (in screens) and whether above the fold, its
size, and its font size against the page's usual one (a headline is larger, small print
smaller).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from lxml.html import HtmlElement

from extractor._segment import PageBlock
from renderer.browser.snapshot import BOX_MARK, VIEWPORT_MARK

LAYOUT_FEATURES: tuple[str, ...] = (
    "has_box", "box_left", "box_right", "box_width", "off_column", "spans_column",
    "box_top", "screens_down", "above_fold", "box_height", "box_area", "font_ratio",
)  # fmt: skip
"""The layout columns, in order (all 0 for a block without a box)."""

Box = tuple[int, int, int, int, int]


def has_layout(document: HtmlElement) -> bool:
    """Whether the page came from a render that recorded its layout."""
    return document.getroottree().getroot().get(VIEWPORT_MARK) is not None


def layout_matrix(blocks: Sequence[PageBlock]) -> npt.NDArray[np.float64]:
    """One row of ``LAYOUT_FEATURES`` per block; zeros when the page has no layout."""
    rows = np.zeros((len(blocks), len(LAYOUT_FEATURES)), dtype=np.float64)
    if not blocks or not has_layout(blocks[0].element):
        return rows
    view = _numbers(blocks[0].element.getroottree().getroot().get(VIEWPORT_MARK, ""), 4)
    width, fold, page_width, page_height = view if view else (1280, 900, 1280, 900)
    page_width, page_height, fold = max(page_width, width, 1), max(page_height, 1), max(fold, 1)
    boxes = [_box_of(block.element) for block in blocks]
    words = [len(block.tokens) for block in blocks]
    column = _weighted_median(
        [(b[0] + b[2] / 2, n) for b, n in zip(boxes, words, strict=True) if b]
    )
    font = _weighted_median(
        [(b[4], n) for b, n in zip(boxes, words, strict=True) if b and b[4] > 0]
    )
    for index, box in enumerate(boxes):
        if box is None:
            continue
        x, y, w, h, size = box
        rows[index] = (
            1.0,
            x / page_width,
            (x + w) / page_width,
            w / page_width,
            abs(x + w / 2 - column) / page_width,
            float(x <= column <= x + w),
            y / page_height,
            math.log1p(max(y, 0) / fold),
            float(y < fold),
            math.log1p(h / fold),
            math.log1p(w * h / (page_width * fold)),
            size / font if size > 0 and font > 0 else 1.0,
        )
    return rows


def _box_of(element: HtmlElement) -> Box | None:
    """The box of ``element`` or of its nearest boxed ancestor."""
    for holder in (element, *element.iterancestors()):
        value = holder.get(BOX_MARK)
        if value is not None:
            numbers = _numbers(value, 5)
            return (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4]) if numbers else None
    return None


def _numbers(value: str, count: int) -> list[int] | None:
    try:
        numbers = [int(part) for part in value.split(",")]
    except ValueError:
        return None
    return numbers if len(numbers) == count else None


def _weighted_median(pairs: list[tuple[float, int]]) -> float:
    """The value at half of the total weight (0 when there is none)."""
    pairs = sorted(pairs)
    total = sum(weight for _, weight in pairs)
    if not total:
        return 0.0
    running = 0
    for value, weight in pairs:
        running += weight
        if running * 2 >= total:
            return value
    return pairs[-1][0]
