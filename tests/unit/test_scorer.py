"""The fallback scorer: its formula (``extractor/_scorer.py``'s docstring), the root as a
candidate, descent, pruning, the cap."""

from __future__ import annotations

import lxml.html
import pytest

from extractor._scorer import (
    LINK_GATE_HARD,
    LINK_GATE_SOFT,
    LIST_GATE,
    MAX_ELEMENTS,
    PARAGRAPH_WEIGHT,
    PUNCTUATION_WEIGHT,
    TooManyElements,
    best_block,
    block_features,
    block_score,
)

PROSE = (
    "The harbour master said the new ferry schedule, agreed after months of talks, would start "
    "in spring. Fishermen worried about the early departures; shop owners welcomed them. "
)


def doc(body: str) -> lxml.html.HtmlElement:
    return lxml.html.document_fromstring(f"<html><body>{body}</body></html>")


def score_of(html: str) -> float:
    root = lxml.html.fragment_fromstring(html)
    elements = list(root.iter())
    return block_score(root, block_features(elements)[root])


def test_formula_text_paragraphs_and_punctuation() -> None:
    # 11 characters, one paragraph, two punctuation marks, no links, no hints.
    assert score_of("<div><p>Hello, you.</p></div>") == pytest.approx(
        len("Hello, you.") + PARAGRAPH_WEIGHT + 2 * PUNCTUATION_WEIGHT
    )


@pytest.mark.parametrize(
    ("html", "gate"),
    [
        # density 9/49: no gate, only the link text is discounted
        ("<div><p>aaaa bbbb cccc dddd eeee ffff <a>gggg</a> iiii jjjj</p></div>", 1.0),
        # density 19/49 ~ 0.39: soft gate
        (
            "<div><p>aaaa bbbb cccc dddd eeee ffff <a>gggg hhhh iiii jjjj</a></p></div>",
            LINK_GATE_SOFT[1],
        ),
        # density 39/49 ~ 0.8: hard gate
        (
            "<div><p>aaaa <a>bbbb cccc dddd eeee ffff gggg hhhh iiii</a> jjjj</p></div>",
            LINK_GATE_HARD[1],
        ),
    ],
)
def test_link_density_gates(html: str, gate: float) -> None:
    root = lxml.html.fragment_fromstring(html)
    feats = block_features(list(root.iter()))[root]
    ungated = feats.text * (1 - feats.link_density) + PARAGRAPH_WEIGHT
    assert score_of(html) == pytest.approx(ungated * gate)


def test_list_gate() -> None:
    items = "".join(f"<li>item number {i} here</li>" for i in range(10))
    root = lxml.html.fragment_fromstring(f"<div><ul>{items}</ul></div>")
    feats = block_features(list(root.iter()))[root]
    assert feats.list_text / feats.text > LIST_GATE[0]
    assert score_of(f"<div><ul>{items}</ul></div>") == pytest.approx(feats.text * LIST_GATE[1])


def test_flat_body_page_uses_the_root() -> None:
    block = best_block(doc("".join(f"<p>{PROSE}</p>" for _ in range(5))))
    assert block is not None
    assert len(block.element.findall(".//p")) == 5


def test_article_beats_sidebar_and_menu() -> None:
    page = doc(
        '<div class="nav">'
        + "".join(f'<a href="/{i}">Section {i}</a> ' for i in range(30))
        + "</div>"
        '<div class="layout"><div class="story">' + f"<p>{PROSE}</p>" * 6 + "</div>"
        '<div class="sidebar"><p>About the author: a reporter who likes boats.</p></div></div>'
    )
    block = best_block(page)
    assert block is not None
    text = block.element.text_content()
    assert "harbour master" in text
    assert "Section 7" not in text and "About the author" not in text
    assert block.path.endswith("div[1]") or "story" in (block.element.get("class") or "")


def test_never_descends_out_of_an_article() -> None:
    page = doc(
        "<article><header><h1>Ferry timetable agreed</h1></header>"
        f"<div class='body'>{'<p>' + PROSE + '</p>' * 1}{('<p>' + PROSE + '</p>') * 6}</div></article>"
    )
    block = best_block(page)
    assert block is not None and block.element.tag == "article"
    assert "Ferry timetable agreed" in block.element.text_content()


def test_input_tree_is_untouched() -> None:
    page = doc(
        f"<article><p>{PROSE}</p>" + "<ul>" + '<li><a href="/a">a</a></li>' * 5 + "</ul></article>"
    )
    before = lxml.html.tostring(page)
    best_block(page)
    assert lxml.html.tostring(page) == before


def test_gives_up_over_the_element_cap() -> None:
    page = doc("<div>" + "<span>x</span>" * (MAX_ELEMENTS + 1) + "</div>")
    with pytest.raises(TooManyElements):
        best_block(page)


def test_empty_page_has_no_block() -> None:
    assert best_block(doc("<div><img src='a.png'></div>")) is None


def test_deep_pages_are_read_whole() -> None:
    """400 nested divs (libxml2 drops content past depth 255 without huge_tree). The scorer
    alone: readability-lxml itself still loses the deepest paragraph (it re-parses inside)."""
    from extractor import ExtractOptions, ScorerStage, extract

    depth = 400
    opened = "".join(
        "<div>" + (f"<p>level {i} words here, and more.</p>" if i % 25 == 0 else "")
        for i in range(depth)
    )
    page = f"<html><body>{opened}<p>deepest paragraph text.</p>{'</div>' * depth}</body></html>"
    text = extract(page, options=ExtractOptions(stages=(ScorerStage(),))).text
    assert "level 375 words" in text and "deepest paragraph text" in text
