"""RenderOptions' limits (named, defaulted, validated) and the file-size cap of a render."""

from __future__ import annotations

from pathlib import Path

import pytest

from extractor import DEFAULT_MAX_BYTES, InputTooLargeError
from renderer import RenderOptions
from renderer.browser.api import _page_request
from renderer.browser.defences import origin


def test_limits_are_named_options_with_defaults() -> None:
    options = RenderOptions()
    assert options.budget == 15.0
    assert options.max_bytes == DEFAULT_MAX_BYTES
    assert options.max_dom_bytes == DEFAULT_MAX_BYTES
    assert options.max_elements == 50_000
    assert options.max_redirects == 5


@pytest.mark.parametrize(
    "bad",
    [
        {"budget": 0},
        {"max_bytes": 0},
        {"max_dom_bytes": -1},
        {"max_elements": 0},
        {"max_redirects": -1},
    ],
)
def test_nonsense_limits_are_refused(bad: dict[str, float]) -> None:
    name = next(iter(bad))
    with pytest.raises(ValueError, match=f"RenderOptions.{name}"):
        RenderOptions(**bad)


def test_zero_redirects_is_allowed() -> None:
    assert RenderOptions(max_redirects=0).max_redirects == 0


def test_file_over_max_bytes_is_refused_before_the_browser(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_bytes(b"<p>" + b"x" * 2_000 + b"</p>")
    with pytest.raises(InputTooLargeError, match="max_bytes=1,000"):
        _page_request(str(page), url=None, max_bytes=1_000)
    assert _page_request(str(page), url=None, max_bytes=5_000).body == page.read_bytes()


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("http://127.0.0.1:8000/a?b=c", "http://127.0.0.1:8000"),
        ("HTTPS://Example.COM/x", "https://example.com"),
        ("http://127.0.0.1:8001/a", "http://127.0.0.1:8001"),
    ],
)
def test_origin(url: str, expected: str) -> None:
    assert origin(url) == expected
