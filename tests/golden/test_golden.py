"""Golden outputs: every fixture page's Markdown, text, HTML and JSON, byte for byte.

A missing expected file fails. Rewriting them is explicit: ``./scripts/test --update-golden``,
then review the diff before committing it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extractor import extract
from tests.conftest import FIXTURES

PAGES = sorted(path for path in (FIXTURES / "pages").iterdir() if path.is_dir())
FORMATS = {"md": "markdown", "txt": "text", "html": "html", "json": "json"}


def rendered(folder: Path, fmt: str) -> str:
    case = json.loads((folder / "case.json").read_text(encoding="utf-8"))
    extraction = extract((folder / "source.html").read_bytes(), url=case["url"])
    if fmt != "json":
        return getattr(extraction, fmt)
    data = extraction.to_dict()
    for entry in data["trace"]:
        entry.pop("ms", None)  # timings differ run to run
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


@pytest.mark.parametrize("suffix", sorted(FORMATS))
@pytest.mark.parametrize("folder", PAGES, ids=lambda path: path.name)
def test_golden_output(folder: Path, suffix: str, request: pytest.FixtureRequest) -> None:
    expected_file = folder / f"golden.{suffix}"
    actual = rendered(folder, FORMATS[suffix])
    if request.config.getoption("--update-golden"):
        expected_file.write_text(actual, encoding="utf-8")
        return
    assert expected_file.exists(), (
        f"{expected_file} missing: run ./scripts/test --update-golden and review"
    )
    assert actual == expected_file.read_text(encoding="utf-8"), (
        f"{expected_file.name} differs; if the change is intended, run "
        "./scripts/test --update-golden and review the diff"
    )
