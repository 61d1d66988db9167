"""The block vote (extractor/_segment.py, _blockfeatures.py, _blockmodel.py, _blockvote.py):
the page cut into blocks, their features, the trees evaluated with numpy, and the kept blocks
assembled. A one-split model the test writes stands in for the shipped one where the test
needs to know what is kept; the shipped model is checked for what it must hold."""

from __future__ import annotations

from dataclasses import replace

import lxml.etree
import lxml.html
import numpy as np
import pytest

import extractor._blockvote as blockvote
import extractor._combine as combine_module
from extractor import extract
from extractor._blockfeatures import CLASS_GROUPS, FEATURES, Reading, _class_flags, block_matrix
from extractor._blockmodel import ModelMismatchError, block_model, from_dict
from extractor._blockvote import VOTE_STAGE, BlockVoteStage
from extractor._cascade import Candidate, CascadeResult, Skip, StageInput, attempt
from extractor._combine import combine
from extractor._options import ALL_RULES
from extractor._pagetype import PageType
from extractor._postprocess import CleanContent, html_to_text
from extractor._segment import PageBlock, segment
from extractor._types import PageSnapshot, TraceEntry

LISTING = PageType("listing", {"listing": 3.0})

PAGE = """<html><body>
<nav><ul><li><a href="/">Home</a></li><li><a href="/shop">Shop</a></li></ul></nav>
<main>
  <h1>Walking boots</h1>
  <p>Boots for long days on rough ground, tested on three ranges.</p>
  <div class="card"><h3>Ridge Mid</h3><span>$120</span></div>
  <div class="card"><h3>Valley Low</h3><span>$95</span></div>
  <div class="card"><h3>Summit GTX</h3><span>$180</span></div>
  <div>Loose text in a wrapper <b>with bold</b> and more.<p>A paragraph after it.</p></div>
  <ul><li>Waterproof lining</li><li>Vibram sole</li></ul>
</main>
<footer><p>Home</p></footer>
</body></html>"""


def body(html: str = PAGE) -> lxml.html.HtmlElement:
    return lxml.html.document_fromstring(html).find("body")


def one_split_model(feature: str, keep_at: float = 0.5) -> dict:
    """Keep a block when ``feature`` is above 0.5: a tree of one split, leaves -5 and +5."""
    return {
        "features": list(FEATURES),
        "baseline": 0.0,
        "keep_at": keep_at,
        "max_depth": 1,
        "trees": [
            {
                "feature": [FEATURES.index(feature), 0, 0],
                "split": [0.5, 0.0, 0.0],
                "left": [1, 0, 0],
                "right": [2, 0, 0],
                "leaf": [False, True, True],
                "value": [0.0, -5.0, 5.0],
            }
        ],
    }


def test_segment_cuts_the_page_into_blocks_in_order() -> None:
    texts = [(block.element.tag, block.run is not None, block.text) for block in segment(body())]
    assert [text for _, _, text in texts] == [
        "Home", "Shop", "Walking boots",
        "Boots for long days on rough ground, tested on three ranges.",
        "Ridge Mid", "$120", "Valley Low", "$95", "Summit GTX", "$180",
        "Loose text in a wrapper with bold and more.", "A paragraph after it.",
        "Waterproof lining", "Vibram sole", "Home",
    ]  # fmt: skip
    assert ("div", True, "Loose text in a wrapper with bold and more.") in texts
    assert ("div", True, "$120") in texts and ("h3", False, "Ridge Mid") in texts


def test_segment_reads_shape_repeats_and_place() -> None:
    blocks = {}
    for block in segment(body()):
        blocks.setdefault(block.text, block)  # the first of blocks alike
    assert blocks["Ridge Mid"].siblings_alike == 3  # three cards alike
    assert blocks["Home"].repeats == 2  # the menu entry and the footer line
    assert blocks["Walking boots"].from_h1 == 0 and blocks["Shop"].from_h1 == -1
    assert blocks["Home"].link_tokens == 1 and blocks["Vibram sole"].link_tokens == 0
    assert blocks["Home"].ancestors[1][0] == "ul"
    assert blocks["$120"].run is not None and blocks["$120"].element.tag == "div"


