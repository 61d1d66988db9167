"""Our synthetic fixture pages: word recall/precision floors, boilerplate absent, structure kept.

Each folder of fixtures/pages holds source.html, expected.txt (the article as a reader sees it)
and case.json (URL, phrases that must be present / absent, minimum tag counts). The default
cascade and the fallback scorer alone are both held to the floors: the scorer is the last
resort, so it has to be good on its own.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import lxml.html
import pytest

from extractor import Extraction, ExtractOptions, ScorerStage, extract, word_score
from tests.conftest import FIXTURES

RECALL_FLOOR = 0.90
PRECISION_FLOOR = 0.80
PAGES = sorted(path for path in (FIXTURES / "pages").iterdir() if path.is_dir())

CASCADES = {
    "default": ExtractOptions(),
    "scorer-only": ExtractOptions(stages=(ScorerStage(),)),
}


@dataclass(frozen=True)
class Case:
    folder: Path
    url: str
    expected: str
    present: list[str]
    absent: list[str]
    structure: dict[str, int]
    urls: list[str]
    pre_line: str | None

    @classmethod
    def load(cls, folder: Path) -> Case:
        data = json.loads((folder / "case.json").read_text(encoding="utf-8"))
        return cls(
            folder=folder,
            url=data["url"],
            expected=(folder / "expected.txt").read_text(encoding="utf-8"),
            present=data.get("present", []),
            absent=data.get("absent", []),
            structure=data.get("structure", {}),
            urls=data.get("urls", []),
            pre_line=data.get("pre_line"),
        )

    def extract(self, options: ExtractOptions) -> Extraction:
        return extract((self.folder / "source.html").read_bytes(), url=self.url, options=options)


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def test_there_are_enough_fixture_pages() -> None:
    assert len(PAGES) >= 10
    categories = {page.name.split("--")[0] for page in PAGES}
    assert {
        "sidebar",
        "linkfarm",
        "hidden",
        "korean",
        "relative-urls",
        "whitespace",
        "fragment",
        "flat",
        "comments",
        "chrome",
    } <= categories


@pytest.fixture(scope="module", params=sorted(CASCADES))
def cascade(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.mark.parametrize("folder", PAGES, ids=lambda path: path.name)
def test_word_recall_and_precision_floors(folder: Path, cascade: str) -> None:
    case = Case.load(folder)
    extraction = case.extract(CASCADES[cascade])
    score = word_score(extraction.text, case.expected)
    assert score.recall >= RECALL_FLOOR, f"recall {score.recall:.3f} via {extraction.stage}"
    assert score.precision >= PRECISION_FLOOR, (
        f"precision {score.precision:.3f} via {extraction.stage}"
    )


@pytest.mark.parametrize("folder", PAGES, ids=lambda path: path.name)
def test_named_boilerplate_absent_and_article_present(folder: Path, cascade: str) -> None:
    case = Case.load(folder)
    extraction = case.extract(CASCADES[cascade])
    text, markdown = squash(extraction.text), squash(extraction.markdown)
    title = squash(extraction.metadata.title or "")
    for phrase in case.present:  # the headline is the metadata's title, not the content's
        assert squash(phrase) in text or squash(phrase) == title, f"missing {phrase!r}"
    for phrase in case.absent:
        for output in (text, markdown, squash(extraction.html)):
            assert squash(phrase) not in output, f"boilerplate {phrase!r} leaked"


@pytest.mark.parametrize("folder", PAGES, ids=lambda path: path.name)
def test_structure_is_kept(folder: Path) -> None:
    case = Case.load(folder)
    extraction = case.extract(CASCADES["default"])
    tree = lxml.html.fragment_fromstring(extraction.html, create_parent="div")
    for tag, minimum in case.structure.items():
        found = len(tree.findall(f".//{tag}"))
        assert found >= minimum, f"<{tag}>: {found} < {minimum}"
    for url in case.urls:
        assert url in extraction.html, f"URL {url} not in output"
    if case.pre_line is not None:
        assert case.pre_line in extraction.text.splitlines()
