"""What the in-page snapshot could not do reaches the capture's warnings (a real Chromium)."""

from __future__ import annotations

from pathlib import Path

import pytest

from renderer import Renderer, RenderOptions

pytestmark = pytest.mark.browser

TRAPPED_HEAD = """<!DOCTYPE html><html><head><title>Trap</title></head><body>
<article><h1>Trap</h1><p>This article has enough words in it to be read by the cascade.</p>
<p hidden>Words a reader cannot see.</p></article>
<script>
Object.defineProperty(document, "head", { get() { throw new Error("document.head is a trap"); } });
</script></body></html>"""


def test_a_page_that_breaks_the_snapshot_walk_is_read_with_a_warning(
    renderer: Renderer, tmp_path: Path
) -> None:
    """The walk fails, snapshot.js falls back to the page's plain markup (hidden text and
    all), and the capture says so instead of passing the unfiltered page off as filtered."""
    page = tmp_path / "trap.html"
    page.write_text(TRAPPED_HEAD, encoding="utf-8")
    snapshot = renderer.render(
        str(page),
        url="http://127.0.0.1:9/trap",
        options=RenderOptions(block_private=False, offline=True, budget=20.0),
    )
    assert "Words a reader cannot see." in snapshot.html  # the unfiltered fallback
    (warning,) = [w for w in snapshot.warnings if "snapshot walk failed" in w]
    assert "document.head is a trap" in warning
