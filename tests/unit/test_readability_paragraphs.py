"""readability-lxml's misused-div pass, with phrasing content kept whole
(``extractor/_readability_paragraphs.py``)."""

from __future__ import annotations

import lxml.html
import pytest
from lxml.html import tostring
from readability.readability import REGEXES

from extractor._cascade import Candidate, StageInput
from extractor._readability_paragraphs import holds_block, transform_misused_divs, wrap_phrasing
from extractor._stages import ReadabilityLxmlStage
from extractor._types import PageSnapshot


def upstream_holds_block(div: lxml.html.HtmlElement) -> bool:
    """readability-lxml 0.9's own test: its start-tag pattern over the children's markup."""
    markup = b"".join(tostring(child, encoding="utf-8") for child in div)
    return REGEXES["divToPElementsRe"].search(str(markup)) is not None


@pytest.mark.parametrize(
    "inner",
    [
        "plain words",
        "<span>a</span> and <b>b</b>",
        "<p>a paragraph</p>",
        "<a href='/x'><img src='a.png'></a>",
        "<span><picture><source srcset='a.webp'></picture></span>",  # <p... finds <picture
        "<object><param name='a' value='b'></object>",
        "<ul><li>one</li></ul>",
        "<span title='&lt;div&gt;'>an attribute that spells a tag</span>",
        "words that spell &lt;p&gt; a tag",
        "<textarea>&lt;h1&gt;escaped&lt;/h1&gt;</textarea>",
        "<script>document.write('<div>')</script>",
        "<style>p { color: red }</style>",
        "<!-- <table> in a comment -->",
        "<!-- a comment -->",
        "<code>x &lt; y</code>",
        "<svg><path d='M0 0'></path></svg>",
        "<pre>code</pre>",
        "<section><blockquote>q</blockquote></section>",
    ],
)
def test_the_block_test_is_upstreams(inner: str) -> None:
    div = lxml.html.fragment_fromstring(f"<div>{inner}</div>")
    assert holds_block(div) == upstream_holds_block(div)


def paragraphs(markup: str) -> list[str]:
    root = lxml.html.fragment_fromstring(markup, create_parent="body")
    transform_misused_divs(root)
    return [" ".join(p.text_content().split()) for p in root.iter("p")]


def test_a_sentence_past_an_inline_element_after_a_block_stays_whole() -> None:
    found = paragraphs(
        "<div><p>The first paragraph.</p>Then the <tt>List</tt> interface, with <b>fewer"
        " weeds</b> after it.<pre>code()</pre>A tail after the code.</div>"
    )
    assert found == [
        "The first paragraph.",
        "Then the List interface, with fewer weeds after it.",
        "A tail after the code.",
    ]


def test_a_line_break_ends_a_paragraph_and_goes() -> None:
    root = lxml.html.fragment_fromstring(
        "<div>One line <i>here</i><br>another <code>there</code><p>A block.</p></div>"
    )
    wrap_phrasing(root)
    assert [" ".join(p.text_content().split()) for p in root] == [
        "One line here",
        "another there",
        "A block.",
    ]
    assert root.find(".//br") is None


def test_a_div_with_no_block_becomes_a_paragraph_and_an_inline_block_breaks_the_run() -> None:
    found = paragraphs(
        "<div><div>A whole <em>div</em> of words.</div>Words <span><img src='a.png'></span>"
        " after.</div>"
    )
    assert found == ["A whole div of words.", "Words", "after."]


def test_readability_lxml_reads_a_javadoc_description_in_whole_sentences() -> None:
    body = (
        '<div class="block">Resizable-array implementation of the <tt>List</tt> interface. It'
        " permits all elements, including <tt>null</tt>, and keeps them in the order given."
        "<p>The <tt>size</tt>, <tt>isEmpty</tt> and <tt>get</tt> operations run in constant"
        " time, and adding n elements takes O(n) time, which the class documents.</p>"
        "<p>Note that this implementation is not synchronized, so threads that share it must"
        " lock it themselves when one of them changes its structure.</p></div>"
    )
    html = f"<html><body>{body}</body></html>"
    page = StageInput(
        snapshot=PageSnapshot(html=html), document=lxml.html.document_fromstring(html), base_url=None
    )
    candidate = ReadabilityLxmlStage()(page)
    assert isinstance(candidate, Candidate)
    texts = [" ".join(p.text_content().split()) for p in candidate.element.iter("p")]
    assert texts[0].startswith("Resizable-array implementation of the List interface. It")
