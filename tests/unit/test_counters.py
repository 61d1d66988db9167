"""The ``post-counters`` refinement: a forum post's counters on a line of their own go, on
forum pages only; numbers inside the posts' sentences, code and tables stay."""

from __future__ import annotations

import pytest

from extractor import ALL_RULES, ExtractOptions, extract
from extractor._counters import select_counters
from extractor._parse import parse_fragment


def post(i: int) -> str:
    return (
        f"<div class='message'><div class='user'><a href='/members/{i}'>member{i}</a>"
        f"<dl><dt>Messages:</dt><dd>1,04{i}</dd></dl><div>Likes Received: 10{i}</div></div>"
        f"<a class='num' href='#post-{i}'>#{i + 1}</a>"
        f"<p>Reply {i}: I switched to version 3 of the firmware last spring and the autofocus "
        f"is far quicker now, though it took 2 weeks to get used to it on long walks.</p>"
        f"<div><span>{i + 12} likes</span></div></div>"
    )


def thread_html(head: str = "") -> str:
    return (
        f"<html><head><title>Lenses</title>{head}</head><body><nav><a href='/'>Home</a></nav>"
        f"<div class='thread'>{''.join(post(i) for i in range(6))}</div>"
        "<footer>Forum rules</footer></body></html>"
    )


FORUM_HEAD = '<script type="application/ld+json">{"@type": "DiscussionForumPosting"}</script>'


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("<div><dl><dt>Posts:</dt><dd>1,234</dd></dl><p>A reply.</p></div>", ["Posts:1,234"]),
        ("<div><p>Text of the post.</p><a href='#p3'>#3</a></div>", ["#3"]),
        ("<div><p>Text of the post.</p><span>12 likes</span></div>", ["12 likes"]),
        ("<div><p>Joined</p><p>Offline</p><p>Reputation: 12</p></div>", None),
        ("<div><p>Posts: <span>12</span></p><p>Text.</p></div>", ["Posts: 12"]),
        # A post's notes with names and dates in them.
        (
            "<div><p>Last edited: Jul 9, 2022</p><p>Reactions: Brian33, unixfool and felixen"
            "</p><p>Edited October 30, 2025 by El Patron (see edit history)</p>"
            "<p>Location: SIN</p><p>Original Poster</p><p>Level 5</p></div>",
            None,
        ),
        ("<p>I edited the config: the location: field was wrong.</p>", []),
        # Numbers that are what the post says.
        ("<p>I have <span>3</span> of them and <a href='/x'>12 likes</a> there.</p>", []),
        ("<div><code>127.0.0.1</code></div>", []),
        ("<table><tr><td>Lens</td><td>450</td></tr></table>", []),
        ("<pre>2024</pre>", []),
        ("<p>Reply 12: the 3 posts above say it all.</p>", []),
    ],
)
def test_counters_that_make_up_a_line_are_selected(body: str, expected: list[str] | None) -> None:
    root = parse_fragment(body)
    found = [" ".join(el.text_content().split()) for el in select_counters(root)]
    if expected is None:  # each line of the body is a counter
        expected = [" ".join(p.text_content().split()) for p in root.iter("p")]
    assert sorted(found) == sorted(expected)


def test_a_thread_loses_its_counters_and_keeps_its_posts() -> None:
    extraction = extract(thread_html(FORUM_HEAD), url="https://forum.example.org/threads/lenses.1/")
    assert extraction.page_type == "forum"
    text = extraction.text
    assert text.count("Reply") == 6 and "version 3 of the firmware" in text
    assert "member3" in text  # the author stays: a post keeps its author
    for counter in ("1,043", "Likes Received", "#4", "15 likes"):
        assert counter not in text, counter
    assert "post-counters" in {entry.name for entry in extraction.trace}


def test_the_switch_keeps_them() -> None:
    options = ExtractOptions(rules=ALL_RULES - {"post-counters"})
    extraction = extract(
        thread_html(FORUM_HEAD), url="https://forum.example.org/threads/lenses.1/", options=options
    )
    # the post numbers and member counters the block vote keeps; the rule takes them when on
    assert "#4" in extraction.text and "1,043" in extraction.text
    assert "post-counters" not in {entry.name for entry in extraction.trace}


def test_a_page_of_another_type_keeps_its_numbers() -> None:
    # The same records on a product listing: a bare number there may be a price or a count.
    head = '<script type="application/ld+json">{"@type": "ItemList"}</script>'
    extraction = extract(thread_html(head), url="https://shop.example.org/lenses/")
    assert extraction.page_type != "forum"
    assert "15 likes" in extraction.text
