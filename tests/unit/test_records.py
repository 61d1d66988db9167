"""Runs of sibling records, and the stage that widens readability-lxml's pick to them."""

from __future__ import annotations

import lxml.html

from extractor import ExtractOptions, extract
from extractor._cascade import Candidate, Skip, StageInput
from extractor._pagetype import PageType
from extractor._records import CONTAINMENT, RecordsStage, find_run
from extractor._stages import DEFAULT_STAGES
from extractor._typed import typed_rules, typed_stages
from extractor._types import PageSnapshot, ReadabilityResult


def post(i: int) -> str:
    return (
        f'<div class="message"><span class="user">member{i}</span>'
        f"<p>Reply {i}: I switched lenses last spring and the autofocus is far quicker now, "
        f"though the weight took a few weeks to get used to on long walks.</p></div>"
    )


THREAD = (
    "<html><head><title>Lenses</title></head><body><nav><a href='/'>Home</a></nav>"
    f"<div class='thread'>{''.join(post(i) for i in range(6))}</div>"
    "<footer>Forum rules</footer></body></html>"
)


class FixedStage:
    name = "readability-lxml"

    def __init__(self, outcome: Candidate | Skip) -> None:
        self.outcome = outcome

    def __call__(self, page: StageInput) -> Candidate | Skip:
        return self.outcome


def stage_input(html: str) -> StageInput:
    document = lxml.html.document_fromstring(html)
    return StageInput(snapshot=PageSnapshot(html=html), document=document, base_url=None)


def test_find_run_finds_the_posts() -> None:
    run = find_run(lxml.html.document_fromstring(THREAD))
    assert run is not None
    assert run.parent.get("class") == "thread"
    assert len(run.records) == 6
    assert run.share > 0.9


def test_a_menu_is_not_a_run() -> None:
    links = "".join(f"<li><a href='/{i}'>Section number {i} of the site</a></li>" for i in range(9))
    html = f"<html><body><ul>{links}</ul>{''.join(post(i) for i in range(1))}</body></html>"
    assert find_run(lxml.html.document_fromstring(html)) is None


def test_the_stage_widens_half_the_posts_to_the_thread() -> None:
    page = stage_input(THREAD)
    half = lxml.html.fragment_fromstring(post(0) + post(1) + post(2), create_parent="div")
    outcome = RecordsStage(FixedStage(Candidate(half)))(page)
    assert isinstance(outcome, Candidate)
    assert outcome.element.text_content().count("Reply") == 6
    assert "widened to 6 sibling records" in outcome.note


def test_the_stage_keeps_a_pick_the_run_does_not_hold() -> None:
    page = stage_input(THREAD)
    elsewhere = lxml.html.fragment_fromstring(
        "<div><p>" + "An unrelated essay about harbours and their ferries. " * 20 + "</p></div>"
    )
    picked = Candidate(elsewhere)
    assert RecordsStage(FixedStage(picked))(page) is picked
    assert CONTAINMENT > 0


def test_a_fragment_of_the_run_is_replaced_even_without_widening() -> None:
    page = stage_input(THREAD)
    teaser = lxml.html.fragment_fromstring("<div><p>Lens talk, six replies.</p></div>")
    outcome = RecordsStage(FixedStage(Candidate(teaser)), containment=None)(page)
    assert isinstance(outcome, Candidate)
    assert outcome.element.text_content().count("Reply") == 6
    assert "in place of readability-lxml's pick of 4 words" in outcome.note


def test_without_widening_a_post_of_the_run_stays_the_pick() -> None:
    page = stage_input(THREAD)
    picked = Candidate(
        lxml.html.fragment_fromstring(post(0) + post(1) + post(2), create_parent="div")
    )
    assert RecordsStage(FixedStage(picked), containment=None)(page) is picked


def test_the_stage_offers_the_run_when_the_inner_stage_skips() -> None:
    outcome = RecordsStage(FixedStage(Skip("nothing")))(stage_input(THREAD))
    assert isinstance(outcome, Candidate)
    assert "nothing" in outcome.note


def test_typed_plan_keeps_articles_default_and_forum_posts() -> None:
    shown_article = PageType("article", weights={"article": 3.0})
    article_stage = typed_stages(shown_article, DEFAULT_STAGES)[1]
    assert isinstance(article_stage, RecordsStage) and article_stage.containment is None
    forum = PageType("forum", weights={"forum": 4.0})
    names = [stage.name for stage in typed_stages(forum, DEFAULT_STAGES)]
    assert names == ["readability-js", "readability-lxml", "scorer"]
    assert isinstance(typed_stages(forum, DEFAULT_STAGES)[1], RecordsStage)
    assert "comments" not in typed_rules(forum, frozenset({"comments", "chrome"}))
    assert typed_rules(shown_article, frozenset({"comments"})) == {"comments"}


def test_a_forum_thread_keeps_every_post_even_when_classed_comment() -> None:
    html = THREAD.replace('class="message"', 'class="comment-body"').replace(
        "<head>",
        '<head><script type="application/ld+json">{"@type": "DiscussionForumPosting"}</script>',
    )
    extraction = extract(html, url="https://forum.example.org/threads/lenses.1/")
    assert extraction.page_type == "forum"
    assert extraction.text.count("Reply") == 6


def test_a_cookie_dialog_is_never_the_run() -> None:
    sections = "".join(
        f"<div class='ot-cat'><h4>Cookies of kind {i}</h4><p>These cookies are set by our "
        f"partners to measure visits and may track you across other sites.</p></div>"
        for i in range(6)
    )
    html = f"<html><body><div id='onetrust-consent-sdk'>{sections}</div>{post(0)}</body></html>"
    assert find_run(lxml.html.document_fromstring(html)) is None


def test_readability_js_picking_one_post_of_a_rendered_thread_gives_way_to_the_run() -> None:
    # Rendered pages run Readability.js first; its one-post pick is a fragment of the thread.
    one_post = f"<div>{post(2)}</div>"
    snapshot = PageSnapshot(
        html=THREAD,
        url="https://forum.example/threads/lenses",
        readability=ReadabilityResult(content=one_post, title="Lenses"),
    )
    result = extract(snapshot, options=ExtractOptions(stages=typed_stages_for_forum()))
    assert result.stage == "readability-js"
    assert all(f"Reply {i}:" in result.text for i in range(6))


def test_readability_js_skipping_a_static_page_is_not_replaced_by_the_run() -> None:
    inner = FixedStage(Skip("snapshot carries no Readability.js result"))
    inner.name = "readability-js"
    stage = RecordsStage(inner, run_when_skipped=False)
    assert isinstance(stage(stage_input(THREAD)), Skip)
    empty = FixedStage(Candidate(lxml.html.fragment_fromstring("<p>Single</p>")))
    assert RecordsStage(empty, run_when_skipped=False)(stage_input(THREAD)) == empty.outcome


def typed_stages_for_forum():
    return typed_stages(PageType("forum", {"forum": 4.0}), DEFAULT_STAGES)
