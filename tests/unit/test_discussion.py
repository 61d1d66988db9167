"""A page that is its own discussion (a link aggregator's thread) is a forum: its comment
sections hold most of its words and little stands beside them."""

from __future__ import annotations

from extractor import extract
from extractor._discussion import MAX_BESIDE, MIN_NAMED, read_discussion
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
    assert read_discussion(parse_html(thread(3)), named=MIN_NAMED - 1) is None


SAID = (
    "Run VACUUM after the conversion, otherwise the freed pages stay in the file.",
    "Inserts were about eight percent slower in our test; the appendix has the numbers.",
    "JSONB needs SQLite 3.45 or newer, and some LTS distributions still ship 3.37.",
    "Every few years I relearn that SQLite is good enough for far more than I assume.",
)


def hn_item(said: tuple[str, ...]) -> str:
    """A Hacker News item page as the site serves it: a layout table, the story's line, the
    comment tree (each comment's header all links, its own "reply" link) and the footer."""
    rows = "".join(
        f"<tr class='athing comtr' id='{n}'><td><table border='0'><tr><td class='ind'></td>"
        "<td class='default'><div><span class='comhead'>"
        f'<a href="user?id=member{n}" class="hnuser">member{n}</a> <span class="age">'
        f'<a href="item?id={n}">{n} hours ago</a></span> <span class="navs"> | '
        f'<a href="#{n + 1}" class="clicky">next</a> <a class="togg clicky" href="#">[–]</a>'
        "</span></span></div><br><div class='comment'>"
        f"<div class='commtext c00'>{text}</div><div class='reply'><p><font size='1'>"
        f'<u><a href="reply?id={n}">reply</a></u></font></p></div></div></td></tr></table>'
        "</td></tr>"
        for n, text in enumerate(said, start=1)
    )
    return (
        "<html op='item'><head><title>SQLite's JSONB is 3x faster | Hacker News</title></head>"
        "<body><center><table id='hnmain'><tr><td><span class='pagetop'><b class='hnname'>"
        "<a href='news'>Hacker News</a></b> <a href='newest'>new</a> | <a href='ask'>ask</a>"
        "</span></td></tr><tr><td><table class='fatitem'><tr class='athing submission'>"
        "<td class='title'><span class='titleline'><a href='https://blog.example/jsonb'>"
        "SQLite's JSONB is 3x faster</a></span></td></tr><tr><td class='subtext'>"
        "<span class='score'>287 points</span> by <a href='user?id=op' class='hnuser'>op</a> | "
        f"<a href='item?id=1'>{len(said)} comments</a></td></tr></table><br>"
        f"<table class='comment-tree'>{rows}</table></td></tr><tr><td><center>"
        "<span class='yclinks'><a href='newsguidelines.html'>Guidelines</a> | "
        "<a href='newsfaq.html'>FAQ</a> | <a href='legal'>Legal</a> | "
        "<a href='apply'>Apply to YC</a></span><br><form action='//hn.algolia.com/'>Search: "
        "<input name='q'></form></center></td></tr></table></center></body></html>"
    )


def test_a_short_hacker_news_thread_keeps_its_comments_with_their_authors() -> None:
    # Four comments name five elements: under the former threshold of ten, the page read as
    # a listing and the ``comments`` rule took every comment.
    url = "https://news.ycombinator.com/item?id=41288310"
    extraction = extract(hn_item(SAID), url=url)
    assert extraction.page_type == "forum"
    text = extraction.text
    for n, said in enumerate(SAID, start=1):
        assert said in text and f"member{n}" in text
    assert text.index("member1") < text.index(SAID[0]) < text.index("member2")
    for chrome in ("reply", "hours ago", "Guidelines", "Apply to YC", "[–]"):
        assert chrome not in text
