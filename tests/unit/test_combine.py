"""Combining the cascade's reading with trafilatura's as the page type says
(extractor/_combine.py). The judge is replaced by a fixed reading here, so each policy is
tested on readings the test chose; tests/unit/test_trafilatura.py runs the real one."""

from __future__ import annotations

import lxml.html
import pytest

import extractor._combine as combine_module
from extractor import DEFAULT_STAGES, ExtractOptions, extract
from extractor._cascade import Candidate, CascadeResult, Skip, StageInput
from extractor._combine import COMBINED_STAGE, Policy, combine, fallback, policy_for
from extractor._pagetype import PageType
from extractor._postprocess import CleanContent, html_to_text
from extractor._types import PageSnapshot


@pytest.fixture(autouse=True)
def no_block_vote(monkeypatch):
    """The policies alone: the block vote (tests/unit/test_blockvote.py) is left out here."""
    monkeypatch.setattr(combine_module, "voted", lambda page_type: False)


ARTICLE_SHOWN = PageType("article", {"article": 3.0})
UNSHOWN = PageType("article", {})
FORUM = PageType("forum", {"forum": 4.0})
DOCS = PageType("documentation", {"documentation": 3.0})
PRODUCT = PageType("product", {"product": 3.0})


def fixed_judge(html: str | None):
    """A stand-in for TrafilaturaStage that reads ``html`` (or skips when None)."""

    class FixedJudge:
        name = "trafilatura"
        calls = 0

        def __init__(self, *, comments: bool = False) -> None:
            self.comments = comments

        def __call__(self, page: StageInput) -> Candidate | Skip:
            FixedJudge.calls += 1
            if html is None:
                return Skip("trafilatura found no main content")
            return Candidate(lxml.html.fragment_fromstring(html, create_parent="div"))

    return FixedJudge


def page_from(html: str) -> StageInput:
    return StageInput(
        snapshot=PageSnapshot(html=html),
        document=lxml.html.document_fromstring(html),
        base_url=None,
    )


def page() -> StageInput:
    return page_from("<html><body><p>unused</p></body></html>")


def accepted(html: str) -> CascadeResult:
    return CascadeResult(
        stage="readability-lxml", content=CleanContent(html=html, text=html_to_text(html)), trace=[]
    )


OURS = "<p>First post: the lens focuses fast.</p><p>Third post: mine too, even at night.</p>"
THEIRS = (
    "<p>First post: the lens focuses fast.</p><p>Second post: which body do you use?</p>"
    "<p>Third post: mine too, even at night.</p>"
)


def test_policy_follows_the_page_type() -> None:
    assert policy_for(ARTICLE_SHOWN) is Policy.OURS
    assert policy_for(UNSHOWN) is Policy.UNION
    assert policy_for(FORUM) is Policy.UNION
    assert policy_for(DOCS) is Policy.UNION
    assert policy_for(PRODUCT) is Policy.THEIRS


def test_an_article_that_shows_its_type_keeps_the_cascade_reading(monkeypatch) -> None:
    judge = fixed_judge(THEIRS)
    monkeypatch.setattr(combine_module, "TrafilaturaStage", judge)
    result = accepted(OURS)
    assert combine(page(), result, ARTICLE_SHOWN) is result
    assert judge.calls == 0


def test_an_article_reading_of_a_sliver_of_the_page_is_combined_after_all(monkeypatch) -> None:
    # readability-lxml picked a newsletter box on a long article: under SMALL_READING of it.
    monkeypatch.setattr(combine_module, "TrafilaturaStage", fixed_judge(THEIRS))
    prose = " ".join(f"Paragraph {i} of a long article that the cascade missed." for i in range(40))
    html = f"<html><body><p>Subscribe to our newsletter.</p><p>{prose}</p></body></html>"
    long_page = page_from(html)
    result = combine(long_page, accepted("<p>Subscribe to our newsletter.</p>"), ARTICLE_SHOWN)
    assert result.stage == COMBINED_STAGE and "Second post" in result.content.text


def page_of(words: int) -> StageInput:
    prose = " ".join(f"w{i}" for i in range(words))
    return page_from(f"<html><body><p>{prose}</p></body></html>")


SECTION = "<h2>Low light</h2><p>" + " ".join(f"plant{i}" for i in range(40)) + "</p>"
GUIDE = SECTION + "".join(
    f"<h2>Part {n}</h2><p>" + " ".join(f"more{n}x{i}" for i in range(40)) + "</p>" for n in range(3)
)


def test_an_article_reading_of_part_of_the_page_takes_a_fuller_judge_reading(monkeypatch):
    # readability-lxml kept one section of a guide (41 of 200 words), trafilatura all four
    monkeypatch.setattr(combine_module, "TrafilaturaStage", fixed_judge(GUIDE))
    result = combine(page_of(200), accepted(SECTION), ARTICLE_SHOWN)
    assert result.stage == COMBINED_STAGE and "more2x39" in result.content.text


