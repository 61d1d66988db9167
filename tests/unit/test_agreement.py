"""The cross-check of Readability.js's result by readability-lxml (rendered pages)."""

from __future__ import annotations

from extractor import (
    ALL_RULES,
    STAGES_BY_NAME,
    ExtractOptions,
    PageSnapshot,
    ReadabilityResult,
    extract,
)
from extractor._postprocess import html_to_text

PARAGRAPHS = "".join(
    f"<p>Paragraph {n} of the ferry story tells how the late crossing was cut and what the "
    f"shift workers at the fish plant now do to get home after ten at night.</p>"
    for n in range(6)
)
CHROME = (
    "<p>Share this story with your friends on every network you can think of today.</p>"
    "<p>Related stories you may also like: ferries, buses, trains and bridges nearby.</p>"
)
PAGE = (
    "<html><head><title>Ferry cut</title></head><body><article><h1>Ferry cut</h1>"
    f"{PARAGRAPHS}</article><footer><p>Kelvik Courier, all rights kept.</p></footer>"
    "</body></html>"
)


def snapshot(content: str) -> PageSnapshot:
    return PageSnapshot(
        html=PAGE, readability=ReadabilityResult(content=content, title="Ferry cut")
    )


# The <article> boundary would trim the chrome from Readability.js's result on its own.
WITHOUT_BOUNDARY = ExtractOptions(rules=ALL_RULES - {"article-boundary"})


def test_agreed_narrower_content_wins() -> None:
    result = extract(snapshot(f"<div>{PARAGRAPHS}{CHROME}</div>"), options=WITHOUT_BOUNDARY)
    assert result.stage == "readability-lxml"
    assert "Share this story" not in result.text and "Related stories" not in result.text
    assert result.text.startswith("Paragraph 0") and "Paragraph 5" in result.text
    assert result.metadata.title == "Ferry cut"  # the headline is the title, not the content
    (entry,) = [e for e in result.trace if e.reason.startswith("cross-check")]
    assert entry.name == "readability-lxml" and entry.outcome == "accepted"


def test_same_content_keeps_readability_js() -> None:
    assert extract(snapshot(f"<div>{PARAGRAPHS}</div>")).stage == "readability-js"


def test_disagreeing_content_keeps_readability_js() -> None:
    other = "".join(
        f"<p>Entirely different text number {n} about a mountain railway and its tunnels, "
        "which the other extractor never saw anywhere on the page it read.</p>"
        for n in range(6)
    )
    result = extract(snapshot(f"<div>{other}{PARAGRAPHS[:200]}</div>"))
    assert result.stage == "readability-js" and "mountain railway" in result.text


def test_switched_off_or_without_readability_lxml() -> None:
    content = f"<div>{PARAGRAPHS}{CHROME}</div>"
    off_rules = ALL_RULES - {"cross-check", "article-boundary"}
    off = extract(snapshot(content), options=ExtractOptions(rules=off_rules))
    assert off.stage == "readability-js" and "Share this story" in off.text
    alone = ExtractOptions(stages=(STAGES_BY_NAME["readability-js"],))
    assert extract(snapshot(content), options=alone).stage == "readability-js"


RELATED = "".join(
    f'<p>On the Kelvik Courier: <a href="/story/{n}">Bus route {n} to the fish plant gains a '
    "late run after ten at night</a></p>"
    for n in range(3)
)
GALLERY = "".join(
    "<div><p>A long row of unsold cars sits at a dealership on the edge of town.</p>"
    f"<p>Image {n} of 9</p><p>Caption</p><p>Close</p></div>"
    for n in range(3)
)


def test_related_link_lines_readability_js_dropped_are_no_disagreement() -> None:
    """readability-lxml keeps the article's related-story lines (mostly a link each) that
    Readability.js drops, as it drops link-dense paragraphs by design; Readability.js keeps
    a gallery's captions and controls, their classes stripped. The two agree on the prose,
    so the narrower reading wins: the link lines are not weighed in the containment."""
    page = PAGE.replace("</article>", f"{RELATED}</article>")
    content = f"<div>{GALLERY}{PARAGRAPHS}</div>"
    snap = PageSnapshot(
        html=page, readability=ReadabilityResult(content=content, title="Ferry cut")
    )
    result = extract(snap, options=WITHOUT_BOUNDARY)
    assert result.stage == "readability-lxml"
    assert "Image 1 of 9" not in result.text and "Paragraph 5" in result.text


