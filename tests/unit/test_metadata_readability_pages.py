"""Our static metadata against Readability.js's on Mozilla's 130 test pages.

Readability.js's ``expected-metadata.json`` (title, byline, excerpt, siteName, publishedTime)
is read from ../shared/corpora/readability-test-pages, never copied. The pages are read
statically (no Readability.js result to lean on), so this measures what the page's own metadata
gives. Agreement is counted twice: exactly, and after normalising what Readability.js leaves raw
(whitespace, a leading "By", a date-time against our calendar date). The floors are what this
code reached; they keep a change from losing agreement unnoticed.

Print the figures with ``.venv/bin/python -m tests.unit.test_metadata_readability_pages``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from extractor import Metadata, PageSnapshot
from extractor._dates import iso_date
from extractor._metadata import read_metadata
from extractor._parse import parse_html
from tests.conftest import SHARED

CORPUS = SHARED / "corpora" / "readability-test-pages"
PAGE_URL = "http://fakehost/test/page.html"  # where the expected files were made
FLOORS = {
    "title": {"exact": 111, "normalised": 114},
    "byline": {"exact": 98, "normalised": 99},
    "excerpt": {"exact": 69, "normalised": 74},
    "siteName": {"exact": 127, "normalised": 127},
    # Readability.js gives the raw string ("2018-06-12T23:00:00.000Z"), we a calendar date.
    "publishedTime": {"exact": 52, "normalised": 82},
}
"""Pages (of 130) on which each field agrees; measured when the floor was set."""

_BY = re.compile(r"^by\s+", re.IGNORECASE)


def ours(metadata: Metadata) -> dict[str, str | None]:
    return {
        "title": metadata.title,
        "byline": metadata.author,
        "excerpt": metadata.description,
        "siteName": metadata.site_name,
        "publishedTime": metadata.date_published,
    }


def normalise(field: str, value: str | None) -> str | None:
    if not value:
        return None
    if field == "publishedTime":
        return iso_date(value) or value
    value = " ".join(value.split())
    return _BY.sub("", value) if field == "byline" else value


def agreement(corpus: Path = CORPUS) -> tuple[int, dict[str, dict[str, int]]]:
    """(pages, {field: {"exact": n, "normalised": n}}) over every test page."""
    counts = {field: {"exact": 0, "normalised": 0} for field in FLOORS}
    pages = sorted(path for path in corpus.iterdir() if (path / "source.html").is_file())
    for folder in pages:
        expected = json.loads((folder / "expected-metadata.json").read_text(encoding="utf-8"))
        html = (folder / "source.html").read_text(encoding="utf-8")
        found = ours(read_metadata(parse_html(html), PageSnapshot(html=html, url=PAGE_URL)))
        for field in FLOORS:
            want, got = expected.get(field), found[field]
            counts[field]["exact"] += (want or None) == (got or None)
            counts[field]["normalised"] += normalise(field, want) == normalise(field, got)
    return len(pages), counts


@pytest.mark.corpus
def test_agreement_with_readability_js_holds() -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"{CORPUS} is not there")
    pages, counts = agreement()
    assert pages == 130
    below = {
        field: (counts[field][kind], floor)
        for field, floors in FLOORS.items()
        for kind, floor in floors.items()
        if counts[field][kind] < floor
    }
    assert not below, f"agreement fell below its floor (now, floor): {below}"


if __name__ == "__main__":
    total, figures = agreement()
    print(f"metadata agreement with Readability.js on {total} pages (exact / normalised):")
    for name, kinds in figures.items():
        print(f"  {name:<14} {kinds['exact']:>3} / {kinds['normalised']:>3}")
