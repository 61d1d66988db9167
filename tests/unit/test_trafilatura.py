"""trafilatura as a judge (extractor/_trafilatura.py): the page it is given and what it reads."""

from __future__ import annotations

import lxml.html
import pytest

import extractor._trafilatura as judge_module
from extractor import extract
from extractor._cascade import Candidate, Skip, StageInput
from extractor._options import ALL_RULES
from extractor._rules import FEED_MARK, HIDDEN_MARK, VISIBLE_MARK
from extractor._trafilatura import TrafilaturaStage, judge_document
from extractor._types import PageSnapshot

PROSE = " ".join(
    f"Sentence {i} of the guide explains one more step of the installation in plain words."
    for i in range(12)
)


def stage_input(html: str) -> StageInput:
    return StageInput(
        snapshot=PageSnapshot(html=html),
        document=lxml.html.document_fromstring(html),
        base_url="https://docs.example/guide",
        rules=ALL_RULES,
    )


def test_judge_document_drops_what_the_renderer_saw_hidden_and_scripts() -> None:
    html = (
        f"<html><body><p>{PROSE}</p><div {HIDDEN_MARK}='display'>unseen promo text</div>"
        f"<div {HIDDEN_MARK}='visibility'><p {VISIBLE_MARK}=''>shown again child</p></div>"
        f"<div {FEED_MARK}=''><p>Feed story number 1</p></div>"
        "<script>var injected = 'script words';</script></body></html>"
    )
    text = judge_document(html, ALL_RULES).text_content()
    assert "unseen promo" not in text and "script words" not in text
    assert "Feed story" not in text  # an endless feed the renderer scrolled
    assert "shown again child" in text  # visibility:hidden undone below is not hidden


def test_judge_document_keeps_hidden_elements_when_the_caller_keeps_hidden() -> None:
    html = f"<html><body><div {HIDDEN_MARK}='display'>kept on request</div></body></html>"
    assert "kept on request" in judge_document(html, ALL_RULES - {"hidden"}).text_content()


def test_judge_document_drops_what_the_hidden_attribute_hides() -> None:
    # eBay's "Loading details" dialog holds an error notice; a tab's panel is a click away
    html = (
        f"<html><body><p>{PROSE}</p>"
        '<div role="dialog" aria-modal="true" HIDDEN><section>'
        "<p>Oops! HIDDENNOTICE trouble connecting to our server.</p></section></div>"
        '<div role="tabpanel" hidden><p>TABPANEL size guide</p></div>'
        '<div hidden="until-found"><p>UNTILFOUND answer</p></div></body></html>'
    )
    text = judge_document(html, ALL_RULES).text_content()
    assert "HIDDENNOTICE" not in text and "Sentence 11" in text
    assert "TABPANEL" in text and "UNTILFOUND" in text
    assert "HIDDENNOTICE" in judge_document(html, ALL_RULES - {"hidden"}).text_content()
    # a collapsed FAQ answer, which the cascade opens where the collapsed rule is off
    faq = html.replace(
        "</body>",
        '<button aria-expanded="false" aria-controls="a1">Q?</button>'
        '<div id="a1" hidden><p>FAQANSWER ships in two days</p></div></body>',
    )
    assert "FAQANSWER" in judge_document(faq, ALL_RULES - {"collapsed"}).text_content()
    assert "FAQANSWER" not in judge_document(faq, ALL_RULES).text_content()


def test_judge_document_unwraps_a_page_served_inside_noscript() -> None:
    html = f"<html><body><div id='app'></div><noscript><p>{PROSE}</p></noscript></body></html>"
    assert "Sentence 11" in judge_document(html, ALL_RULES).text_content()