def test_segment_keeps_the_words_of_minified_cells_apart() -> None:
    page = lxml.html.fromstring(
        "<body><table><tr><th>Feature</th><th>Starter</th></tr><tr><td>Seats</td><td>1</td>"
        "</tr></table><div><span>Ridge<br>Mid</span> boots</div></body>"
    )
    table, run = segment(page)
    assert table.tokens == ("feature", "starter", "seats", "1")
    assert run.tokens == ("ridge", "mid", "boots")  # a line break inside a run's element


def test_segment_of_a_very_deep_page_does_not_recurse() -> None:
    root = top = lxml.html.Element("body")
    for _ in range(5000):  # past Python's recursion limit, built without a parser's limit
        top = lxml.etree.SubElement(top, "div")
    lxml.etree.SubElement(top, "p").text = "Deep words here."
    blocks = segment(root)
    assert [block.text for block in blocks] == ["Deep words here."]


def test_a_reading_votes_by_trigrams_and_short_blocks_by_words() -> None:
    reading = Reading("Boots for long days on rough ground. Vibram")
    assert reading.vote(("boots", "for", "long", "days")) == 1.0
    assert reading.vote(("boots", "for", "short", "days")) == 0.0
    assert reading.vote(("vibram",)) == 1.0 and reading.vote(()) == 0.0


def test_block_matrix_has_one_named_column_per_feature() -> None:
    blocks = segment(body())
    rows = block_matrix(blocks, Reading("Walking boots"), Reading(""), LISTING)
    assert rows.shape == (len(blocks), len(FEATURES))
    at: dict[str, int] = {}
    for i, block in enumerate(blocks):
        at.setdefault(block.text, i)
    assert rows[at["Walking boots"], FEATURES.index("vote_ours")] == 1.0
    assert rows[at["Shop"], FEATURES.index("vote_ours")] == 0.0
    assert rows[0, FEATURES.index("type_listing")] == 1.0
    assert rows[at["Home"], FEATURES.index("inside_nav")] == 1.0


def test_class_flags_ignore_case() -> None:
    flags = dict(zip(CLASS_GROUPS, _class_flags("Site-NavBar MainContent", {}), strict=True))
    assert flags["nav"] == flags["content"] == 1.0 and flags["foot"] == 0.0


def test_trees_are_walked_as_written() -> None:
    model = from_dict(one_split_model("vote_ours"))
    rows = np.zeros((3, len(FEATURES)))
    rows[1, FEATURES.index("vote_ours")] = 1.0
    rows[2, FEATURES.index("vote_ours")] = 0.5  # equal to the split: goes left, as in sklearn
    low, high, equal = model.probabilities(rows)
    assert low < 0.01 and high > 0.99 and equal == low
    assert model.probabilities(np.zeros((0, len(FEATURES)))).shape == (0,)


def test_a_model_of_other_features_is_refused() -> None:
    data = one_split_model("vote_ours")
    data["features"] = data["features"][:-1]
    with pytest.raises(ModelMismatchError):
        from_dict(data)


def stage_input(html: str = PAGE) -> StageInput:
    document = lxml.html.document_fromstring(html)
    return StageInput(snapshot=PageSnapshot(html=html), document=document, base_url=None)


def test_the_vote_keeps_what_the_model_keeps_lists_as_lists(monkeypatch) -> None:
    model = from_dict(one_split_model("vote_ours"))
    monkeypatch.setattr(blockvote, "block_model", lambda: model)
    ours = "Walking boots. Ridge Mid $120. Waterproof lining. Vibram sole."
    outcome, content, _ = attempt(BlockVoteStage(ours, "", LISTING), stage_input())
    assert isinstance(outcome, Candidate) and content is not None
    assert content.text.split("\n\n")[:2] == ["Walking boots", "Ridge Mid"]
    assert "Shop" not in content.text and "Valley Low" not in content.text
    assert "<ul>" in content.html and "Vibram sole" in content.html
    assert "kept 5 of 15 blocks (5 only the cascade's)" in outcome.note


