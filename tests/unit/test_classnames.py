"""Builder class names cleared in the copy readability-lxml reads: a Tailwind table in a
scrolling box and an Elementor page's text widgets stay in its reading; a sidebar's widgets
still weigh against themselves."""

from __future__ import annotations

import lxml.html

from extractor import STAGES_BY_NAME, ExtractOptions, extract
from extractor._classnames import clear_builder_classes

PARAGRAPH = (
    "<p>Week {i} of the plan builds on the last: a longer run at the weekend, two easy runs "
    "in the week, and a rest day after each hard session, so that the legs recover.</p>"
)
TABLE = (
    "<div class='relative my-base'><div class='isolate overflow-x-scroll'>"
    "<table class='w-full text-left'><tr><th>Week</th><th>Monday</th><th>Saturday</th></tr>"
    "<tr><td>1</td><td>Rest</td><td>TABLEROW Run Easy 30 min</td></tr></table></div></div>"
)


def readability_lxml_text(html: str) -> str:
    options = ExtractOptions(stages=(STAGES_BY_NAME["readability-lxml"],))
    return extract(html, options=options).text


def test_a_table_in_a_scrolling_box_is_kept() -> None:
    body = "".join(PARAGRAPH.format(i=i) for i in range(3)) + TABLE
    body += "".join(PARAGRAPH.format(i=i) for i in range(3, 6))
    text = readability_lxml_text(
        f"<html><body><div class='content-wrap'>{body}</div></body></html>"
    )
    assert "TABLEROW" in text and "Week 5" in text


def test_an_elementor_text_widget_is_read_as_the_article() -> None:
    article = "".join(PARAGRAPH.format(i=i) for i in range(5))
    html = (
        "<html><body><div class='elementor-section'>"
        "<div class='elementor-element elementor-widget elementor-widget-text-editor'>"
        f"<div class='elementor-widget-container'>{article}</div></div></div>"
        "<div class='about'><p>NOTARTICLE Our club meets on Tuesdays at the track, and "
        "new members are welcome, whatever their pace or their distance.</p></div>"
        "</body></html>"
    )
    text = readability_lxml_text(html)
    assert "Week 4 of" in text and "NOTARTICLE" not in text, text


def test_only_builder_names_go() -> None:
    tree = lxml.html.fromstring(
        "<div class='elementor-widget-container x'><p class='md:overflow-x-scroll sidebar-widget'>"
        "a</p><aside class='widget widget_recent_entries'>b</aside></div>"
    )
    clear_builder_classes(tree)
    assert tree.get("class") == "x"
    assert tree[0].get("class") == "sidebar-widget"
    assert tree[1].get("class") == "widget widget_recent_entries"


def test_a_heading_named_header_stays_in_the_reading() -> None:
    """WP Recipe Maker names its section headings ``wprm-recipe-header``: readability-lxml
    dropped them as unlikely candidates (a page's header), leaving the lists unlabelled."""
    steps = "".join(
        f"<li>STEP{i} Knead the dough for a further few minutes.</li>" for i in range(4)
    )
    body = (
        "".join(PARAGRAPH.format(i=i) for i in range(4))
        + "<div class='wprm-recipe-instructions-container'>"
        "<h3 class='wprm-recipe-header wprm-recipe-instructions-header'>Instructions</h3>"
        f"<ul class='wprm-recipe-instructions'>{steps}</ul></div>"
    )
    text = readability_lxml_text(f"<html><body><div class='entry'>{body}</div></body></html>")
    assert "STEP3" in text and "Instructions" in text, text


def test_a_heading_keeps_its_other_names() -> None:
    tree = lxml.html.fromstring(
        "<div class='site-header'><h2 class='section-header title'>a</h2></div>"
    )
    clear_builder_classes(tree)
    assert tree.get("class") == "site-header"
    assert tree[0].get("class") == "title"
