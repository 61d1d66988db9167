"""The wcxb corpus reader: a corpus with no page is an error, not an empty benchmark."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.corpus.wcxb import load_pages


def test_a_folder_without_ground_truth_is_an_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=re.escape(str(tmp_path))):
        load_pages(tmp_path)


def test_a_page_is_read_with_its_type_and_reference(tmp_path: Path) -> None:
    (tmp_path / "ground-truth").mkdir()
    entry = {
        "url": "https://shop.example/grid",
        "ground_truth": {"main_content": "Two lamps", "with": ["lamps"], "without": None},
        "_internal": {"page_type": {"primary": "category"}},
    }
    (tmp_path / "ground-truth" / "0001.json").write_text(json.dumps(entry), encoding="utf-8")
    [page] = load_pages(tmp_path)
    assert (page.id, page.type, page.reference) == ("0001", "collection", "Two lamps")
    assert page.with_snippets == ("lamps",) and page.without_snippets == ()
    assert page.path == tmp_path / "html" / "0001.html.gz"
