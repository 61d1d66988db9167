"""A render that never reached DOMContentLoaded is checked against the document as served."""

from __future__ import annotations

import pytest

from extractor import ExtractOptions, NoContentError, PageSnapshot, extract

PARAGRAPHS = [
    f"<p>Paragraph {n} of the quay story says what the harbour committee decided about the "
    "lamps and why the north quay will be lit again this winter.</p>"
    for n in range(8)
]


def page(paragraphs: list[str]) -> str:
    return f"<html><body><article>{''.join(paragraphs)}</article></body></html>"


def stalled(dom: list[str], served: list[str] | str) -> PageSnapshot:
    source = served if isinstance(served, str) else page(served)
    return PageSnapshot(
        html=page(dom),
        url="https://example.com/quay",
        source_html=source,
        warnings=("partial: the page did not finish loading (no DOMContentLoaded)",),
    )


def test_served_document_wins_when_it_reads_far_more() -> None:
    result = extract(stalled(PARAGRAPHS[:2], PARAGRAPHS))
    assert "Paragraph 7" in result.text
    assert result.trace[-1].name == "served-document" and result.trace[-1].outcome == "accepted"
    assert result.warnings and result.url == "https://example.com/quay"


def test_render_kept_when_the_served_document_is_not_much_longer() -> None:
    # Scripts that ran may have added a little; the render is then the better reading.
    result = extract(stalled(PARAGRAPHS[:6], PARAGRAPHS[:7]))
    assert "Paragraph 6" not in result.text and "Paragraph 5" in result.text
    assert all(entry.name != "served-document" for entry in result.trace)


def test_either_side_empty() -> None:
    assert "Paragraph 7" in extract(stalled([], PARAGRAPHS)).text  # the DOM had nothing yet
    assert "Paragraph 1" in extract(stalled(PARAGRAPHS[:2], "<html></html>")).text
    with pytest.raises(NoContentError):
        extract(stalled([], "<html><body></body></html>"))


def test_min_length_applies_to_the_choice() -> None:
    options = ExtractOptions(min_length=100)
    assert "Paragraph 7" in extract(stalled(PARAGRAPHS[:1], PARAGRAPHS), options=options).text


def test_snapshot_json_keeps_the_served_copy() -> None:
    snapshot = stalled(PARAGRAPHS[:1], PARAGRAPHS)
    assert PageSnapshot.from_json(snapshot.to_json()) == snapshot