def test_the_vote_skips_when_the_model_keeps_nothing(monkeypatch) -> None:
    model = from_dict(one_split_model("vote_ours"))
    monkeypatch.setattr(blockvote, "block_model", lambda: model)
    outcome = BlockVoteStage("", "", LISTING)(stage_input())
    assert isinstance(outcome, Skip) and "kept none of 15 blocks" in outcome.reason


def test_combine_falls_back_to_the_policy_when_the_vote_keeps_nothing(monkeypatch) -> None:
    model = from_dict(one_split_model("vote_ours"))
    monkeypatch.setattr(blockvote, "block_model", lambda: model)

    class Judge:  # trafilatura's stand-in: a reading our blocks do not hold
        name = "trafilatura"

        def __init__(self, *, comments: bool = False) -> None: ...

        def __call__(self, page: StageInput) -> Candidate:
            return Candidate(lxml.html.fragment_fromstring("<p>Other words entirely</p>"))

    monkeypatch.setattr(combine_module, "TrafilaturaStage", Judge)
    html = "<p>Nothing the page holds</p>"
    ours = CascadeResult("readability-lxml", CleanContent(html, html_to_text(html)), [])
    result = combine(stage_input(), ours, LISTING)
    vote = next(entry for entry in result.trace if entry.name == VOTE_STAGE)
    assert vote.outcome == "rejected" and "kept none" in vote.reason
    assert result.stage == "trafilatura"  # listing's policy: trafilatura's choice


def test_the_shipped_model_matches_the_code_and_keeps_a_listing() -> None:
    model = block_model()
    assert model is not None and model.provenance["corpus"] == "wcxb-dev"
    items = "".join(
        f'<li class="result"><h3><a href="/c/{i}">Course {i}: rivers and their valleys</a></h3>'
        f"<p>Twelve weeks on how water shapes land, part {i}, with field trips.</p></li>"
        for i in range(8)
    )
    html = (
        "<html><head><title>Courses</title></head><body><nav><a href='/'>Home</a> "
        "<a href='/about'>About</a></nav><main><h1>Geography courses</h1>"
        f'<ul class="results">{items}</ul></main><footer>Copyright 2026</footer></body></html>'
    )
    extraction = extract(html, url="https://example.org/courses/")
    assert extraction.stage == VOTE_STAGE, [e.reason for e in extraction.trace]
    assert all(f"Course {i}:" in extraction.text for i in range(8))
    assert "Copyright" not in extraction.text


def test_the_vote_reads_the_types_it_serves() -> None:
    assert combine_module.voted(PageType("forum", {"forum": 4.0}))
    assert not combine_module.voted(PageType("article", {}))  # showed no type
    assert not combine_module.voted(PageType("article", {"article": 3.0}))
    assert not combine_module.voted(PageType("product", {"product": 3.0}))


def test_many_rows_are_walked_in_chunks_with_the_same_result(monkeypatch) -> None:
    import extractor._blockmodel as blockmodel

    model = from_dict(one_split_model("vote_ours"))
    rows = np.zeros((10, len(FEATURES)))
    rows[::3, FEATURES.index("vote_ours")] = 1.0
    whole = model.probabilities(rows)
    monkeypatch.setattr(blockmodel, "ROWS_AT_ONCE", 4)
    assert np.array_equal(model.probabilities(rows), whole)
    assert (whole > 0.5).sum() == 4


def test_a_list_longer_than_any_in_training_keeps_its_last_items() -> None:
    # Deep into a page of 3,000 entries a block's place reads like a footer's to the trees;
    # the entries both judges hold are kept all the same.
    items = "".join(
        f'<li class="result"><h3><a href="/c/{i}">Course {i}: rivers</a></h3>'
        f"<p>Twelve weeks on how water shapes land, part {i}.</p></li>"
        for i in range(3000)
    )
    html = (
        '<html><head><title>Courses</title><script type="application/ld+json">'
        '{"@type": "SearchResultsPage"}</script></head><body><main><h1>Courses</h1>'
        f'<ul class="results">{items}</ul></main></body></html>'
    )
    extraction = extract(html, url="https://example.org/courses/")
    assert extraction.stage == VOTE_STAGE
    assert "Course 2999: rivers" in extraction.text and "Course 1500: rivers" in extraction.text


