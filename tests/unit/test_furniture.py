"""The article-furniture refinements: captions, bylines and the headline leave the content."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lxml.html import HtmlElement
from markdown_it import MarkdownIt

from extractor import ALL_RULES, ExtractOptions, extract, parse_fragment
from extractor._furniture import (
    _BYLINE,
    _CAPTION,
    _hinted,
    holds_author_name,
    normalise_title,
    select_bylines,
    select_captions,
    select_headline,
    sparing_authors,
)
from renderer.cli.output import render_output

BODY = "".join(
    f"<p>Paragraph {n} says what the harbour board decided about the winter ferry and why the "
    "late crossing will not run until the spring.</p>"
    for n in range(4)
)


def texts(elements: list) -> list[str]:
    return [" ".join(element.text_content().split()) for element in elements]


def test_captions_go_and_pictures_stay() -> None:
    root = parse_fragment(
        '<figure><img src="a.jpg" alt="Quay"><figcaption>The quay at dawn</figcaption>'
        "<cite>Photo: Ann Lee</cite></figure>"
        '<div class="InlineImage-imageEmbedCaption">Boats in the harbour</div>'
        '<div class="wp-caption"><img src="b.jpg"><p class="wp-caption-text">Nets</p></div>'
        "<figure><blockquote>A pull quote is text</blockquote></figure>"
        f"{BODY}"
    )
    assert texts(select_captions(root)) == [
        "The quay at dawn",
        "Photo: Ann Lee",
        "Boats in the harbour",
        "Nets",
    ]


def test_long_caption_classed_blocks_are_not_captions() -> None:
    root = parse_fragment(f'<div class="article-caption-wrapper">{BODY * 2}</div>')
    assert select_captions(root) == []


def test_bylines_are_short_lines_only() -> None:
    root = parse_fragment(
        '<p class="byline">By Ann Lee and Bo Berg, Kelvik Courier</p>'
        '<span class="timestamp">Updated 5:27 am, 20 November 2019</span>'
        '<div class="UpdatedAt2dEU"><span class="UpdatedAt-text">Updated about 1 year ago</span></div>'
        '<div class="theme-last-updated">Last updated on May 2, 2024</div>'
        '<div class="author-bio">'
        + BODY
        + "</div>"  # a bio with paragraphs is text
        + BODY
    )
    assert texts(select_bylines(root)) == [
        "By Ann Lee and Bo Berg, Kelvik Courier",
        "Updated 5:27 am, 20 November 2019",
        "Updated about 1 year ago",
        "Last updated on May 2, 2024",
    ]


HINT_ATTRIBUTES = ("class", "id", "itemprop", "rel", "data-testid", "title")
HINT_PIECES = st.sampled_from(
    [
        "by",
        "line",
        "-",
        "_",
        " ",
        "\t",
        "author",
        "s",
        "name",
        "date",
        "time",
        "stamp",
        "pub",
        "published",
        "post",
        "entry",
        "article",
        "meta",
        "caption",
        "Credit",
        "BYLINE",
        "x",
    ]
)


def joined_hints(element: HtmlElement) -> str:
    """The first, plain way to read hints: the attributes joined by spaces."""
    return " ".join(
        element.get(name, "") for name in ("class", "id", "itemprop", "rel", "data-testid")
    )


@given(
    st.lists(
        st.dictionaries(
            st.sampled_from(HINT_ATTRIBUTES), st.lists(HINT_PIECES, max_size=5).map("".join)
        ),
        min_size=1,
        max_size=6,
    )
)
def test_hinted_finds_what_a_search_of_the_joined_attributes_finds(
    attribute_sets: list[dict[str, str]],
) -> None:
    root = parse_fragment("<div>" + "<span>x</span>" * len(attribute_sets) + "</div>")
    spans = list(root.iter("span"))
    for span, attributes in zip(spans, attribute_sets, strict=True):
        for name, value in attributes.items():
            span.set(name, value)
    for pattern in (_CAPTION, _BYLINE):
        expected = [span for span in spans if pattern.search(joined_hints(span))]
        assert _hinted(root, pattern) == expected


def test_headline_is_a_leading_h1_rewording_the_title_or_a_heading_repeating_it() -> None:
    titles = frozenset({normalise_title("Ferry Cut: What Changes")})
    lead_h1 = parse_fragment(f"<h1>What changes with the ferry cut</h1>{BODY}")
    assert texts(select_headline(lead_h1, titles)) == ["What changes with the ferry cut"]
    # An <h1> that says something else than every title is content, not a second headline.
    other_h1 = parse_fragment(f"<h1>Rotas your whole clinic can live with</h1>{BODY}")
    assert select_headline(other_h1, titles) == []
    h2 = parse_fragment(f"<h2>Ferry cut — what changes</h2>{BODY}")
    assert texts(select_headline(h2, titles)) == ["Ferry cut — what changes"]
    late = parse_fragment(f"{BODY}<h1>Ferry Cut: What Changes</h1>")
    assert select_headline(late, titles) == []  # past the first blocks: not the headline
    section = parse_fragment(f"<h2>What changes in winter</h2>{BODY}")
    assert select_headline(section, titles) == []
    # A one-word title shares a word with a heading that says much more: that is content.
    for title, heading in (
        ("Pricing", "Simple pricing that scales with your team"),
        ("Menu", "Dinner Menu"),
    ):
        page = parse_fragment(f"<h1>{heading}</h1>{BODY}")
        assert select_headline(page, frozenset({normalise_title(title)})) == []


PAGE = (
    "<html><head><title>Ferry cut | Kelvik Courier</title></head><body><article>"
    '<h1>Ferry cut</h1><p class="byline">By Ann Lee</p>'
    '<figure><img src="https://example.com/q.jpg" alt="Quay"><figcaption>The quay</figcaption>'
    f"</figure>{BODY}</article></body></html>"
)


def test_extraction_leaves_furniture_out_and_each_switch_brings_it_back() -> None:
    result = extract(PAGE, url="https://example.com/ferry")
    assert result.metadata.title == "Ferry cut"
    for furniture in ("Ferry cut", "By Ann Lee", "The quay"):
        assert furniture not in result.text
    assert "Paragraph 3" in result.text and "![Quay]" in result.markdown
    names = {entry.name for entry in result.trace if entry.kind == "post"}
    assert {"captions", "bylines", "headline"} <= names
    for rule, furniture in (
        ("captions", "The quay"),
        ("bylines", "By Ann Lee"),
        ("headline", "Ferry cut"),
    ):
        kept = extract(
            PAGE, url="https://example.com/ferry", options=ExtractOptions(rules=ALL_RULES - {rule})
        )
        assert furniture in kept.text


@pytest.mark.parametrize(
    ("output_format", "start"),
    [
        ("markdown", "# Ferry cut\n\n![Quay]"),
        ("text", "Ferry cut\n\nParagraph 0"),
        ("html", "<h1>Ferry cut</h1>\n<figure><img"),
    ],
)
def test_documents_put_the_title_on_top(output_format: str, start: str) -> None:
    assert render_output(extract(PAGE), output_format).startswith(start)


def test_the_title_heading_is_escaped() -> None:
    page = PAGE.replace(
        "<title>Ferry cut | Kelvik Courier", "<title>&lt;img src=x onerror=alert(1)&gt; *x*"
    )
    page = page.replace("<h1>Ferry cut</h1>", "")
    result = extract(page)
    assert result.metadata.title and "<img" in result.metadata.title
    assert "<img" not in render_output(result, "html").split("\n")[0]
    markdown_heading = render_output(result, "markdown").split("\n")[0]
    rendered = MarkdownIt("commonmark").render(markdown_heading)
    assert rendered.startswith("<h1>") and "<img" not in rendered and "&lt;img" in rendered


POST_META = (
    "<div class='crawler-post-meta'><span class='creator' itemprop='author'>"
    "<a href='/u/{name}'><span itemprop='name'>{name}</span></a></span>"
    "<span class='crawler-post-infos'><time itemprop='datePublished'>March 3, 2025, 9:14am"
    "</time><span class='post-number'>#{n}</span></span></div>"
)
MEMBER_CARD = (
    "<div class='post-author'><a class='username' href='/members/{name}.12/'>{name}</a>"
    "<span class='userTitle'>Well-known member</span><dl><dt>Messages</dt><dd>1,204</dd></dl>"
    "</div>"
)


def test_a_threads_bylines_keep_the_authors_names_and_lose_the_rest() -> None:
    for meta in (POST_META, MEMBER_CARD):
        html = "".join(
            f"<article>{meta.format(name=name, n=n)}<p>Post {n} by {name}.</p></article>"
            for n, name in enumerate(("marisol_k", "Odile R.", "tkessler"), start=1)
        )
        root = parse_fragment(f"<div>{html}</div>")
        kept = " ".join(texts(select_bylines(root, keep_authors=True)))
        for name in ("marisol_k", "Odile R.", "tkessler"):
            assert name not in kept
        assert ("March 3, 2025" in kept) or ("1,204" in kept)
        gone = " ".join(texts(select_bylines(root)))
        assert "marisol_k" in gone  # an article's byline goes whole


def test_a_comments_tagline_keeps_the_name_and_loses_its_scores() -> None:
    # old Reddit: "[–]Ragnar_Dragonfyre 188 points190 points 17 hours ago (11 children)"
    tagline = (
        "<p class='tagline'><a href='javascript:void(0)' class='expand'>[–]</a>"
        "<a href='https://old.reddit.com/user/{name}' class='author'>{name}</a> "
        "<span class='score'>188 points</span><time>17 hours ago</time> (11 children)</p>"
    )
    html = "".join(
        f"<div class='entry'>{tagline.format(name=name)}<p>A reply by {name}.</p></div>"
        for name in ("Ragnar_Dragonfyre", "rich1051414")
    )
    root = parse_fragment(f"<div>{html}</div>")
    kept = " ".join(texts(select_bylines(root, keep_authors=True)))
    assert "188 points" in kept and "17 hours ago" in kept
    assert "Ragnar_Dragonfyre" not in kept and "rich1051414" not in kept


def test_a_news_entrys_byline_keeps_the_name_and_loses_the_date() -> None:
    entry = (
        "<div><h3><a href='/a'>Heat pumps pass the winter test</a></h3>"
        "<p class='entry-meta'><span class='byline'>By Harriet Okonjo</span> &middot; "
        "<time datetime='2025-02-11'>11 February 2025</time></p></div>"
    )
    root = parse_fragment(f"<div>{entry}</div>")
    kept = " ".join(texts(select_bylines(root, keep_authors=True)))
    assert "Harriet Okonjo" not in kept and "11 February 2025" in kept
    assert "Harriet Okonjo" in " ".join(texts(select_bylines(root)))


def test_a_forum_thread_keeps_its_authors() -> None:
    posts = "".join(
        f"<div class='topic-body crawler-post'>{POST_META.format(name=name, n=n)}"
        f"<div class='post' itemprop='text'><p>{text}</p></div></div>"
        for n, (name, text) in enumerate(
            (
                (
                    "marisol_k",
                    "Every paired sensor in the greenhouse reports unavailable after "
                    "the power cut, and re-pairing one at a time only brings it back for an hour.",
                ),
                (
                    "tkessler",
                    "The last update lowered the default transmit power, which would "
                    "explain why the far end of the greenhouse drops first; raise it in the config.",
                ),
                (
                    "puddlejumper",
                    "I put the transmit power back to twenty in the radio settings "
                    "and every sensor has stayed online for three days since, even the far ones.",
                ),
            ),
            start=1,
        )
    )
    html = (
        "<html><head><title>Sensors unavailable after power cut - Support - Home Forum</title>"
        "</head><body><div id='main-outlet'><h1>Sensors unavailable after power cut</h1>"
        f"{posts}</div></body></html>"
    )
    extraction = extract(html.encode(), url="https://forum.example.org/t/sensors-unavailable/4821")
    assert extraction.page_type == "forum"
    for name in ("marisol_k", "tkessler", "puddlejumper"):
        assert name in extraction.text
    assert "greenhouse reports unavailable" in extraction.text


def test_a_line_repeating_the_title_under_the_headline_goes_with_it() -> None:
    titles = frozenset({normalise_title("LuK 628318200 Clutch Kit for Iveco Daily")})
    item = (
        "<h1>LuK 628318200 Clutch Kit for Iveco Daily</h1>"
        "<div><span><b>LuK 628318200 clutch kit for Iveco Daily</b></span></div>"
        "<p>The LuK 628318200 Clutch Kit for Iveco Daily fits vans built 2011 to 2014.</p>"
    )
    chosen = select_headline(parse_fragment(f"{item}{BODY}"), titles)
    assert [element.tag for element in chosen] == ["h1", "div"]  # the line, not its parts
    # past the first blocks, the same line is left alone
    late = parse_fragment(f"{BODY}<div><b>LuK 628318200 Clutch Kit for Iveco Daily</b></div>")
    assert select_headline(late, titles) == []


@pytest.mark.parametrize(
    "link",
    [
        '<a href="user?id=wren_k" class="hnuser">wren_k</a>',  # Hacker News, unresolved
        '<a href="https://lobste.rs/~kkiri">kkiri</a>',  # Lobsters
        '<a href="https://forum.example/member.php?u=4411">Ostrander</a>',  # vBulletin 3
        '<a href="member.php?2291-ruthven_p6">ruthven_p6</a>',  # vBulletin 4
        '<a href="https://community.example/member.php?action=profile&uid=9">dbt</a>',  # MyBB
        '<a href="/memberlist.php?mode=viewprofile&u=2">lucia_fs</a>',  # phpBB
    ],
)
def test_profile_links_of_the_forum_platforms_are_names(link: str) -> None:
    assert holds_author_name(parse_fragment(f"<div><span>{link}</span></div>"))


@pytest.mark.parametrize(
    "line",
    [
        # A member card's links and a guest's login links point at the same scripts.
        '<a href="/members/odile.12/">View Profile</a>',
        '<a href="https://community.example/member.php?action=login">Login</a>',
        # A byline of name, permalink and date is the post's header, not a name.
        '<div class="byline"><a href="/c/x">kkiri</a> <a href="/c/y"><time>1 year ago</time></a></div>',
        '<div class="byline">kkiri <time datetime="2024-08-13">1 year ago</time></div>',
    ],
)
def test_lines_that_only_look_like_names_are_not(line: str) -> None:
    root = parse_fragment(f"<div>{line}</div>")
    assert not holds_author_name(root)


def test_sparing_authors_keeps_the_name_and_takes_the_rest_of_the_line() -> None:
    header = parse_fragment(
        '<div><div class="head"><span class="comhead"><a href="user?id=wren_k">wren_k</a> '
        '<span class="age"><a href="item?id=2">5 hours ago</a></span> '
        '<span class="navs">| <a href="#3">next</a></span></span></div></div>'
    )
    taken = sparing_authors([header[0]])
    assert texts(taken) == ["5 hours ago", "| next"]
    plain = parse_fragment('<div><div><a href="/a">Older</a> <a href="/b">Newer</a></div></div>')
    assert sparing_authors([plain[0]]) == [plain[0]]


VBULLETIN_CARD = (
    "<div class='userinfo'><div class='username_container'><a class='username offline' "
    "href='member.php?2291-{name}'><strong>{name}</strong></a></div>"
    "<span class='usertitle'>Senior Member</span><dl class='userinfo_extra'><dt>Join Date</dt>"
    "<dd>Mar 2011</dd><dt>Location</dt><dd>Shropshire</dd></dl></div>"
)


def test_a_forum_members_card_keeps_the_name_and_loses_the_rest() -> None:
    html = "".join(
        f"<li class='postbitlegacy'>{VBULLETIN_CARD.format(name=name)}"
        f"<div class='postbody'><blockquote class='postcontent'>Post by {name}.</blockquote>"
        "</div></li>"
        for name in ("ruthven_p6", "Stanpipe_Geoff")
    )
    root = parse_fragment(f"<ol>{html}</ol>")
    kept = " ".join(texts(select_bylines(root, keep_authors=True)))
    assert "Join Date" in kept and "Senior Member" in kept
    assert "ruthven_p6" not in kept and "Stanpipe_Geoff" not in kept
