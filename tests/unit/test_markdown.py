"""Markdown output: structure kept, page text never turned into markup, no needless escapes."""

from __future__ import annotations

import html

import pytest
from markdown_it import MarkdownIt

from extractor import html_to_markdown


def test_structure_is_kept() -> None:
    markdown = html_to_markdown(
        "<h2>Setup</h2><p>Use <a href='https://a.test/x'>the guide</a>.</p>"
        "<ul><li>one</li><li>two</li></ul><ol><li>first</li></ol>"
        "<pre><code class='language-python'>def f():\n    return 1</code></pre>"
        "<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>"
        "<p><img src='https://a.test/i.png' alt='A chart'></p><blockquote><p>Quoted.</p></blockquote>"
    )
    for expected in (
        "## Setup",
        "[the guide](https://a.test/x)",
        "- one\n- two",
        "1. first",
        "```python\ndef f():\n    return 1\n```",
        "| a | b |",
        "![A chart](https://a.test/i.png)",
        "> Quoted.",
    ):
        assert expected in markdown, expected


@pytest.mark.parametrize(
    ("text", "forbidden"),
    [
        ("[click](javascript:alert(1))", "[click](javascript"),
        ("&lt;script&gt;alert(1)&lt;/script&gt;", "<script>"),
        ("&lt;http://evil.test&gt;", "<http://evil.test>"),
        ("![x](https://evil.test/t.png)", "![x](https"),
    ],
)
def test_page_text_never_becomes_markup(text: str, forbidden: str) -> None:
    assert forbidden not in html_to_markdown(f"<p>{text}</p>")


@pytest.mark.parametrize(
    ("html", "expected_line"),
    [
        ("<p>Python 3.11 is rate-limited to +5 requests, a = b &amp; c.</p>",
         "Python 3.11 is rate-limited to +5 requests, a = b & c."),
        ("<p>- not a list item</p>", "\\- not a list item"),
        ("<p>1. not a list either</p>", "1\\. not a list either"),
        ("<p># not a heading</p>", "\\# not a heading"),
        ("<p>Say <code>a\\.b</code> literally</p>", "Say `a\\.b` literally"),
    ],
)  # fmt: skip
def test_escapes_only_where_they_matter(html: str, expected_line: str) -> None:
    assert expected_line in html_to_markdown(html).splitlines()


def test_code_blocks_are_verbatim() -> None:
    markdown = html_to_markdown("<pre>x\\.y = [1] &lt;tag&gt;\n  - item</pre>")
    assert "x\\.y = [1] <tag>\n  - item" in markdown


@pytest.mark.parametrize(
    "code",
    [
        "def f():\n\n\n    return 1",  # two blank lines: Python separates functions with them
        "line with trailing spaces   \n\tindented with a tab",
        "```\nx\\.y inside an inner fence\n```",  # fenced with four backticks then
    ],
)
def test_code_keeps_blank_lines_and_spaces(code: str) -> None:
    markdown = html_to_markdown(f"<p>Before.</p><pre><code>{html.escape(code)}</code></pre>")
    assert f"\n{code}\n" in markdown


def test_cleanups_stop_at_the_closing_fence() -> None:
    markdown = html_to_markdown("<pre><code>x</code></pre><p>a<br><br><br>b 3.5</p><p>c</p>")
    assert "3.5" in markdown  # unescaped again after the fence closed


def test_line_breaks_stay_hard_breaks() -> None:
    assert "One\\\nTwo" in html_to_markdown("<p>One<br>Two</p>")


def test_quote_is_set_apart_from_the_block_before() -> None:
    lines = html_to_markdown("<h4>Said</h4><blockquote><p>Quoted.</p></blockquote>").splitlines()
    assert lines == ["#### Said", "", "> Quoted."]


def test_emphasis_inside_a_caption_does_not_nest() -> None:
    markdown = html_to_markdown(
        "<figure><img src='https://a.test/i.png' alt='A'>"
        "<figcaption>Hooks, <em>screwed in</em></figcaption></figure>"
    )
    assert "*Hooks, screwed in*" in markdown


@pytest.mark.parametrize("text", ["&#39;", "&amp;", "&#x41;", "&copy;"])
def test_entity_like_page_text_stays_text(text: str) -> None:
    markdown = html_to_markdown(f"<p>Write {html.escape(text)} here.</p>")
    rendered = MarkdownIt("commonmark").render(markdown)
    assert f"<p>Write {html.escape(text)} here.</p>" in rendered


@pytest.mark.parametrize("tag", ["table", "pre", "blockquote", "figure"])
def test_an_empty_block_keeps_the_words_around_it_apart(tag: str) -> None:
    # The converter writes nothing for an empty block, so the words on either side met.
    markdown = html_to_markdown(f"<div>the quiet<{tag}></{tag}>the end</div>")
    assert "quietthe" not in markdown
    assert markdown.split() == ["the", "quiet", "the", "end"]