def test_kept_items_of_an_ordered_list_stay_in_an_ordered_list(monkeypatch) -> None:
    model = from_dict(one_split_model("vote_ours"))
    monkeypatch.setattr(blockvote, "block_model", lambda: model)
    html = (
        "<html><body><h2>Steps</h2><ol><li>Preheat the oven</li><li>Knead the dough</li></ol>"
        "<ul><li>Share on social</li></ul></body></html>"
    )
    ours = "Steps. Preheat the oven. Knead the dough."
    outcome, content, _ = attempt(BlockVoteStage(ours, "", LISTING), stage_input(html))
    assert isinstance(outcome, Candidate) and content is not None
    assert "<ol>" in content.html and "<ul>" not in content.html
    assert "Knead the dough" in content.text and "Share" not in content.text


def test_a_vote_that_keeps_a_sliver_of_the_page_gives_way_to_the_policy(monkeypatch) -> None:
    # The trees keep the heading alone (2 words) where trafilatura read every card.
    model = from_dict(one_split_model("tag_h1"))
    monkeypatch.setattr(blockvote, "block_model", lambda: model)
    monkeypatch.setattr(combine_module, "VOTE_MIN_SHARE", 0.2)
    cards = "".join(f"<p>{name} ${price}</p>" for name, price in (
        ("Ridge Mid", 120), ("Valley Low", 95), ("Summit GTX", 180)))  # fmt: skip
    reading = f"<h1>Walking boots</h1><p>Boots for long days on rough ground.</p>{cards}"

    class Judge:
        name = "trafilatura"

        def __init__(self, *, comments: bool = False) -> None: ...

        def __call__(self, page: StageInput) -> Candidate:
            return Candidate(lxml.html.fragment_fromstring(reading, create_parent="div"))

    monkeypatch.setattr(combine_module, "TrafilaturaStage", Judge)
    html = "<p>Waterproof lining</p>"  # the cascade read a sliver too, one trafilatura did not
    ours = CascadeResult("readability-lxml", CleanContent(html, html_to_text(html)), [])
    result = combine(stage_input(), ours, LISTING)
    vote = next(entry for entry in result.trace if entry.name == VOTE_STAGE)
    assert vote.outcome == "rejected", vote.reason
    assert "kept 2 words, under 0.2 of the" in vote.reason
    assert result.stage == "trafilatura" and "Summit GTX" in result.content.text
    # Forums are not guarded: there a short vote is a thread's posts against the union's chrome.
    assert combine(stage_input(), ours, PageType("forum", {"forum": 4.0})).stage == VOTE_STAGE
    monkeypatch.setattr(combine_module, "VOTE_MIN_SHARE", 0.0)  # no guard: the sliver stands
    assert combine(stage_input(), ours, LISTING).stage == VOTE_STAGE


GRID = "".join(
    f'<li class="product-item"><a href="/p/{i}">Walnut chess pieces, series {i}</a> '
    f"<span>$9{i}</span></li>"
    for i in range(6)
)
GRID_PAGE = (
    f'<html><body><main><h1>Chess pieces</h1><ol class="products">{GRID}</ol></main></body></html>'
)


def fixed_reading(html: str) -> type:
    """A stand-in for trafilatura that reads ``html``."""

    class Judge:
        name = "trafilatura"

        def __init__(self, *, comments: bool = False) -> None: ...

        def __call__(self, page: StageInput) -> Candidate:
            return Candidate(lxml.html.fragment_fromstring(html))

    return Judge


def combine_grid(monkeypatch, kind: str) -> CascadeResult:
    """The grid page combined as a page of this type, the cascade's reading and the judge's
    both holding the grid, and a model that keeps what the cascade's reading holds."""
    model = from_dict(one_split_model("vote_ours"))
    monkeypatch.setattr(blockvote, "block_model", lambda: model)
    monkeypatch.setattr(combine_module, "TrafilaturaStage", fixed_reading(f"<ol>{GRID}</ol>"))
    html = f"<h1>Chess pieces</h1><ol>{GRID}</ol>"
    ours = CascadeResult("readability-lxml", CleanContent(html, html_to_text(html)), [])
    page = replace(stage_input(GRID_PAGE), rules=ALL_RULES)
    return combine(page, ours, PageType(kind, {kind: 3.0}))


