"""Publish and update dates as ISO 8601 calendar dates (``YYYY-MM-DD``).

Structured data first: a JSON-LD ``datePublished``/``dateModified`` that is a valid ISO 8601
date or date-time. Then htmldate (Adrien Barbaresi's, Apache-2.0), which reads <meta> names
(OpenGraph ``article:*_time``, Dublin Core, ``date``...), JSON in scripts, ``<time>``, ``<abbr>``,
the URL and, failing those, date patterns in the page's text. It gets our parsed tree (it copies
it before pruning, so the caller's tree is untouched) and ``extensive_search=False``: the
extensive search runs dateparser over free text, which is slow on big pages and mostly finds
dates that are not the article's.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass

from lxml.html import HtmlElement

ISO_DATE = "%Y-%m-%d"
EARLIEST = dt.date(1995, 1, 1)
"""htmldate's own lower bound: no web page is older."""
FUTURE_SLACK = dt.timedelta(days=1)
"""A date up to a day ahead is a time-zone artefact, not a bogus date."""

_LOG = logging.getLogger(__name__)


@dataclass(frozen=True)
class FoundDate:
    """A date and the source that gave it ("json-ld", "htmldate", "readability-js")."""

    value: str
    source: str


def iso_date(value: str | None) -> str | None:
    """``YYYY-MM-DD`` from an ISO 8601 date or date-time within sane bounds, else None."""
    if not value:
        return None
    try:
        parsed = dt.datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    day = parsed.date()
    if not EARLIEST <= day <= dt.date.today() + FUTURE_SLACK:
        return None
    return day.strftime(ISO_DATE)


def _htmldate(document: HtmlElement, url: str | None, *, original: bool) -> str | None:
    from htmldate import find_date  # imported on first use: it pulls in dateutil (~0.2 s)

    try:
        return find_date(
            document,
            extensive_search=False,
            original_date=original,
            outputformat=ISO_DATE,
            url=url,
            # Full expressions in the markup before a bare date in the URL's path.
            deferred_url_extractor=True,
        )
    # A date is optional: a bug in htmldate on an odd page must not cost the page its content.
    except Exception as error:
        _LOG.debug("htmldate failed: %s", error)
        return None


def find_dates(
    document: HtmlElement,
    *,
    url: str | None,
    json_ld_published: str | None,
    json_ld_modified: str | None,
    readability_published: str | None = None,
) -> tuple[FoundDate | None, FoundDate | None]:
    """The page's publish date and update date, each with where it came from.

    The update date is None unless it is later than the publish date, or JSON-LD states it;
    when no publish date is found at all, htmldate is not asked for an update date either (it
    would find nothing).
    """
    published: FoundDate | None = None
    if value := iso_date(json_ld_published):
        published = FoundDate(value, "json-ld")
    elif value := _htmldate(document, url, original=True):
        published = FoundDate(value, "htmldate")
    elif value := iso_date(readability_published):
        published = FoundDate(value, "readability-js")

    modified: FoundDate | None = None
    if value := iso_date(json_ld_modified):
        modified = FoundDate(value, "json-ld")
    elif published is not None and (value := _htmldate(document, url, original=False)):
        modified = FoundDate(value, "htmldate")
    # htmldate's latest date is the publish date again when the page states only one: that
    # says nothing about an update. An update date before the publish date is a wrong one.
    if (
        modified
        and published
        and (
            modified.value < published.value
            or (modified.source == "htmldate" and modified.value == published.value)
        )
    ):
        modified = None
    return published, modified
