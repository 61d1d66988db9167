"""The Reader View fidelity comparisons (renderer/qa/fidelity.py), without a browser: the DOM walk
of Readability's test suite, metadata agreement with missing/null fields, the text score."""

from __future__ import annotations

from renderer.qa.fidelity import (
    ALL_FIELDS,
    compare_dom,
    compare_metadata,
    text_of,
    text_score,
)

PAGE = (
    '<div id="readability-page-1" class="page">'
    '<div><p>First paragraph with <a href="http://fakehost/a">a link</a> in it.</p>'
    "<p>Second paragraph.</p>"
    '<p>Third <img src="http://fakehost/i.png" alt="x"> paragraph.</p></div>'
    "</div>"
)

# The same DOM as js-beautify pretty-prints it (Mozilla's expected.html files look like this).
PRETTY = """<div id="readability-page-1" class="page">
    <div>
        <p>First paragraph with <a href="http://fakehost/a">a link</a> in it.</p>
        <p>
            Second paragraph.
        </p>
        <p>Third <img src="http://fakehost/i.png" alt="x"> paragraph.</p>
    </div>
</div>
"""


def test_equal_trees() -> None:
    diff = compare_dom(PAGE, PAGE)
    assert diff.equal and diff.path is None
    assert diff.nodes_compared > 10


def test_pretty_printing_and_whitespace_runs_are_ignored() -> None:
    assert compare_dom(PAGE, PRETTY).equal
    assert compare_dom(PAGE.replace("Second paragraph.", "Second \n\t paragraph."), PRETTY).equal


def test_entities_and_attribute_order_do_not_matter() -> None:
    reordered = PAGE.replace(
        'src="http://fakehost/i.png" alt="x"', 'alt="x" src="http://fakehost/i.png"'
    )
    assert compare_dom(reordered, PAGE).equal
    assert compare_dom(
        "<p>Fish &amp; chips&nbsp;today</p>", "<p>Fish &#38; chips\u00a0today</p>"
    ).equal


def test_whitespace_at_an_inline_edge_still_counts() -> None:
    # js-beautify keeps the space before an inline element: "a <b>" and "a<b>" differ.
    diff = compare_dom("<p>Hello <b>world</b></p>", "<p>Hello<b>world</b></p>")
    assert not diff.equal
    assert diff.path == "/p[1]/text()[1]"


def test_attribute_difference_reports_its_path() -> None:
    changed = PAGE.replace('href="http://fakehost/a"', 'href="http://fakehost/b"')
    diff = compare_dom(changed, PAGE)
    assert not diff.equal
    assert diff.path == "/div[1]/div[1]/p[1]/a[1]"
    assert "href" in diff.description and "fakehost/b" in diff.description


def test_missing_attribute_is_a_difference() -> None:
    diff = compare_dom(PAGE.replace(' alt="x"', ""), PAGE)
    assert not diff.equal
    assert diff.path == "/div[1]/div[1]/p[3]/img[1]"
    assert "alt" in diff.description


def test_text_difference_reports_the_text_node() -> None:
    diff = compare_dom(PAGE.replace("Second paragraph.", "Second paragraf."), PAGE)
    assert not diff.equal
    assert diff.path == "/div[1]/div[1]/p[2]/text()[1]"
    assert "paragraf" in diff.description


def test_extra_node_is_detected() -> None:
    extra = PAGE.replace("</div></div>", "<p>Fourth paragraph.</p></div></div>")
    diff = compare_dom(extra, PAGE)
    assert not diff.equal
    assert diff.path == "/div[1]/div[1]/p[4]"
    assert diff.description.startswith("extra node")


def test_missing_node_is_detected() -> None:
    diff = compare_dom(PAGE.replace("<p>Second paragraph.</p>", ""), PAGE)
    assert not diff.equal
    # Third paragraph now comes second: the walk meets <p> vs <p>, then different text.
    assert diff.path == "/div[1]/div[1]/p[2]/text()[1]"
    short = compare_dom("<div><p>One</p></div>", "<div><p>One</p><p>Two</p></div>")
    assert short.path == "/div[1]/p[2]" and short.description.startswith("missing node")


def test_tag_difference_is_detected() -> None:
    diff = compare_dom(
        PAGE.replace("<p>Second paragraph.</p>", "<div>Second paragraph.</div>"), PAGE
    )
    assert not diff.equal
    assert diff.path == "/div[1]/div[1]/div[1]"
    assert "<p>" in diff.description and "<div>" in diff.description


def test_node_moved_to_another_depth_is_detected() -> None:
    # Same nodes in the same document order, different nesting: the suite's walk would miss it.
    diff = compare_dom("<div><p>a</p></div><span>b</span>", "<div><p>a</p><span>b</span></div>")
    assert not diff.equal
    assert "expected at" in diff.description


def test_implied_tbody_is_a_difference() -> None:
    # Chromium's HTML5 parser inserts <tbody>; JSDOMParser (Mozilla's expected files) does not.
    diff = compare_dom(
        "<table><tbody><tr><td>x</td></tr></tbody></table>", "<table><tr><td>x</td></tr></table>"
    )
    assert not diff.equal and diff.path == "/table[1]/tbody[1]"


def test_comments_and_void_elements() -> None:
    assert compare_dom("<p>a<br>b<!-- note --></p>", "<p>a<br/>b</p>").equal


EXPECTED = {
    "title": "A title",
    "byline": None,
    "dir": None,
    "excerpt": "An excerpt.",
    "siteName": "Site",
    "publishedTime": None,
    "readerable": True,
    # "lang" is missing: JSON.stringify dropped Readability's undefined
}

RESULT = {
    "content": "<div></div>",
    "title": "A title",
    "byline": None,
    "dir": None,
    "excerpt": "An excerpt.",
    "siteName": "Site",
    "publishedTime": None,
    "readerable": True,
}


def test_metadata_all_agree_with_missing_and_null_as_no_value() -> None:
    agree = compare_metadata(RESULT, EXPECTED)
    assert set(agree) == set(ALL_FIELDS)
    assert all(agree.values()), agree


def test_metadata_disagreements_are_per_field() -> None:
    agree = compare_metadata(
        {**RESULT, "title": "Other", "lang": "en", "readerable": False}, EXPECTED
    )
    assert [name for name, ok in agree.items() if not ok] == ["title", "lang", "readerable"]


def test_metadata_value_against_null_disagrees() -> None:
    agree = compare_metadata({**RESULT, "byline": "Someone"}, EXPECTED)
    assert agree["byline"] is False
    assert compare_metadata({**RESULT, "siteName": None}, EXPECTED)["siteName"] is False


def test_metadata_without_an_article_only_readerable_can_agree() -> None:
    agree = compare_metadata({"readerable": True}, EXPECTED)
    assert agree["readerable"] is True
    assert not any(ok for name, ok in agree.items() if name != "readerable")


def test_text_of_and_text_score() -> None:
    assert text_of(PAGE).split() == (
        "First paragraph with a link in it. Second paragraph. Third paragraph.".split()
    )
    assert text_score(PAGE, PRETTY).f1 == 1.0
    half = text_score("<p>alpha beta</p>", "<p>alpha beta gamma delta</p>")
    assert half.precision == 1.0 and half.recall == 0.5