def test_an_article_reading_of_part_of_the_page_stands_when_the_judge_reads_as_much(
    monkeypatch,
) -> None:
    # trafilatura read the section and a line of boilerplate: not a fuller reading
    judge = fixed_judge(SECTION + "<p>Share this story on social media.</p>")
    monkeypatch.setattr(combine_module, "TrafilaturaStage", judge)
    result = accepted(SECTION)
    combined = combine(page_of(200), result, ARTICLE_SHOWN)
    assert combined.content is result.content and "Share this" not in combined.content.text
    assert judge.calls == 1
    assert [(entry.name, entry.outcome) for entry in combined.trace] == [
        ("trafilatura", "rejected")
    ]


def test_trafilatura_is_not_asked_when_the_rest_of_the_page_is_no_prose(monkeypatch) -> None:
    # the reading is the page's one paragraph; the other 160 words are a menu of links
    judge = fixed_judge(GUIDE)
    monkeypatch.setattr(combine_module, "TrafilaturaStage", judge)
    menu = "".join(f"<li><a href='/{i}'>Section {i} of the site</a></li>" for i in range(32))
    html = f"<html><body>{SECTION}<ul>{menu}</ul></body></html>"
    menu_page = page_from(html)
    result = accepted(SECTION)
    assert combine(menu_page, result, ARTICLE_SHOWN) is result
    assert judge.calls == 0


def test_union_adds_the_judge_blocks_in_page_order(monkeypatch) -> None:
    monkeypatch.setattr(combine_module, "TrafilaturaStage", fixed_judge(THEIRS))
    result = combine(page(), accepted(OURS), FORUM)
    assert result.stage == COMBINED_STAGE
    text = result.content.text
    assert text.index("First post") < text.index("Second post") < text.index("Third post")
    entry = result.trace[-1]
    assert (entry.name, entry.outcome) == (COMBINED_STAGE, "accepted")
    assert "2 blocks in both" in entry.reason and "1 only in trafilatura's" in entry.reason


def test_union_with_nothing_new_keeps_the_cascade_reading_as_it_was(monkeypatch) -> None:
    monkeypatch.setattr(
        combine_module,
        "TrafilaturaStage",
        fixed_judge("<p>Third post: mine too, even at night.</p>"),
    )
    original = accepted(OURS)
    result = combine(page(), original, FORUM)
    assert result.stage == "readability-lxml"
    assert result.content == original.content
    assert (result.trace[-1].name, result.trace[-1].outcome) == ("trafilatura", "rejected")


def test_theirs_takes_the_judge_selection(monkeypatch) -> None:
    monkeypatch.setattr(
        combine_module, "TrafilaturaStage", fixed_judge("<h2>Install</h2><p>Run the installer.</p>")
    )
    result = combine(page(), accepted("<p>Sidebar link list</p><h2>Install</h2>"), PRODUCT)
    assert result.stage == "trafilatura"
    assert "Sidebar" not in result.content.text
    assert "Run the installer." in result.content.text


def test_a_judge_with_nothing_leaves_the_cascade_reading_and_says_why(monkeypatch) -> None:
    monkeypatch.setattr(combine_module, "TrafilaturaStage", fixed_judge(None))
    original = accepted(OURS)
    result = combine(page(), original, PRODUCT)
    assert result.stage == "readability-lxml" and result.content == original.content
    entry = result.trace[-1]
    assert entry.outcome == "skipped" and "no main content" in entry.reason


def test_fallback_needs_min_words(monkeypatch) -> None:
    monkeypatch.setattr(combine_module, "TrafilaturaStage", fixed_judge("<p>two words</p>"))
    assert fallback(page(), UNSHOWN, min_words=3) is None
    found = fallback(page(), UNSHOWN, min_words=2)
    assert found is not None and found.stage == "trafilatura"
    assert "every stage of the cascade came back empty" in found.trace[-1].reason


FORUM_PAGE = (
    '<html><head><title>Lens thread</title><script type="application/ld+json">'
    '{"@type": "DiscussionForumPosting", "headline": "Lens thread"}</script></head><body>'
    f"<div>{OURS}</div></body></html>"
)


def test_extract_combines_by_default_and_not_with_chosen_stages(monkeypatch) -> None:
    judge = fixed_judge(THEIRS)
    monkeypatch.setattr(combine_module, "TrafilaturaStage", judge)
    combined = extract(FORUM_PAGE)
    assert combined.page_type == "forum"
    assert combined.stage == COMBINED_STAGE and "Second post" in combined.text
    calls = judge.calls
    chosen = extract(FORUM_PAGE, options=ExtractOptions(stages=DEFAULT_STAGES))
    assert judge.calls == calls  # a caller who chose stages gets those stages' reading
    assert "Second post" not in chosen.text


@pytest.mark.parametrize("source", ["<html><body></body></html>", "<p>\u00a0</p>"])
def test_a_page_with_nothing_in_it_is_still_no_content(source: str) -> None:
    from extractor import ReadermodeError

    with pytest.raises(ReadermodeError):
        extract(source)