@pytest.mark.parametrize("kind", ["collection", "listing"])
def test_a_grid_of_linked_cards_the_vote_keeps_is_not_taken_for_a_link_farm(
    monkeypatch, kind: str
) -> None:
    # Each card is mostly its link: the link-farms refinement would drop the whole grid the
    # model kept; on collections and listings it does not read the vote's reading.
    result = combine_grid(monkeypatch, kind)
    assert result.stage == VOTE_STAGE
    assert all(f"series {i}" in result.content.text for i in range(6))
    assert "link-farms" not in {entry.name for entry in result.trace}


def test_the_vote_of_a_forum_is_still_refined_for_link_farms(monkeypatch) -> None:
    # There the refinement drops the grid from the vote's reading, which keeps too few words
    # and gives way to the reading without it.
    result = combine_grid(monkeypatch, "forum")
    vote = next(entry for entry in result.trace if entry.name == VOTE_STAGE)
    assert vote.outcome == "rejected" and vote.reason == "too few words kept"
    assert result.stage != VOTE_STAGE


ENTRIES = "".join(
    f'<li class="post"><h3><a href="/blog/{i}">Scaling containers on modern CPUs, part {i}</a>'
    f'</h3><p class="post-author">AUTHOR{i} Harshad Sane</p></li>'
    for i in range(6)
)


@pytest.mark.parametrize(("kind", "kept"), [("listing", True), ("collection", False)])
def test_a_listing_keeps_its_entries_author_lines(monkeypatch, kind: str, kept: bool) -> None:
    model = from_dict(one_split_model("vote_ours"))
    monkeypatch.setattr(blockvote, "block_model", lambda: model)
    monkeypatch.setattr(combine_module, "TrafilaturaStage", fixed_reading(f"<ul>{ENTRIES}</ul>"))
    html = f"<h1>Engineering blog</h1><ul>{ENTRIES}</ul>"
    ours = CascadeResult("readability-lxml", CleanContent(html, html_to_text(html)), [])
    page = replace(stage_input(f"<html><body><main>{html}</main></body></html>"), rules=ALL_RULES)
    result = combine(page, ours, PageType(kind, {kind: 3.0}))
    assert result.stage == VOTE_STAGE
    assert "part 4" in result.content.text
    assert ("AUTHOR4" in result.content.text) is kept


THREAD = """<html><body><div class="comments">
  <p class="online"><a href="/user/sam" class="author">sam</a> is online</p>
  <p class="tagline"><a href="/user/vera" class="author">vera</a> 188 points 3 hours ago</p>
  <div class="md"><p>I measured mine at 142 watts idle with both sockets populated.</p></div>
  <p class="tagline"><a href="/user/ravi" class="author">ravi</a> 97 points 2 hours ago</p>
  <div class="md"><p>Three second-hand Lenovo Tiny boxes make a proper cluster.</p></div>
  <p>Sorted by: best</p>
  <div class="md"><p>Keep the money for a decent UPS and a managed switch instead.</p></div>
</div></body></html>"""


def test_a_thread_keeps_the_author_line_over_each_kept_post() -> None:
    blocks = segment(body(THREAD))
    texts = [block.text.split()[0] for block in blocks]
    assert texts == ["sam", "vera", "I", "ravi", "Three", "Sorted", "Keep"]
    kept = np.array([False, False, True, False, False, False, True])
    with_authors = blockvote.with_post_authors(blocks, kept)
    # vera's line heads a kept post, sam's line above it does not; ravi's post was dropped,
    # so is his line; "Sorted by" over a kept post names no author
    assert with_authors.tolist() == [False, True, True, False, False, False, True]
    assert kept.tolist() == [False, False, True, False, False, False, True]  # not in place


