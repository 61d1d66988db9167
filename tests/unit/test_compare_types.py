"""The Reader View comparison's types without a browser: the snapshot's ``reader_view`` field
round-trips through JSON, the Reader View side is what Firefox shows (title above the content,
sanitised), the stage's reason comes from the trace, and ``PageComparison`` serialises."""

from __future__ import annotations

import json

from extractor import ExtractOptions, Metadata, PageSnapshot, ReadabilityResult, TraceEntry
from renderer import RenderOptions
from renderer.qa.compare import (
    PageComparison,
    PageFailure,
    ReadermodeSide,
    compare_snapshot,
    reader_view_side,
    stage_reason,
)

PARAGRAPHS = [
    f"<p>Paragraph {i} of the story about the harbour, with enough words to read as prose.</p>"
    for i in range(5)
]
ARTICLE = "".join(PARAGRAPHS)
PAGE = f"<html><head><title>Harbour</title></head><body><article>{ARTICLE}</article></body></html>"


def test_snapshot_with_reader_view_round_trips_through_json() -> None:
    snapshot = PageSnapshot(
        html=PAGE,
        url="https://site.test/a",
        readability=ReadabilityResult(content="<p>ours</p>", readerable=True),
        reader_view=ReadabilityResult(
            content="<div><p>theirs</p></div>", title="T", byline="B", readerable=True, length=6
        ),
        warnings=("w",),
    )
    again = PageSnapshot.from_json(snapshot.to_json())
    assert again == snapshot
    assert again.reader_view is not None and again.reader_view.byline == "B"
    assert json.loads(snapshot.to_json())["reader_view"]["title"] == "T"


def test_reader_view_without_article_keeps_its_readerable_verdict() -> None:
    snapshot = PageSnapshot(
        html=PAGE, reader_view=ReadabilityResult(content=None, readerable=False)
    )
    again = PageSnapshot.from_json(snapshot.to_json())
    assert again == snapshot
    assert again.reader_view is not None and again.reader_view.readerable is False


def test_old_snapshots_without_the_field_still_load() -> None:
    data = json.loads(PageSnapshot(html=PAGE).to_json())
    del data["reader_view"]
    assert PageSnapshot.from_dict(data).reader_view is None
    assert PageSnapshot(html=PAGE).reader_view is None
    assert RenderOptions().reader_view is False


def test_reader_view_side_is_the_body_with_the_title_apart() -> None:
    # Compared with readermode's content, which leaves the headline to the metadata too.
    side = reader_view_side(
        ReadabilityResult(content="<div><p>Body text here.</p></div>", title="Head")
    )
    assert side.found and side.html == "<div><p>Body text here.</p></div>"
    assert side.text.strip() == "Body text here." and side.title == "Head"
    kept = reader_view_side(
        ReadabilityResult(content="<div><h2>Head</h2><p>Body text here.</p></div>", title="Head")
    )
    assert kept.html.count("Head") == 1


def test_reader_view_side_is_sanitised() -> None:
    side = reader_view_side(
        ReadabilityResult(
            content='<div><p onclick="x()">Hi <a href="javascript:alert(1)">there</a></p>'
            "<script>alert(2)</script></div>",
            title="<script>alert(3)</script>",
        )
    )
    assert "<script" not in side.html and "javascript:" not in side.html
    assert "onclick" not in side.html
    assert "alert(3)" not in side.html  # the title is not part of the body


def test_reader_view_side_when_nothing_was_found() -> None:
    assert reader_view_side(None).found is False
    side = reader_view_side(ReadabilityResult(content=None, readerable=False))
    assert (side.found, side.readerable, side.text, side.html) == (False, False, "", "")


def test_stage_reason_names_the_winner_and_what_gave_way() -> None:
    trace = (
        TraceEntry(kind="rule", name="hidden", outcome="removed", count=2),
        TraceEntry(kind="stage", name="readability-js", outcome="skipped", reason="no result"),
        TraceEntry(kind="stage", name="readability-lxml", outcome="accepted", reason="summary"),
    )
    assert stage_reason(trace) == "summary (after readability-js skipped: no result)"
    assert stage_reason(trace[2:]) == "summary"
    assert stage_reason(()) == "no stage ran"


def test_compare_snapshot_scores_readermode_against_reader_view() -> None:
    same = ReadabilityResult(content=f"<div>{ARTICLE}</div>", title="Harbour")
    snapshot = PageSnapshot(
        html=PAGE, url="https://site.test/a", readability=same, reader_view=same
    )
    comparison = compare_snapshot(snapshot)
    assert comparison.readermode.stage == "readability-js"
    assert comparison.scores.f1 == 1.0
    assert comparison.target == "https://site.test/a"

    half = ReadabilityResult(content=f"<div>{''.join(PARAGRAPHS[:2])}</div>", title="Harbour")
    partial = compare_snapshot(PageSnapshot(html=PAGE, readability=same, reader_view=half))
    assert partial.scores.recall == 1.0 and partial.scores.precision < 0.8


def test_compare_snapshot_when_readermode_finds_nothing() -> None:
    snapshot = PageSnapshot(
        html="<html><body><div><img src='a.png'></div></body></html>",
        reader_view=ReadabilityResult(content=None, readerable=False),
    )
    comparison = compare_snapshot(snapshot, target="page.html")
    assert comparison.readermode.stage is None
    assert "no readable content" in comparison.readermode.stage_reason
    # Neither side found anything: they agree.
    assert comparison.scores.f1 == 1.0 and comparison.target == "page.html"
    assert comparison.reader_view.found is False


def test_page_comparison_to_dict_is_json_without_the_screenshot() -> None:
    same = ReadabilityResult(content=f"<div>{ARTICLE}</div>", title="Harbour", readerable=True)
    comparison = compare_snapshot(
        PageSnapshot(html=PAGE, readability=same, reader_view=same),
        extract_options=ExtractOptions(),
        screenshot_png=b"\x89PNG\r\n\x1a\n...",
    )
    data = json.loads(json.dumps(comparison.to_dict()))
    assert set(data) >= {"reader_view", "readermode", "scores", "trace", "warnings"}
    assert set(data["reader_view"]) >= {"title", "byline", "text", "html", "readerable"}
    assert set(data["readermode"]) >= {"stage", "stage_reason", "text", "html"}
    assert set(data["scores"]) == {"precision", "recall", "f1"}
    assert "screenshot_png" not in data and "snapshot" not in data
    assert isinstance(comparison, PageComparison)
    assert PageFailure(target="x", error="boom", exit_code=11).to_dict()["exit_code"] == 11


def test_readermode_side_metadata_has_the_json_output_fields() -> None:
    side = ReadermodeSide(
        stage="scorer", stage_reason="", metadata=Metadata(title="T", authors=("A", "B"))
    )
    metadata = json.loads(json.dumps(side.to_dict()))["metadata"]
    assert metadata["author"] == "A, B" and metadata["authors"] == ["A", "B"]
