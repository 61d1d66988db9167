"""The ``repeated-quotes`` refinement: a reply's quote of a post the thread already holds goes,
on forum pages only; quotes of text said nowhere before, and short ones, stay."""

from __future__ import annotations

import pytest

from extractor import ALL_RULES, ExtractOptions, extract
from extractor._parse import parse_fragment
from extractor._quotes import select_repeated_quotes

OPENING = (
    "Hey all. I currently own a pair of closed headphones for films and I am thinking of "
    "selling them to get something with a wider stage and better instrument separation, "
    "mostly for music and some games at night."
)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        # NodeBB and Discourse: the quote alone.
        (f"<p>{OPENING}</p><p>Reply.</p><blockquote><p>{OPENING}</p></blockquote>", 1),
        # XenForo: "X said:" and "Click to expand..." inside the quote, other punctuation.
        (
            f"<p>{OPENING}</p><blockquote><div><a href='/p/1'>FutureBSD said:</a></div>"
            f"<div>{OPENING.replace(',', '').upper()}</div><div>Click to expand...</div>"
            "</blockquote><p>Try the open-backs.</p>",
            1,
        ),
        # Quoted twice: both go, and the reply between them stays.
        (
            f"<div><p>{OPENING}</p></div><div><blockquote>{OPENING}</blockquote><p>One.</p>"
            f"</div><div><blockquote>{OPENING}</blockquote><p>Two.</p></div>",
            2,
        ),
        # A quote of text not said before on the page stays, even if said after it.
        (f"<blockquote><p>{OPENING}</p></blockquote><p>{OPENING}</p>", 0),
        # Only part of it said before: the quote adds to the thread.
        (f"<p>{OPENING[:80]}</p><blockquote>{OPENING}</blockquote>", 0),
        # A short quote picks out the sentence a reply answers: it stays.
        (f"<p>{OPENING}</p><blockquote>Hey all. I currently own a pair</blockquote>", 0),
    ],
)
def test_quotes_of_what_was_said_before_are_selected(body: str, expected: int) -> None:
    found = select_repeated_quotes(parse_fragment(body))
    assert len(found) == expected
    assert all(quote.tag == "blockquote" for quote in found)


def post(author: str, said: str) -> str:
    return (
        f"<div class='message'><h4><a href='/members/{author}'>{author}</a></h4>"
        f"<div class='body'>{said}</div></div>"
    )


def thread_html(head: str) -> str:
    reply = (
        "I had the same question last year and ended up with a pair of open-backs that I use "
        "with a small amplifier on the desk; the stage is far wider than any closed pair."
    )
    quoted = f"<blockquote><div>anna said:</div><div>{OPENING}</div></blockquote>"
    posts = [post("anna", f"<p>{OPENING}</p>")] + [
        post(f"member{i}", f"{quoted}<p>Reply {i}: {reply}</p>") for i in range(5)
    ]
    return (
        f"<html><head><title>Headphones</title>{head}</head><body><nav><a href='/'>Home</a></nav>"
        f"<div class='thread'>{''.join(posts)}</div><footer>Forum rules</footer></body></html>"
    )


FORUM_HEAD = '<script type="application/ld+json">{"@type": "DiscussionForumPosting"}</script>'
URL = "https://forum.example.org/threads/headphones.1/"


def test_a_thread_reads_its_opening_post_once() -> None:
    extraction = extract(thread_html(FORUM_HEAD), url=URL)
    assert extraction.page_type == "forum"
    assert extraction.text.count("wider stage and better instrument separation") == 1
    assert extraction.text.count("Reply") == 5
    assert "repeated-quotes" in {entry.name for entry in extraction.trace}


def test_the_switches_keep_the_quotes() -> None:
    # distant-repeats reads each reply's quote as a copy of the first reply's quote
    options = ExtractOptions(rules=ALL_RULES - {"repeated-quotes", "distant-repeats"})
    extraction = extract(thread_html(FORUM_HEAD), url=URL, options=options)
    assert extraction.text.count("wider stage and better instrument separation") == 6


def test_a_page_of_another_type_keeps_its_quotes() -> None:
    # An article's pull quote repeats its own paragraph on purpose.
    head = '<script type="application/ld+json">{"@type": "NewsArticle"}</script>'
    extraction = extract(thread_html(head), url="https://news.example.org/2024/headphones")
    assert extraction.page_type != "forum"
    assert "repeated-quotes" not in {entry.name for entry in extraction.trace}
