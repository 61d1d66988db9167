"""The extractor's entry point: inputs, immutability, determinism, the cascade and its trace."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import lxml.html
import pytest

import extractor._api
import extractor._cascade
import extractor._types
from extractor import (
    DEFAULT_STAGES,
    Candidate,
    ExtractOptions,
    Metadata,
    NoContentError,
    PageSnapshot,
    ReadabilityResult,
    ScorerStage,
    Skip,
    StageInput,
    TraceEntry,
    extract,
    html_to_markdown,
)
from extractor._metadata import read_metadata
from extractor._postprocess import html_to_text
from extractor._types import METADATA_SOURCE

CASCADE_ONLY = ExtractOptions(stages=DEFAULT_STAGES)
"""The default stages, chosen: the cascade's reading, not combined with trafilatura's."""

PARAGRAPHS = "".join(
    f"<p>Paragraph {i} of the story, with enough words to read like prose, and a comma.</p>"
    for i in range(6)
)
PAGE = (
    "<html lang='en'><head><title>Story | Site</title><meta property='og:site_name' content='Site'>"
    "<meta name='author' content='Ann Writer'><meta name='description' content='A story.'></head>"
    f"<body><nav><a href='/'>Home</a> <a href='/x'>X</a></nav><article><h1>Story</h1>{PARAGRAPHS}"
    "</article></body></html>"
)


def test_accepts_bytes_str_tree_and_snapshot_alike() -> None:
    tree = lxml.html.document_fromstring(PAGE)
    outputs = {
        extract(source, url="https://site.test/story").text
        for source in (
            PAGE,
            PAGE.encode(),
            tree,
            PageSnapshot(html=PAGE, url="https://site.test/story"),
        )
    }
    assert len(outputs) == 1


def test_caller_tree_is_not_mutated() -> None:
    tree = lxml.html.document_fromstring(PAGE)
    before = lxml.html.tostring(tree)
    extract(tree)
    assert lxml.html.tostring(tree) == before


def test_same_input_same_output() -> None:
    first, second = extract(PAGE).to_dict(), extract(PAGE).to_dict()
    for data in (first, second):
        for entry in data["trace"]:
            entry.pop("ms", None)
    assert first == second


def test_metadata_fields() -> None:
    result = extract(PAGE, url="https://site.test/story")
    assert (result.metadata.title, result.metadata.author, result.metadata.site_name) == (
        "Story",  # the site's name cut off "Story | Site"
        "Ann Writer",
        "Site",
    )
    assert (result.metadata.lang, result.metadata.description, result.metadata.date) == (
        "en",
        "A story.",
        None,
    )
    assert result.url == "https://site.test/story"


def test_trace_records_rules_and_every_stage_attempt() -> None:
    result = extract(PAGE)
    kinds = [(entry.kind, entry.name, entry.outcome) for entry in result.trace]
    assert ("rule", "chrome", "removed") in kinds
    assert ("stage", "readability-js", "skipped") in kinds
    accepted = [kind for kind in kinds if kind[0] == "stage" and kind[2] == "accepted"]
    assert accepted == [("stage", "readability-lxml", "accepted")]
    # The page shows no type: trafilatura's reading was weighed, and added nothing.
    assert kinds[-1] == ("stage", "trafilatura", "rejected")


def test_readability_js_result_comes_first_when_present() -> None:
    snapshot = PageSnapshot(
        html=PAGE,
        readability=ReadabilityResult(
            content="<div><p>Reader View saw these words here.</p></div>", title="RV"
        ),
    )
    result = extract(snapshot, options=CASCADE_ONLY)
    assert result.stage == "readability-js"
    # Readability.js moved the headline into `title`; it stays the metadata's, not the text's.
    assert result.text.strip() == "Reader View saw these words here."
    kept = PageSnapshot(
        html=PAGE,
        readability=ReadabilityResult(
            content="<div><h1>RV</h1><p>Reader View saw these words.</p></div>", title="RV"
        ),
    )
    assert "RV" not in extract(kept).text  # nor when Readability.js left it in the content


@pytest.mark.parametrize("content", ["", "<p>   </p>", "<p>Single</p>"])
def test_empty_or_single_word_results_fall_through(content: str) -> None:
    snapshot = PageSnapshot(html=PAGE, readability=ReadabilityResult(content=content))
    result = extract(snapshot)
    assert result.stage == "readability-lxml"
    first = result.trace[[entry.kind for entry in result.trace].index("stage")]
    assert first.name == "readability-js" and first.outcome in ("skipped", "rejected")


class ExplodingStage:
    name = "exploding"

    def __call__(self, page: StageInput) -> Candidate | Skip:
        raise RuntimeError("boom")


class MutatingStage:
    """A badly behaved stage that hands over the shared document itself."""

    name = "mutating"

    def __call__(self, page: StageInput) -> Candidate | Skip:
        return Candidate(copy.deepcopy(page.document), note="whole page")


def test_failing_stage_is_recorded_and_the_cascade_goes_on() -> None:
    result = extract(PAGE, options=ExtractOptions(stages=(ExplodingStage(), ScorerStage())))
    assert result.stage == "scorer"
    failed = next(entry for entry in result.trace if entry.name == "exploding")
    assert failed.outcome == "skipped" and "RuntimeError: boom" in failed.reason


def test_custom_stage_tuple_replaces_the_cascade() -> None:
    result = extract(PAGE, options=ExtractOptions(stages=(MutatingStage(),)))
    assert result.stage == "mutating"
    assert [entry.name for entry in result.trace if entry.kind == "stage"] == ["mutating"]


def test_no_content_names_every_stage() -> None:
    with pytest.raises(NoContentError) as info:
        extract("<html><body><div><img src='a.png'></div></body></html>")
    message = str(info.value)
    assert "readability-js" in message and "readability-lxml" in message and "scorer" in message


def test_snapshot_round_trips_through_json() -> None:
    snapshot = PageSnapshot(
        html=PAGE,
        url="https://site.test/a",
        final_url="https://site.test/b",
        status=200,
        readability=ReadabilityResult(content="<p>x y</p>", byline="Ann", readerable=True),
        timings={"settle": 1.5},
        warnings=("late content",),
    )
    assert PageSnapshot.from_json(snapshot.to_json()) == snapshot


def test_pages_over_every_cap_still_give_content() -> None:
    """Over the scorer's element cap, readability-lxml reads the page after all: slow beats empty."""
    from extractor._scorer import MAX_ELEMENTS

    blocks = "".join(
        f"<div><span>word{i} and</span> <a href='/{i}'>link</a></div>"
        for i in range(MAX_ELEMENTS // 3 + 10)
    )
    result = extract(
        f"<html><body><article><p>A real paragraph, with words.</p>{blocks}</article></body></html>"
    )
    # The cascade's stage read it (the page's type may then send it on to the block vote).
    read = [entry for entry in result.trace if entry.name == "readability-lxml"]
    assert read and read[-1].outcome == "accepted"
    assert "A real paragraph" in result.text


def test_markdown_is_converted_on_first_read_and_behaves_as_a_field() -> None:
    result = extract(PAGE, url="https://site.test/story")
    assert result.markdown == html_to_markdown(result.html)
    assert pickle.loads(pickle.dumps(result)).markdown == result.markdown
    assert dataclasses.replace(result, stage="x").markdown == result.markdown
    with pytest.raises(ValueError):  # derived from html: no stale value can be given
        dataclasses.replace(result, markdown="given")
    assert result.to_dict()["markdown"] == result.markdown
    unread = extract(PAGE, url="https://site.test/story")  # markdown not yet converted
    assert copy.deepcopy(unread).markdown == result.markdown
    assert unread == dataclasses.replace(result, trace=unread.trace)  # the stages' ms differ
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.markdown = "changed"  # type: ignore[misc]


def test_metadata_is_read_on_first_access_and_behaves_as_a_field() -> None:
    url = "https://site.test/story"
    eager = read_metadata(lxml.html.document_fromstring(PAGE), PageSnapshot(html=PAGE, url=url))
    unread = extract(PAGE, url=url)
    assert METADATA_SOURCE in unread.__dict__  # nothing read yet: the text was enough
    assert pickle.loads(pickle.dumps(unread)).metadata == eager  # the source travels along
    assert copy.deepcopy(unread).metadata == eager
    assert unread.metadata == eager and METADATA_SOURCE not in unread.__dict__  # page let go
    assert dataclasses.replace(unread, stage="x").metadata == eager
    given = Metadata(title="Given")
    assert dataclasses.replace(unread, metadata=given).metadata is given
    assert extract(PAGE, url=url).to_dict()["title"] == eager.title
    with pytest.raises(dataclasses.FrozenInstanceError):
        unread.metadata = given  # type: ignore[misc]


class _OurBug(Exception):
    """Stands for a bug in our own refinement or post-processing code."""


@pytest.mark.parametrize("where", ["refine", "postprocess"])
def test_a_bug_in_our_refinements_propagates_instead_of_skipping_the_stage(
    monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    # Only a stage's own work is a stage failure: ours must not hand the page to the next stage.
    real = getattr(extractor._cascade, where)
    calls: list[str] = []

    def buggy_on_first_call(*args: object, **kwargs: object) -> object:
        calls.append(where)
        if len(calls) == 1:
            raise _OurBug(f"bug in {where}")
        return real(*args, **kwargs)

    monkeypatch.setattr(extractor._cascade, where, buggy_on_first_call)
    with pytest.raises(_OurBug):
        extract(PAGE, options=ExtractOptions(stages=(MutatingStage(), ScorerStage())))


OTHER_HTML = "<h2>Other</h2><p>New <em>content</em>, <a href='https://x.test/'>linked</a>.</p>"


@pytest.fixture
def conversions(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Counts the Markdown conversions and metadata reads of extractions made from now on."""
    calls: list[str] = []
    markdown, metadata = extractor._types.html_to_markdown, extractor._api.read_page_metadata

    def counted_markdown(html: str) -> str:
        calls.append("markdown")
        return markdown(html)

    def counted_metadata(snapshot: PageSnapshot) -> Metadata:
        calls.append("metadata")
        return metadata(snapshot)

    monkeypatch.setattr(extractor._types, "html_to_markdown", counted_markdown)
    monkeypatch.setattr(extractor._api, "read_page_metadata", counted_metadata)
    return calls


def test_replacing_the_html_derives_markdown_and_text_from_the_new_html(
    conversions: list[str],
) -> None:
    url = "https://site.test/story"
    read = extract(PAGE, url=url)
    assert read.markdown and read.metadata  # read first: their values must not go stale
    conversions.clear()
    replaced = dataclasses.replace(read, html=OTHER_HTML)
    assert conversions == []  # nothing converted eagerly
    assert replaced.markdown == html_to_markdown(OTHER_HTML)
    assert replaced.text == html_to_text(OTHER_HTML) and "New content, linked." in replaced.text
    assert replaced.metadata == read.metadata  # the page's, not the content's
    with pytest.raises(ValueError):
        dataclasses.replace(read, html=OTHER_HTML, markdown="stale")


def test_revised_changes_an_extraction_reading_nothing_it_did_not_have_to(
    conversions: list[str],
) -> None:
    url = "https://site.test/story"
    unread = extract(PAGE, url=url)
    entry = TraceEntry(kind="post", name="x", outcome="removed")
    revised = unread.revised(html=OTHER_HTML, trace=(*unread.trace, entry))
    assert conversions == []  # neither Markdown nor metadata computed on the way
    assert revised.markdown == html_to_markdown(OTHER_HTML)
    assert revised.text == html_to_text(OTHER_HTML) and revised.trace[-1] == entry
    assert revised.metadata == extract(PAGE, url=url).metadata
    assert unread.html != revised.html and unread.markdown == html_to_markdown(unread.html)
    assert unread.revised(stage="x").text == unread.text  # html kept: so is what derives from it
    with pytest.raises(TypeError):
        unread.revised(markdown="stale")
