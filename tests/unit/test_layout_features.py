"""The layout columns of scripts/layout_features.py (what scripts/layout_experiment.py
weighs): read from the boxes a render recorded, all zero on a page that has none."""

from __future__ import annotations

import sys
from pathlib import Path

import lxml.html
import numpy as np

from extractor._segment import segment
from renderer.browser.snapshot import BOX_MARK, VIEWPORT_MARK

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from layout_features import LAYOUT_FEATURES, layout_matrix  # noqa: E402

PARAGRAPH = "A paragraph of the story that runs on for a good many words in the main column."


def page(boxed: bool) -> lxml.html.HtmlElement:
    def box(value: str) -> str:
        return f' {BOX_MARK}="{value}"' if boxed else ""

    viewport = f' {VIEWPORT_MARK}="1280,900,1280,3000"' if boxed else ""
    paragraphs = "".join(
        f"<p{box(f'0,{120 + 60 * i},800,50,16')}>{PARAGRAPH}</p>" for i in range(6)
    )
    return lxml.html.document_fromstring(
        f"<html{viewport}><body><div{box('0,0,800,3000,16')}>"
        f"<h1{box('0,40,800,60,32')}>The story</h1>{paragraphs}"
        f"<p{box('0,2800,800,40,16')}>The last paragraph, far down the page.</p></div>"
        f"<aside{box('900,120,300,400,12')}><p>Popular this week</p></aside></body></html>"
    )


def column(rows: np.ndarray, name: str) -> np.ndarray:
    return rows[:, LAYOUT_FEATURES.index(name)]


def test_a_rendered_page_gives_each_block_its_place() -> None:
    blocks = segment(page(boxed=True).find("body"))
    rows = layout_matrix(blocks)
    texts = [block.text for block in blocks]
    headline, side = texts.index("The story"), texts.index("Popular this week")
    last = next(i for i, text in enumerate(texts) if text.startswith("The last"))
    assert column(rows, "has_box").tolist() == [1.0] * len(blocks)
    assert column(rows, "off_column")[side] > 0.4  # beside the column the words stand in
    assert column(rows, "spans_column")[side] == 0.0 and column(rows, "spans_column")[0] == 1.0
    assert column(rows, "font_ratio")[headline] == 2.0 and column(rows, "font_ratio")[side] == 0.75
    assert column(rows, "above_fold")[headline] == 1.0 and column(rows, "above_fold")[last] == 0.0
    assert column(rows, "box_left")[side] == 900 / 1280


def test_a_static_page_has_no_layout() -> None:
    blocks = segment(page(boxed=False).find("body"))
    assert blocks and not layout_matrix(blocks).any()