PANELS = """<html><body><div class="thread">
  <div class="post"><div class="user"><a href="/members/odile.7/">odile</a>
    <dl><dt>Messages</dt><dd>1,204</dd></dl></div>
    <p>The firmware update fixed the autofocus hunting on my copy as well.</p></div>
  <div class="post"><div class="user"><a href="/members/bert.9/">bert</a>
    <dl><dt>Messages</dt><dd>88</dd></dl></div>
    <p>Mine too.</p></div>
  <p>Keep the old lens caps, the new ones crack in the cold.</p>
</div></body></html>"""


def test_a_thread_keeps_the_name_over_a_posts_member_counters() -> None:
    blocks = segment(body(PANELS))
    texts = [block.text.split()[0] for block in blocks]
    assert texts == ["odile", "Messages", "1,204", "The", "bert", "Messages", "88", "Mine", "Keep"]
    kept = np.array([False, False, False, True, False, False, False, False, True])
    with_authors = blockvote.with_post_authors(blocks, kept)
    # odile's name (loose in the member panel, a run) is three blocks over her kept post; the
    # walk back from the last paragraph stops at bert's dropped post ("Mine too."), so his name
    # is not taken for it
    assert with_authors.tolist() == [True, False, False, True, False, False, False, False, True]


def test_a_posts_header_line_keeps_its_containers_names_for_the_refinements() -> None:
    header = (
        "<div class='crawler-post-meta'><span class='creator'><a href='/u/odile'>odile</a></span>"
        "<link href='/t/1'><span class='crawler-post-infos'><time>May 3, 2025</time></span></div>"
    )
    blocks = segment(body(f"<html><body>{header}<p>Text.</p></body></html>"))
    assert blocks[0].run is not None
    paragraph = blockvote._as_block(blocks[0]).element
    assert paragraph.tag == "p" and paragraph.get("class") == "crawler-post-meta"


def xenforo_post(number: int, text: str) -> str:
    return (
        f'<article class="message message--post" id="js-post-{number}">'
        f'<div class="message-user"><a class="username" href="/members/m.{number}/">m{number}</a>'
        f'</div><div class="message-content"><article class="message-body">'
        f'<div class="bbWrapper">{text}</div></article>'
        f'<div class="message-actionBar">Like Reply</div></div></article>'
    )


POSTS = (
    "My 1974 Singer has started skipping stitches on anything thicker than two layers of denim.",
    "Check the timing first. The hook can slip on its shaft if the machine ever jammed hard.",
    "You were right, the hook was two millimetres late. It sews through four layers now.",
    "Good catch. Put a drop of oil on the hook race while you are in there, they run dry.",
)
XENFORO = "<html><body><div class='block-body'>{}</div></body></html>".format(
    "".join(xenforo_post(n, text) for n, text in enumerate(POSTS, 1))
)


def thread_votes(held_by_ours: list[bool]) -> tuple[list[PageBlock], np.ndarray]:
    """The XenForo thread's blocks and rows whose only column set is the cascade's vote on
    the four posts' texts (``held_by_ours``; every name and action bar held too)."""
    blocks = segment(body(XENFORO))
    rows = np.zeros((len(blocks), len(FEATURES)))
    posts = [i for i, block in enumerate(blocks) if block.text in POSTS]
    assert len(posts) == 4
    rows[:, FEATURES.index("vote_ours")] = 1.0
    for index, held in zip(posts, held_by_ours, strict=True):
        rows[index, FEATURES.index("vote_ours")] = float(held)
    return blocks, rows


def kept_texts(blocks: list[PageBlock], kept: np.ndarray) -> list[str]:
    return [block.text for block, keep in zip(blocks, kept, strict=True) if keep]


def test_a_threads_post_the_trees_dropped_is_kept_when_its_peers_were() -> None:
    blocks, rows = thread_votes([True, True, True, True])
    kept = np.array([block.text in POSTS[:3] for block in blocks])  # the last post rated low
    alike = blockvote.with_posts_alike(blocks, rows, kept)
    assert kept_texts(blocks, alike) == list(POSTS)
    assert kept_texts(blocks, kept) == list(POSTS[:3])  # not in place


