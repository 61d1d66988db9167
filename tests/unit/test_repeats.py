"""The ``repeated-blocks`` refinement: a section's copy served for another screen size, right
behind the first, goes; what a page repeats on purpose stays."""

from __future__ import annotations

import pytest

from extractor import ALL_RULES, ExtractOptions, extract
from extractor._pagetype import PageType
from extractor._parse import parse_fragment
from extractor._repeats import MAX_GAP, select_repeated_blocks
from extractor._typed import typed_rules

CARD = (
    "<h3>Universal Appeal</h3><p>Increasing attendance and awareness of a world-class space "
    "museum in a small town on the plains.</p><p>Go above and beyond</p>"
)
QUESTION = (
    "<p>Which cuisine do you love yourself, and are there dishes or ingredients that you never "
    "cook at home for anyone?</p>"
)


def answer(i: int) -> str:
    return f"<p>Guest {i} answers with a story of their own, number {i}.</p>"


def other(i: int) -> str:
    return f"<p>Paragraph {i} of something else.</p>"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        # The card again in its hover overlay: the second copy goes, all three blocks.
        (f"<div>{CARD}</div><div>{CARD}</div><p>Next.</p>", ["Universal Appeal"]),
        # A copy a few blocks after its first (a section for another screen size).
        (f"{CARD}{other(1)}{other(2)}{CARD}", ["Universal Appeal"]),
        # Three copies: two go.
        (f"{CARD}{CARD}{CARD}", ["Universal Appeal", "Universal Appeal"]),
        # A run too short to tell from a card's repeated lines stays.
        ("<p>Add to cart</p><p>Free shipping</p>" * 3, []),
        # A single block repeated every few blocks: the question put to each guest.
        ("".join(f"<h3>Guest {i}</h3>{QUESTION}{answer(i)}" for i in range(4)), []),
        # A copy far from its first is the page's parallel structure.
        (CARD + "".join(other(i) for i in range(MAX_GAP + 1)) + CARD, []),
        # The same run under a heading of its own: plan F has plan E's meals.
        (f"<h2>Plan E</h2>{CARD}<h2>Plan F</h2>{CARD}", []),
    ],
)
def test_copies_of_the_run_just_before_are_selected(body: str, expected: list[str]) -> None:
    found = select_repeated_blocks(parse_fragment(body))
    heads = [block.text_content() for block in found if block.tag == "h3"]
    assert heads == expected
    assert len(found) == 3 * len(expected)


def page_html(kind: str) -> str:
    hero = (
        "<section><h2>Get from brainstorm to breakthrough</h2><p>Collaborative workflows that "
        "help your team build the right thing, faster, with every idea on one canvas.</p>"
        "<p>More than a hundred million people plan their work here.</p></section>"
    )
    body = "".join(
        f"<section><h2>Feature {i}</h2><p>Feature {i} lets a team of any size plan, draw and "
        f"decide together, from the first sketch to the shipped product.</p></section>"
        for i in range(6)
    )
    head = f'<script type="application/ld+json">{{"@type": "{kind}"}}</script>'
    return (
        f"<html><head><title>Canvas</title>{head}</head><body><nav><a href='/'>Home</a></nav>"
        f"<main><div class='mobile'>{hero}</div><div class='desktop'>{hero}</div>{body}</main>"
        "<footer>Terms</footer></body></html>"
    )


def test_a_page_reads_its_section_once() -> None:
    extraction = extract(page_html("WebPage"), url="https://canvas.example.com/")
    assert extraction.text.count("Collaborative workflows") == 1
    assert extraction.text.count("Feature 5 lets a team") == 1
    assert "repeated-blocks" in {entry.name for entry in extraction.trace}


def test_the_switch_keeps_both_copies() -> None:
    options = ExtractOptions(rules=ALL_RULES - {"repeated-blocks"})
    extraction = extract(page_html("WebPage"), url="https://canvas.example.com/", options=options)
    assert extraction.text.count("Collaborative workflows") == 2


def test_a_product_page_reads_its_section_once_in_one_pass() -> None:
    # distant-repeats reaches the near copy too: repeated-blocks would parse the reading again
    rules = typed_rules(PageType("product", {"product": 4.0}), ALL_RULES)
    assert "distant-repeats" in rules and "repeated-blocks" not in rules
    extraction = extract(page_html("Product"), url="https://shop.example.com/products/canvas")
    assert extraction.page_type == "product"
    assert extraction.text.count("Collaborative workflows") == 1
    assert "distant-repeats" in {entry.name for entry in extraction.trace}


def test_documentation_keeps_its_repeated_passages() -> None:
    extraction = extract(page_html("TechArticle"), url="https://docs.example.com/guide/canvas")
    assert extraction.page_type == "documentation"
    assert extraction.text.count("Collaborative workflows") == 2


TEASER = (
    "<h3>Universal Appeal</h3><p>Increasing attendance and awareness of a world-class space "
    "museum in a small town on the plains, with a campaign the whole region took part in.</p>"
)
SPECS = "<p>For monitors: 5-22 lbs</p><p>Screen size: up to 43 inches, on a single post</p>" * 2
FAR = "".join(other(i) for i in range(MAX_GAP + 1))


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        # A card's teaser shown again in another shelf, far below: the copy goes.
        (f"{TEASER}{FAR}{TEASER}", 2),
        # ... under the shelf's own heading too (a publication's "Latest" and "Most read").
        (f"<h2>Latest</h2>{TEASER}{FAR}<h2>Most read</h2>{TEASER}", 2),
        # A grid's cards sharing their short specification lines keep them.
        (f"<h3>M2</h3>{SPECS}{FAR}<h3>M8</h3>{SPECS}", 0),
    ],
)
def test_a_distant_copy_of_a_paragraph_is_selected_anywhere(body: str, expected: int) -> None:
    assert select_repeated_blocks(parse_fragment(body)) == []
    assert len(select_repeated_blocks(parse_fragment(body), anywhere=True)) == expected


OPENING = (
    "<p>I moved to the new release last night and since then the dashboard shows a banner "
    "saying it is still starting, twenty minutes after every reboot.</p><p>Half of my "
    "devices read unavailable until I restart the integration by hand from the settings.</p>"
)


def thread_html(kind: str) -> str:
    """A thread whose last reply copies the opening post's words, unmarked, far below it."""
    replies = "".join(
        f"<div class='post'><h4>member{i}</h4><p>Reply {i}: I saw the same after the "
        f"update and rolled back to the release before it, number {i}.</p></div>"
        for i in range(8)
    )
    copy = f"<div class='post'><h4>anna</h4>{OPENING}<p>Still happening for me.</p></div>"
    head = f'<script type="application/ld+json">{{"@type": "{kind}"}}</script>'
    return (
        f"<html><head><title>Stuck on starting</title>{head}</head><body><main>"
        f"<div class='post'><h4>anna</h4>{OPENING}</div>{replies}{copy}</main></body></html>"
    )


def test_a_thread_reads_a_distant_copy_once() -> None:
    url = "https://forum.example.org/t/stuck-on-starting/42"
    extraction = extract(thread_html("DiscussionForumPosting"), url=url)
    assert extraction.page_type == "forum"
    assert extraction.text.count("Half of my devices read unavailable") == 1
    assert "Still happening for me." in extraction.text
    assert "distant-repeats" in {entry.name for entry in extraction.trace}


def test_an_article_keeps_a_distant_copy() -> None:
    url = "https://blog.example.org/2024/stuck-on-starting"
    extraction = extract(thread_html("BlogPosting"), url=url)
    assert extraction.page_type == "article"
    assert extraction.text.count("Half of my devices read unavailable") == 2
