"""A page that is its own discussion (a link aggregator's thread) is a forum: its comment
sections hold most of its words and little stands beside them."""

from __future__ import annotations

from extractor import extract
from extractor._discussion import MAX_BESIDE, read_discussion
from extractor._pagetype import detect_page_type
from extractor._parse import parse_html

REMARK = (
    "I tried this generator on a small blog last week and the rebuild times were great, "
    "but the template syntax took a while to learn for someone coming from Jekyll. "
)


def thread(comments: int, story: str = "") -> str:
    """A Hacker News item page: the story's title and link, then the comment tree."""
    rows = "".join(
        f'<tr class="athing comtr"><td><span class="comhead">user{i} 2 hours ago</span>'
        f'<div class="comment"><div class="commtext">{REMARK} Reply {i}.</div></div></td></tr>'
        for i in range(comments)
    )
    return (
        "<html><head><title>Show HN: A tiny static site generator | Hacker News</title></head>"
        '<body><table id="hnmain"><tr><td><a href="news">Hacker News</a> new | past | ask</td>'
        '</tr><tr class="athing"><td class="title"><a href="https://ssg.example/">Show HN: A '
        'tiny static site generator</a></td></tr><tr><td class="subtext">142 points by alice '
        f"| {comments} comments</td></tr></table>{story}"
        f'<table class="comment-tree">{rows}</table></body></html>'
    )


def test_a_thread_of_comments_is_a_forum_and_keeps_them() -> None:
    html = thread(12)
    found = detect_page_type(parse_html(html), "https://news.example/item?id=1")
    assert found.kind == "forum"
    assert any("the page is its discussion" in note for note in found.evidence)
    text = extract(html, url="https://news.example/item?id=1").text
    assert "Reply 0." in text and "Reply 11." in text


def test_an_article_with_a_long_comment_section_is_not_its_discussion() -> None:
    story = "<article>" + ("<p>" + "The council voted on the new harbour wall. " * 12 + "</p>") * 7
    html = thread(40, story=story + "</article>")
    found = read_discussion(parse_html(html), named=40)
    assert found is not None and found.share >= 0.6 and found.beside >= MAX_BESIDE
    assert not found.is_the_page
    typed = detect_page_type(parse_html(html), "https://news.example/2026/harbour-wall")
    assert not any("the page is its discussion" in note for note in typed.evidence)


def test_a_few_comment_names_are_not_counted() -> None:
    assert read_discussion(parse_html(thread(3)), named=3) is None