def test_prose_inside_ignores_link_lines_and_block_junctions() -> None:
    from extractor._agreement import prose_inside

    checking = f"{PARAGRAPHS}{RELATED}"
    assert prose_inside(checking, html_to_text(PARAGRAPHS)) == 1.0
    assert prose_inside(PARAGRAPHS, "nothing alike at all here") == 0.0
    assert prose_inside(RELATED, html_to_text(PARAGRAPHS)) == 0.0  # no prose: nothing vouched


CODE = (
    "<pre><code>ferryctl schedule --route kelvik --after 22:00\n"
    "ferryctl notify --shift fish-plant</code></pre>"
)


# The two stages alone: their reading is not merged with trafilatura's afterwards.
CASCADE_ALONE = ExtractOptions(
    rules=WITHOUT_BOUNDARY.rules,
    stages=(STAGES_BY_NAME["readability-js"], STAGES_BY_NAME["readability-lxml"]),
)


def test_blocks_readability_js_dropped_inside_its_result_are_put_back() -> None:
    """Readability.js's conditional cleaning drops a code block (wrapped in a custom element
    on coryd.dev), a list or an FAQ from the middle of an article: readability-lxml's blocks
    between two blocks both kept go back in. Its short lines there ("Read more") stay out,
    and so does what it reads around the result."""
    first, rest = PARAGRAPHS.split("<p>Paragraph 3")
    page = PAGE.replace(PARAGRAPHS, f"{first}{CODE}<p>Read more</p><p>Paragraph 3{rest}")
    snap = PageSnapshot(
        html=page, readability=ReadabilityResult(content=f"<div>{PARAGRAPHS}</div>", title="x")
    )
    result = extract(snap, options=CASCADE_ALONE)
    assert "ferryctl schedule --route kelvik" in result.text
    assert result.text.index("Paragraph 2") < result.text.index("ferryctl")
    assert result.text.index("ferryctl") < result.text.index("Paragraph 3")
    assert "Read more" not in result.text
    (entry,) = [e for e in result.trace if "put back" in e.reason]
    assert entry.name == "readability-js" and entry.outcome == "accepted"
    # what readability-lxml reads before the first block both kept stays out
    lead = CODE.replace("schedule --route kelvik", "rollback --route harbour")
    edge = PageSnapshot(
        html=page.replace("<h1>Ferry cut</h1>", f"<h1>Ferry cut</h1>{lead}"),
        readability=ReadabilityResult(content=f"<div>{PARAGRAPHS}</div>", title="x"),
    )
    edged = extract(edge, options=CASCADE_ALONE).text
    assert "schedule --route kelvik" in edged and "rollback --route harbour" not in edged


SECTIONS = "".join(
    f"<section><h2>Service {n}</h2><p>Our harbour crews handle service {n} for shipping "
    "lines, from the first survey of the berth to the last line made fast at night.</p>"
    "</section>"
    for n in range(6)
)
SERVICE_PAGE = (
    "<html><head><title>Harbour services</title><script type='application/ld+json'>"
    '{"@context": "https://schema.org", "@type": "Service", "name": "Harbour services"}'
    "</script></head><body><main><h1>Harbour services</h1>"
    f"{SECTIONS}</main><footer><p>Kelvik Harbour Board.</p></footer></body></html>"
)


def test_on_a_service_page_readability_lxml_holding_more_sections_wins() -> None:
    """Readability.js's cleaning kept two of a service page's six sections; readability-lxml
    read them all, its own two among them: on a page made of sections, its wider reading is
    the page. On an article the narrower reading stands."""
    kept = "".join(SECTIONS.split("</section>")[i] + "</section>" for i in (2, 3))
    snap = PageSnapshot(
        html=SERVICE_PAGE, readability=ReadabilityResult(content=f"<div>{kept}</div>", title="x")
    )
    result = extract(snap, options=CASCADE_ALONE)
    assert result.page_type == "service"
    assert "Service 0" in result.text and "service 5 for shipping" in result.text
    (entry,) = [e for e in result.trace if "sections its cleaning dropped" in e.reason]
    assert entry.name == "readability-lxml" and entry.outcome == "accepted"
    article = SERVICE_PAGE.replace('"Service"', '"NewsArticle"')
    narrow = extract(
        PageSnapshot(html=article, readability=ReadabilityResult(content=f"<div>{kept}</div>")),
        options=CASCADE_ALONE,
    )
    assert narrow.page_type == "article"
    assert "Service 2" in narrow.text and "Service 0" not in narrow.text
