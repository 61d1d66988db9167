"""A rendered snapshot's extraction read ahead (``prepare_extraction``) while its Readability.js
result is on its way, then finished (``extract(..., prepared=...)``): the same extraction as
reading it whole, with readability-lxml run once, and never applied to another page."""

from __future__ import annotations

from dataclasses import replace

import pytest

from extractor import (
    ALL_RULES,
    STAGES_BY_NAME,
    Candidate,
    EmptyInputError,
    ExtractOptions,
    PageSnapshot,
    ReadabilityResult,
    Skip,
    StageInput,
    extract,
    prepare_extraction,
)

PARAGRAPHS = "".join(
    f"<p>Paragraph {n} of the ferry story tells how the late crossing was cut and what the "
    "shift workers at the fish plant now do to get home after ten at night.</p>"
    for n in range(6)
)
CHROME = "<p>Share this story with your friends on every network you can think of today.</p>"
PAGE = (
    "<html><head><title>Ferry cut | Kelvik Courier</title></head><body><article>"
    f"<h1>Ferry cut</h1>{PARAGRAPHS}</article><footer><p>Kelvik Courier, all rights kept.</p>"
    "</footer></body></html>"
)
URL = "https://courier.example/ferry"
RESULT = ReadabilityResult(content=f"<div>{PARAGRAPHS}{CHROME}</div>", title="The ferry cut")


class CountingStage:
    """readability-lxml, counting its runs."""

    name = "readability-lxml"

    def __init__(self) -> None:
        self.runs = 0

    def __call__(self, page: StageInput) -> Candidate | Skip:
        self.runs += 1
        return STAGES_BY_NAME["readability-lxml"](page)


def counting_options() -> tuple[ExtractOptions, CountingStage]:
    counting = CountingStage()
    stages = (STAGES_BY_NAME["readability-js"], counting, STAGES_BY_NAME["scorer"])
    # without the <article> boundary the cross-check has chrome to take out
    return ExtractOptions(stages=stages, rules=ALL_RULES - {"article-boundary"}), counting


def rendered() -> PageSnapshot:
    return PageSnapshot(html=PAGE, url=URL, final_url=URL, readability=RESULT)


def summary(extraction: object) -> tuple[object, ...]:
    e = extraction
    trace = [(t.kind, t.name, t.outcome, t.reason) for t in e.trace]  # type: ignore[attr-defined]
    return (e.html, e.text, e.stage, e.page_type, trace, e.metadata.title)  # type: ignore[attr-defined]


def test_finishing_what_was_read_ahead_is_reading_it_whole() -> None:
    options, counting = counting_options()
    whole = extract(rendered(), options=options)
    assert counting.runs == 1 and whole.stage == "readability-lxml"  # the cross-check's pick
    prepared = prepare_extraction(replace(rendered(), readability=None), options=options)
    assert prepared is not None and counting.runs == 2  # readability-lxml ran ahead ...
    finished = extract(rendered(), options=options, prepared=prepared)
    assert counting.runs == 2  # ... and not again
    assert summary(finished) == summary(whole)


def test_the_title_readability_js_read_still_guards_the_headline() -> None:
    """The page's titles are read ahead; the one Readability.js read joins them at the end."""
    headline = f"<div><h2>The late ferry cut</h2>{PARAGRAPHS}</div>"
    result = ReadabilityResult(content=headline, title="The late ferry cut")
    snapshot = replace(rendered(), readability=result)
    # without the cross-check and the <article> boundary, only the title refinement takes the
    # headline out of Readability.js's result
    options = ExtractOptions(rules=ALL_RULES - {"cross-check", "article-boundary"})
    prepared = prepare_extraction(replace(snapshot, readability=None), options=options)
    finished = extract(snapshot, options=options, prepared=prepared)
    assert finished.stage == "readability-js"
    assert summary(finished) == summary(extract(snapshot, options=options))
    assert "The late ferry cut" not in finished.text and finished.text.startswith("Paragraph 0")


def test_what_was_read_from_another_page_or_options_is_not_used() -> None:
    options, counting = counting_options()
    prepared = prepare_extraction(rendered(), options=options)
    other_page = replace(rendered(), html=PAGE.replace("Paragraph 3", "Section 3"))
    assert "Section 3" in extract(other_page, options=options, prepared=prepared).text
    moved = replace(rendered(), final_url="https://courier.example/elsewhere")
    extract(moved, options=options, prepared=prepared)
    assert counting.runs == 3  # read whole twice, after the one ahead
    other_options, _ = counting_options()
    assert not prepared.fits(rendered(), other_options)
    assert prepared.fits(rendered(), options)


def test_nothing_is_read_ahead_where_the_served_document_is_compared() -> None:
    served = replace(rendered(), source_html=PAGE)
    assert prepare_extraction(served) is None


def test_a_page_that_cannot_be_read_is_not_read_ahead_and_raises_when_extracted() -> None:
    empty = PageSnapshot(html="", url=URL, final_url=URL)
    assert prepare_extraction(empty) is None
    with pytest.raises(EmptyInputError):
        extract(empty, prepared=prepare_extraction(empty))
