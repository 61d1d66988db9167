"""Post-processing: lazy images, absolute URLs, whitespace, sanitising, plain text."""

from __future__ import annotations

import lxml.html
import pytest

from extractor._postprocess import (
    CleanContent,
    best_srcset_url,
    postprocess,
    promote_lazy_images,
    resolve_base_url,
    without_trailing_headings,
)


def fragment(html: str) -> lxml.html.HtmlElement:
    return lxml.html.fragment_fromstring(html, create_parent="div")


@pytest.mark.parametrize(
    ("img", "expected"),
    [
        ('<img data-src="/real.jpg">', "/real.jpg"),
        ('<img src="" data-original="/o.jpg">', "/o.jpg"),
        ('<img src="data:image/gif;base64,R0lGOD" data-lazy-src="/l.jpg">', "/l.jpg"),
        ('<img src="/img/placeholder.png" data-src="/p.jpg">', "/p.jpg"),
        ('<img src="blank.gif" data-srcset="/s-400.jpg 400w, /s-800.jpg 800w">', "/s-800.jpg"),
        ('<img srcset="/x1.jpg 1x, /x2.jpg 2x">', "/x2.jpg"),
        ('<img src="/keep.jpg" data-src="/other.jpg">', "/keep.jpg"),
        ('<picture><source srcset="/pic-1200.webp 1200w"><img></picture>', "/pic-1200.webp"),
    ],
)
def test_lazy_images_get_their_real_source(img: str, expected: str) -> None:
    root = fragment(img)
    promote_lazy_images(root)
    assert root.find(".//img").get("src") == expected


@pytest.mark.parametrize(
    ("srcset", "expected"),
    [
        ("a.jpg 300w, b.jpg 900w, c.jpg 600w", "b.jpg"),
        ("a.jpg", "a.jpg"),
        ("a.jpg 1x,b.jpg 3x", "b.jpg"),
        ("", None),
    ],
)
def test_best_srcset_url(srcset: str, expected: str | None) -> None:
    assert best_srcset_url(srcset) == expected


def test_urls_become_absolute_against_the_base() -> None:
    root = fragment(
        '<p><a href="../b.html">b</a> <a href="//cdn.example.net/x">x</a> <img src="photo.png"></p>'
    )
    content = postprocess(root, base_url="https://static.example.org/blog/post/")
    assert 'href="https://static.example.org/blog/b.html"' in content.html
    assert 'href="https://cdn.example.net/x"' in content.html
    assert 'src="https://static.example.org/blog/post/photo.png"' in content.html


@pytest.mark.parametrize(
    ("page_url", "head", "expected"),
    [
        ("https://a.test/x/y.html", "", "https://a.test/x/y.html"),
        ("https://a.test/x/y.html", '<base href="/root/">', "https://a.test/root/"),
        ("https://a.test/x/y.html", '<base href="https://b.test/c/">', "https://b.test/c/"),
        (None, '<base href="https://b.test/c/">', "https://b.test/c/"),
        ("https://a.test/", '<base href="javascript:alert(1)">', "https://a.test/"),
        (None, "", None),
    ],
)
def test_resolve_base_url(page_url: str | None, head: str, expected: str | None) -> None:
    document = lxml.html.document_fromstring(
        f"<html><head>{head}</head><body><p>x</p></body></html>"
    )
    assert resolve_base_url(document, page_url) == expected


def test_sanitises_everything_executable() -> None:
    root = fragment(
        '<p onclick="steal()">Hello <a href="javascript:alert(1)">there</a>'
        '<img src="x.png" onerror="boom()"><script>evil()</script>'
        '<iframe srcdoc="&lt;script&gt;x()&lt;/script&gt;"></iframe>'
        '<a href=" JaVaScRiPt:alert(2)">again</a><a href="data:text/html,hi">data</a>'
        "<svg><script>svgevil()</script></svg><style>p{}</style></p>"
    )
    html = postprocess(root, base_url="https://a.test/").html
    lowered = html.lower()
    for bad in (
        "onclick",
        "onerror",
        "javascript:",
        "<script",
        "srcdoc",
        "<iframe",
        "data:",
        "evil",
        "<style",
        "<svg",
    ):
        assert bad not in lowered, bad
    assert "Hello" in html and "there" in html


def test_whitespace_is_normalised_but_pre_kept() -> None:
    root = fragment(
        "<p>Many   \n\n\n   spaces\t\tand&nbsp;&nbsp;&nbsp;nbsp</p>\n\n\n\n<p></p><div> </div>"
        "<pre>def f():\n    return  1</pre><p>end</p>"
    )
    content = postprocess(root, base_url=None)
    assert "Many spaces and nbsp" in content.text
    assert "    return  1" in content.text
    assert "\n\n\n" not in content.text and "\n\n\n" not in content.html
    assert "<p></p>" not in content.html and "<div> </div>" not in content.html


def test_blocks_of_zero_width_characters_are_empty() -> None:
    root = fragment(
        "<p>First section.</p><p>&zwj;</p><div>\u200b \ufeff</div><p>&zwj;Second section.</p>"
    )
    content = postprocess(root, base_url=None)
    assert content.text.strip().split("\n\n") == ["First section.", "\u200dSecond section."]