def test_a_dropped_post_that_no_reading_holds_stays_dropped() -> None:
    blocks, rows = thread_votes([True, True, True, False])
    kept = np.array([block.text in POSTS[:3] for block in blocks])
    assert kept_texts(blocks, blockvote.with_posts_alike(blocks, rows, kept)) == list(POSTS[:3])


def test_posts_are_not_taken_in_where_most_of_their_peers_were_dropped() -> None:
    blocks, rows = thread_votes([True, True, True, True])
    kept = np.array([block.text in POSTS[:2] for block in blocks])  # two of four kept
    assert kept_texts(blocks, blockvote.with_posts_alike(blocks, rows, kept)) == list(POSTS[:2])


def test_a_posts_action_bar_is_no_post_text() -> None:
    blocks, rows = thread_votes([True, True, True, True])
    bars = [block.text == "Like Reply" for block in blocks]
    kept = np.array([block.text in POSTS for block in blocks]) | np.array(bars)
    kept[bars.index(True)] = False  # three of the four bars kept: the fourth is no prose
    alike = blockvote.with_posts_alike(blocks, rows, kept)
    assert kept_texts(blocks, alike).count("Like Reply") == 3


PLANS = (
    "<html><body><div class='pricing'>"
    "<div class='plan'><h3>Free</h3><div class='price'>£0</div><p>for up to 10 staff</p></div>"
    "<div class='plan'><h3>Pro</h3><div class='price'>From $6 / month</div>"
    "<p>per staff member</p></div>"
    "<div class='plan'><h3>Team</h3><div class='price'>£9</div><div>Share</div></div>"
    "</div></body></html>"
)


def test_a_lone_price_between_kept_blocks_is_kept() -> None:
    """A pricing table's "£0" rates low (a one-word line), between its plan's name and terms
    that were kept; a price beside a dropped block, and a short line that is no price, stay
    dropped."""
    blocks = segment(lxml.html.document_fromstring(PLANS).find("body"))
    texts = [block.text for block in blocks]
    kept = np.array([text not in ("£0", "From $6 / month", "£9", "Share") for text in texts])
    priced = blockvote.with_prices_between(blocks, kept)
    assert kept_texts(blocks, priced) == [
        "Free", "£0", "for up to 10 staff", "Pro", "From $6 / month", "per staff member", "Team"
    ]  # fmt: skip


HEADED_GRID = GRID_PAGE.replace(
    "<h1>Chess pieces</h1>",
    f"<h1>Chess pieces</h1><p>{'Walnut chess pieces turned by hand in Somerset. ' * 2}</p>",
)


@pytest.mark.parametrize(("kind", "guarded"), [("collection", True), ("service", False)])
def test_a_vote_that_drops_the_run_of_records_gives_way(monkeypatch, kind: str, guarded: bool) -> None:
    # The cascade read the grid as the page's run of records; the trees keep the intro alone
    # (a BigCommerce category's cards, each "only the cascade's", all dropped).
    model = from_dict(one_split_model("tag_p"))
    monkeypatch.setattr(blockvote, "block_model", lambda: model)
    monkeypatch.setattr(combine_module, "VOTE_MIN_SHARE", 0.0)  # the other guard stands aside
    monkeypatch.setattr(combine_module, "TrafilaturaStage", fixed_reading("<p>Free delivery</p>"))
    html = f"<ol>{GRID}</ol>"
    run = TraceEntry(
        kind="stage", name="readability-lxml", outcome="accepted",
        reason="6 sibling records, 90% of the page's text, in place of its pick of 3 words",
    )  # fmt: skip
    ours = CascadeResult("readability-lxml", CleanContent(html, html_to_text(html)), [run])
    page = replace(stage_input(HEADED_GRID), rules=ALL_RULES)
    result = combine(page, ours, PageType(kind, {kind: 3.0}))
    vote = next(entry for entry in result.trace if entry.name == VOTE_STAGE)
    assert (vote.outcome == "rejected") is guarded, vote.reason
    assert ("series 5" in result.content.text) is guarded
    # a cascade reading that is no run of records: the vote stands
    plain = CascadeResult("readability-lxml", ours.content, [])
    assert combine(page, plain, PageType(kind, {kind: 3.0})).stage == VOTE_STAGE
