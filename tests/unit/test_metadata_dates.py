"""Publish and update dates: JSON-LD first when valid, htmldate next, the update-date rules."""

from __future__ import annotations

import datetime as dt

import pytest

from extractor._dates import find_dates, iso_date
from extractor._parse import parse_html


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2020-01-02", "2020-01-02"),
        ("2020-01-02T23:30:00-05:00", "2020-01-02"),  # the publisher's day, not UTC's
        ("2020-01-02T10:00:00Z", "2020-01-02"),
        ("2020-01-02T10:00:00.000+0000", "2020-01-02"),
        ("20200102", "2020-01-02"),
        ("2 January 2020", None),  # not ISO 8601: htmldate's job
        ("last Tuesday", None),
        ("1970-01-01", None),  # before the web
        ((dt.date.today() + dt.timedelta(days=30)).isoformat(), None),  # the future
        ("", None),
        (None, None),
    ],
)
def test_iso_date(value: str | None, expected: str | None) -> None:
    assert iso_date(value) == expected


def dates(head: str, body: str = "<p>x</p>", **kwargs: str | None):
    document = parse_html(f"<html><head>{head}</head><body>{body}</body></html>")
    kwargs.setdefault("json_ld_published", None)
    kwargs.setdefault("json_ld_modified", None)
    published, modified = find_dates(document, url=None, **kwargs)  # type: ignore[arg-type]
    return (
        (published.value, published.source) if published else None,
        (modified.value, modified.source) if modified else None,
    )


OG_DATES = (
    "<meta property='article:published_time' content='2018-05-01T10:00:00Z'>"
    "<meta property='article:modified_time' content='2018-06-15T10:00:00Z'>"
)


def test_json_ld_dates_outrank_the_markup() -> None:
    found = dates(OG_DATES, json_ld_published="2017-01-01", json_ld_modified="2017-02-01")
    assert found == (("2017-01-01", "json-ld"), ("2017-02-01", "json-ld"))


def test_invalid_json_ld_dates_fall_back_to_htmldate() -> None:
    found = dates(OG_DATES, json_ld_published="yesterday", json_ld_modified="soon")
    assert found == (("2018-05-01", "htmldate"), ("2018-06-15", "htmldate"))


def test_one_stated_date_is_no_update_date() -> None:
    head = "<meta property='article:published_time' content='2018-05-01T10:00:00Z'>"
    assert dates(head) == (("2018-05-01", "htmldate"), None)


def test_time_element_in_the_text() -> None:
    body = "<article><p>Posted <time datetime='2016-09-12'>12 Sept</time></p></article>"
    assert dates("", body)[0] == ("2016-09-12", "htmldate")


def test_readability_js_date_is_the_last_resort() -> None:
    assert dates("", readability_published="2015-03-03T00:00:00Z") == (
        ("2015-03-03", "readability-js"),
        None,
    )


def test_no_date_anywhere() -> None:
    assert dates("<title>Nothing dated</title>") == (None, None)


def test_update_before_publish_is_dropped() -> None:
    found = dates("", json_ld_published="2020-05-05", json_ld_modified="2020-01-01")
    assert found == (("2020-05-05", "json-ld"), None)


def test_htmldate_errors_cost_only_the_date(monkeypatch: pytest.MonkeyPatch) -> None:
    import htmldate

    def broken(*args: object, **kwargs: object) -> str:
        raise ValueError("a bug in htmldate")

    monkeypatch.setattr(htmldate, "find_date", broken)
    assert dates(OG_DATES) == (None, None)