def test_trafilatura_reads_headings_code_and_inline_code() -> None:
    html = (
        "<html><head><title>Guide</title></head><body><nav><a href='/'>Home</a> <a href='/x'>X</a>"
        f"</nav><main><h2>Installing</h2><p>{PROSE}</p>"
        "<p>Then run <code>pip install tool</code> in a shell and wait for it to finish.</p>"
        "<pre><code>tool --version\ntool init</code></pre></main></body></html>"
    )
    outcome = TrafilaturaStage()(stage_input(html))
    assert isinstance(outcome, Candidate)
    markup = lxml.html.tostring(outcome.element, encoding="unicode")
    assert "<h2>Installing</h2>" in markup or "Installing" in outcome.element.text_content()
    assert "tool init" in outcome.element.text_content()
    # Inline code stays in its sentence: the paragraph is not cut at the code.
    sentence = next(p for p in outcome.element.iter("p") if "pip install" in p.text_content())
    assert "wait for it to finish" in sentence.text_content()


def test_trafilatura_is_not_asked_about_a_huge_page(monkeypatch) -> None:
    monkeypatch.setattr(judge_module, "TRAFILATURA_MAX_ELEMENTS", 5)
    outcome = TrafilaturaStage()(stage_input(f"<html><body><p>{PROSE}</p>" + "<b>x</b>" * 10))
    assert isinstance(outcome, Skip) and "elements" in outcome.reason


@pytest.mark.parametrize(
    ("body", "dropped", "kept"),
    [
        pytest.param(  # what every Webflow style sheet hides until the form is sent
            f"<form class='w-form'><p>{PROSE}</p></form>"
            "<div class='w-form-done'><div>FORMDONE Thank you! Your submission has been "
            "received!</div></div><div class='w-form-fail'><div>FORMFAIL Oops! Something went "
            "wrong.</div></div><div class='w-form-done-note'><p>LOOKALIKE stays</p></div>",
            ("FORMDONE", "FORMFAIL"),
            ("LOOKALIKE",),
            id="webflow",
        ),
        pytest.param(  # Bazaarvoice's SEO SDK debug list, as served on a product page
            f"<div class='description'><p>{PROSE}</p></div>"
            '<ul id="BVSEOSDK_meta" style="display: none !important;"><li>SDKDEBUG bvseo_sdk'
            "</li><li>bvseo-msg: SEO SDK is disabled.</li></ul>"
            # a tab a script shows, and an !important that hides nothing, stay
            "<div class='tab' style='display:none'><p>TABSPECS 20 oz, stainless steel</p></div>"
            "<p style='color: red !important'>IMPORTANTCOLOUR stays</p>",
            ("SDKDEBUG",),
            ("TABSPECS", "IMPORTANTCOLOUR"),
            id="display-none-important",
        ),
    ],
)
def test_judge_document_drops_what_is_hidden_for_good(
    body: str, dropped: tuple[str, ...], kept: tuple[str, ...]
) -> None:
    html = f"<html><body>{body}</body></html>"
    text = judge_document(html, ALL_RULES).text_content()
    assert not any(marker in text for marker in dropped)
    assert all(marker in text for marker in (*kept, "Sentence 11"))
    unhidden = judge_document(html, ALL_RULES - {"hidden"}).text_content()
    assert all(marker in unhidden for marker in dropped)


def test_hidden_text_of_a_rendered_forum_never_comes_back_through_the_judge() -> None:
    posts = "".join(
        f"<div class='post'><span class='author'>member{i}</span><p>Reply {i}: {PROSE}</p></div>"
        for i in range(4)
    )
    html = (
        '<html><head><title>Thread</title><script type="application/ld+json">'
        '{"@type": "DiscussionForumPosting", "headline": "Thread"}</script></head><body>'
        f"<div class='thread'>{posts}<div class='post' {HIDDEN_MARK}='display'>"
        "<p>Moderator-only note that no reader sees on the page.</p></div></div></body></html>"
    )
    result = extract(PageSnapshot(html=html, url="https://forum.example/t/1"))
    assert result.page_type == "forum"
    assert any(entry.name in ("trafilatura", "combined") for entry in result.trace)
    assert "Moderator-only" not in result.text
    assert all(f"Reply {i}:" in result.text for i in range(4))