def test_a_span_of_a_space_keeps_the_words_apart() -> None:
    # Sphinx's signatures: "class", a space in a span of its own, the class's name.
    root = fragment(
        '<dl><dt><em class="property"><span class="pre">class</span><span class="w"> </span>'
        '</em><span class="sig-name"><span class="pre">UpdateCacheMiddleware</span></span></dt>'
        "<dd><p>Enable the cache.</p></dd></dl><p>A<span> </span> b</p><p>x<span>\u200b</span>y</p>"
    )
    content = postprocess(root, base_url=None)
    assert "class UpdateCacheMiddleware" in content.text
    assert "A b" in content.text  # a space after it already: no second one
    assert "xy" in content.text  # a zero-width space joins: it is no space
    assert "<span> </span>" not in content.html


def test_highlighted_code_keeps_the_whitespace_its_spans_hold() -> None:
    # Chroma (Hugo) and Pygments put a line's indent and its line break in spans of their own.
    lines = "".join(
        f"<span class=line><span class=w>{indent}</span><span class=nt>{word}</span>"
        "<span class=w>\n</span></span>"
        for indent, word in (("", "services:"), ("  ", "web:"), ("    ", "build: ."))
    )
    root = fragment(f"<p>Compose file:</p><pre class=chroma><code>{lines}</code></pre>")
    assert "services:\n  web:\n    build: .\n" in postprocess(root, base_url=None).text


def test_text_layout_blocks_lists_and_tables() -> None:
    root = fragment(
        "<h2>Title</h2><p>One <b>bold</b> line<br>second line</p>"
        "<ul><li>first</li><li>second</li></ul>"
        "<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>"
    )
    text = postprocess(root, base_url=None).text
    assert text == "Title\n\nOne bold line\nsecond line\n\nfirst\nsecond\n\na b\n1 2\n"


def test_wrapper_divs_are_unwrapped() -> None:
    root = fragment("<div><div><div><p>Deep text here.</p></div></div></div>")
    html = postprocess(root, base_url=None).html
    assert html.count("<div>") == 1 and "<p>Deep text here.</p>" in html


def test_links_that_show_no_words_go_and_the_rest_stay() -> None:
    html = (
        '<h2 id="a">Retry policy<a class="headerlink" href="#a">¶</a></h2>'
        '<h2 id="b">Backoff<a class="hash-link" href="#b">\u200b</a></h2>'
        '<p><a class="md-content__button" href="https://github.com/x/y/edit/main/a.md">'
        '<svg viewBox="0 0 24 24"><path d="M20"></path></svg></a> Edited in May.</p>'
        '<p>See <a href="https://example.org/retries">the retries page</a>, '
        '<a href="https://example.org/tags/python">#</a> and '
        '<a href="https://example.org/big.png"><img src="https://example.org/s.png" alt=""></a>.</p>'
    )
    content = postprocess(fragment(html), base_url="https://docs.example.org/guide/")
    assert "¶" not in content.html and "#a" not in content.html and "#b" not in content.html
    assert "/edit/main/" not in content.html
    assert "Edited in May." in content.text and "Retry policy" in content.text
    assert 'href="https://example.org/retries"' in content.html
    assert 'href="https://example.org/tags/python"' in content.html  # a "#" to elsewhere
    assert 'href="https://example.org/big.png"' in content.html  # a picture's link


def test_links_that_touch_are_read_as_two_words() -> None:
    html = (
        '<div class="actions"><a href="#w">Add to Wish List</a><a href="#c">Add to Compare</a>'
        '</div><p><a href="/a">see</a><a href="/b">(notes)</a> and <a href="/c">one</a>'
        '<a href="/d"><span>2</span></a></p>'
    )
    content = postprocess(fragment(html), base_url="https://shop.example.com/")
    assert "Add to Wish List Add to Compare" in content.text
    assert "see(notes)" in content.text  # a bracket is no letter: nothing added
    assert "one 2" in content.text


def test_headings_that_end_the_content_with_nothing_under_them_go() -> None:
    """A blog index's sidebar left "Recent Posts", "Categories" and "Archives" once the rules
    took their lists; a listing of linked titles, a picture's heading and an FAQ's questions
    stay."""
    sidebar = CleanContent(
        html="<h2>Sourdough knots</h2><p>Read more</p><h2>Recent Posts</h2><h3>Categories</h3>"
        "<h2>Archives</h2>",
        text="",
    )
    trimmed = without_trailing_headings(sidebar)
    assert trimmed.html == "<h2>Sourdough knots</h2><p>Read more</p>"
    assert trimmed.text.strip().splitlines()[-1] == "Read more"
    for kept in (
        "<p>Events</p><h2><a href='/e/1'>DrupalCon Chicago</a></h2><h2><a href='/e/2'>PyCon</a></h2>",
        "<p>Gallery</p><h2>Floor plan <img src='plan.png'></h2>",
        "<p>Sleeping bags</p><h2>How much do sleeping bags cost?</h2>",
    ):
        content = CleanContent(html=kept, text="")
        assert without_trailing_headings(content) is content
