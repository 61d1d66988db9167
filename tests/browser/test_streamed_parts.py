"""A React-streamed page whose scripts never moved its parts in (its runtime refused offline,
or failed) is read with the parts where they go: the snapshot keeps React's empty boundary
and placeholder templates and its Suspense boundary comments (``snapshot.js``), and the
extractor places the hidden parts in place of their fallbacks (``extractor/_streaming.py``)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from extractor._parse import parse_html
from renderer import AsyncRenderer, RenderOptions

pytestmark = pytest.mark.browser

OPTIONS = RenderOptions(block_private=False, budget=30, offline=True)
URL = "http://streamed.readermode.localhost/bridge"
REPORT = "".join(
    f"<p>Part {n} of the streamed report explains how engineers inspected the old river "
    "crossing, which cables had corroded and what the repair will cost the town.</p>"
    for n in range(8)
)
# The runtime that would define $RC comes from a script the offline capture refuses, so the
# inline call throws and the parts stay hidden at the end of the body, as on a failed load.
PAGE = f"""<!doctype html><title>The bridge | Kelvik Courier</title>
<script src="/_next/static/runtime.js"></script><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav>
<main><h1>The bridge</h1><!--$?--><template id="B:0"></template><p>Loading the report</p><!--/$-->
<aside>Related: <template id="P:1"></template></aside></main>
<footer>Kelvik Courier, all rights kept.</footer>
<div hidden id="S:0">{REPORT}</div><script>$RC("B:0","S:0")</script>
<div hidden id="S:1"><a href="/ferry">The ferry timetable</a></div><script>$RS("S:1","P:1")</script>
</body>"""


def test_a_page_whose_streamed_parts_were_never_moved_in_is_read_with_them(
    tmp_path: Path,
) -> None:
    page = tmp_path / "bridge.html"
    page.write_text(PAGE, encoding="utf-8")

    async def render() -> tuple[str, str]:
        async with AsyncRenderer(OPTIONS) as renderer:
            snapshot = await renderer.render(str(page), url=URL, options=OPTIONS)
            extraction = await renderer.capture(str(page), url=URL, options=OPTIONS)
            return snapshot.html, extraction.text

    with ThreadPoolExecutor(1) as pool:
        html, text = pool.submit(asyncio.run, render()).result(timeout=600)
    assert '<template id="B:0"></template>' in html  # the slots, empty, not their fallbacks
    main = parse_html(html).find(".//main")
    assert main is not None
    placed = main.text_content()
    assert "Part 0 of the streamed report" in placed and "The ferry timetable" in placed
    assert placed.index("The bridge") < placed.index("Part 0") < placed.index("ferry timetable")
    assert "Loading the report" not in placed  # the boundary's fallback, which the part replaces
    assert "Part 7 of the streamed report" in text