def test_a_list_items_divs_are_read_apart() -> None:
    # trafilatura runs a list item's divs together ("Screen Size64.5 inches"), and the merge
    # then kept both readings' copies of the list
    specs = "".join(
        f"<li><div>{label}</div><div>{value}</div></li>"
        for label, value in (("Screen Size", "64.5 inches"), ("Weight", "40 pounds"))
    )
    page = f"<html><body><main><h1>TV specs</h1><p>{PROSE}</p><ul>{specs}</ul></main></body></html>"
    text = extract(page, url="https://shop.example/news/tv").text
    assert "Size64.5" not in text and "Weight40" not in text
    assert text.count("64.5 inches") == 1 and text.count("40 pounds") == 1


THREAD = (
    "<html><head><title>Higher Logic ends open source Vanilla</title></head><body>"
    "<div id='Content'><div class='DataBox DataBox-Discussion'><div class='Discussion'>"
    "<h1>Higher Logic ends open source Vanilla</h1><div class='Message userContent'>"
    f"<p>OPENINGPOST {PROSE}</p></div></div></div>"
    "<div class='CommentsWrap'><div class='DataBox DataBox-Comments'>"
    "<h2 class='CommentHeading'>Comments</h2><ul class='MessageList DataList Comments'>"
    + "".join(
        f"<li class='Item ItemComment' id='Comment_{n}'><div class='Comment'>"
        f"<span class='Author'><a href='/profile/member{n}'>member{n}</a></span>"
        f"<div class='Message userContent'><p>REPLY{n} Thanks for letting us know, we moved"
        f" our board to another host last month and it went well for everyone.</p></div>"
        "</div></li>"
        for n in range(4)
    )
    + "</ul></div></div></div></body></html>"
)


def test_a_threads_replies_come_back_in_the_judges_reading_on_a_forum() -> None:
    # trafilatura's HTML output leaves out the comments it extracts; on a forum the replies
    # are the content, so they follow the opening post. Elsewhere they stay out.
    forum = TrafilaturaStage(comments=True)(stage_input(THREAD))
    assert isinstance(forum, Candidate)
    text = forum.element.text_content()
    assert "OPENINGPOST" in text
    assert all(f"REPLY{n}" in text for n in range(4))
    assert text.index("OPENINGPOST") < text.index("REPLY0") < text.index("REPLY3")
    article = TrafilaturaStage()(stage_input(THREAD))
    assert isinstance(article, Candidate) and "REPLY0" not in article.element.text_content()


def test_a_specification_rows_label_and_value_keep_their_space() -> None:
    # Best Buy's spec rows: <li><div>label</div><div>value</div></li>; trafilatura strips the
    # white space between the divs ("Battery Life30 hours")
    rows = "".join(
        f"<li class='row-value'><div class='row-title'>{label}</div>"
        f"<div class='row-value'>{value}</div></li>"
        for label, value in (("Battery Life", "30 hours"), ("Headphone Fit", "Over-the-Ear"))
    )
    html = (
        f"<html><body><main><h1>Headphones</h1><p>{PROSE}</p><h2>Specifications</h2>"
        f"<ul>{rows}</ul></main></body></html>"
    )
    outcome = TrafilaturaStage()(stage_input(html))
    assert isinstance(outcome, Candidate)
    text = " ".join(outcome.element.text_content().split())
    assert "Battery Life 30 hours" in text and "Headphone Fit Over-the-Ear" in text
    # an item holding a post's paragraphs keeps its blocks
    post = f"<li><div class='author'>member1</div><div class='message'><p>{PROSE}</p></div></li>"
    document = judge_document(f"<html><body><ul>{post}</ul></body></html>", ALL_RULES)
    assert [child.tag for child in document.find(".//li")] == ["div", "div"]
