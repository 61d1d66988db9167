"""Pages that fight back, and the renderer's limits (fixtures/hostile, tests/browser/hostile_server).

Whatever a page does, a capture returns within its budget with a result (saying when it is
partial) or one ReadermodeError, and the same browser still renders the next page. Every page
is served on 127.0.0.1.

No assertion here measures time: how long a capture takes past its budget measures the machine
as much as the renderer. That the budget ended a capture shows in its outcome instead
(``settled_by == "budget"``, BudgetExceededError while the server still holds its answer);
HANG_S only keeps a broken capture from passing after minutes.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from extractor import (
    BudgetExceededError,
    EmptyInputError,
    HTTPStatusError,
    InputTooLargeError,
    LimitExceededError,
    NotHTMLError,
    PageSnapshot,
    ReadermodeError,
    extract,
)
from renderer import Renderer, RenderOptions
from tests.browser.conftest import chromium_tagged, wait_until_gone
from tests.browser.hostile_server import HostileServer
from tests.held import HeldResponse

pytestmark = pytest.mark.browser

BUDGET = 30.0
"""The renderer's budget for pages that must finish: a backstop. They end when they settle (a
few seconds), and a loaded machine must not turn a result into a partial one or an error."""
SPENT_BUDGET = 8.0
"""The budget of pages made to spend all of it (they never settle): long enough for the
article to load first on a loaded machine, short enough not to slow the suite."""
SETTLE_BY_BUDGET = {"/polling.html"}
"""Pages whose settling waits take a share of the budget (the network never goes quiet): they
get SPENT_BUDGET, as a larger budget only makes them wait longer."""
BLOCKED_BUDGET = 4.0
"""The budget of pages that can never finish (a main thread that never yields, an answer the
server holds): any outcome is the budget's, so it can be short."""
HANG_S = 120.0
"""A capture that takes this long is hung, not slow: a backstop, never what a pass depends on."""
ARTICLE = "harbour committee met on Tuesday evening"
READERMODE = Path(sys.executable).with_name("readermode")


@pytest.fixture(scope="module")
def hostile() -> Iterator[HostileServer]:
    server = HostileServer()
    yield server
    server.close()


@pytest.fixture(scope="module")
def other_origin() -> Iterator[HostileServer]:
    """The same routes on another port: another origin."""
    server = HostileServer()
    yield server
    server.close()


@pytest.fixture(scope="module")
def tagged() -> Iterator[Renderer]:
    """One Renderer for every hostile page; its Chromium must be gone once it is closed."""
    tag = uuid.uuid4().hex
    previous = os.environ.get("READERMODE_TEST_TAG")
    os.environ["READERMODE_TEST_TAG"] = tag  # inherited by the Chromium started now
    try:
        renderer = Renderer(RenderOptions(block_private=False, budget=BUDGET))
        renderer.__enter__()
    finally:
        if previous is None:
            del os.environ["READERMODE_TEST_TAG"]
        else:
            os.environ["READERMODE_TEST_TAG"] = previous
    assert chromium_tagged(tag), "the tag finds this renderer's Chromium"
    yield renderer
    renderer.close()
    assert wait_until_gone(lambda: chromium_tagged(tag)), "a Chromium outlived the renderer"


def timed(renderer: Renderer, url: str, **kwargs: object) -> tuple[object, float]:
    """(snapshot or the ReadermodeError raised, seconds taken)."""
    started = time.monotonic()
    try:
        outcome: object = renderer.render(url, **kwargs)
    except ReadermodeError as exc:
        outcome = exc
    return outcome, time.monotonic() - started


def assert_next_page_works(renderer: Renderer, hostile: HostileServer) -> None:
    snapshot = renderer.render(f"{hostile.base}/story.html")
    assert ARTICLE in extract(snapshot).text


# ---- pages that give a result ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "title", "warning"),
    [
        ("/dialogs.html", "Crane page that nags", "dismissed"),
        ("/popups.html", "Crane page that opens windows", None),
        ("/beforeunload.html", "Crane page that will not let go", ""),  # a trap and a loop
        ("/polling.html", "Crane page that never stops fetching", None),
        ("/js-redirect-loop.html", "Crane page that bounces", "max_redirects=5"),
        ("/meta-refresh-loop.html", "Crane page that refreshes", "max_redirects=5"),
        ("/download-trigger.html", "Crane page that downloads", None),
        ("/million.html", "Crane page with a million elements", "max_elements=50,000"),
        ("/nested?depth=5000", "Deeply nested crane page", None),
        ("/deep-script.html?depth=2000", "Crane page nested deep by a script", None),
    ],
)
def test_hostile_page_gives_a_result_within_the_budget(
    tagged: Renderer, hostile: HostileServer, path: str, title: str, warning: str | None
) -> None:
    budget = SPENT_BUDGET if path in SETTLE_BY_BUDGET else BUDGET
    options = RenderOptions(block_private=False, budget=budget)
    snapshot, seconds = timed(tagged, hostile.base + path, options=options)
    assert isinstance(snapshot, PageSnapshot), snapshot
    assert seconds < HANG_S  # backstop only
    extraction = extract(snapshot)
    assert title in (extraction.metadata.title or "") and ARTICLE in extraction.text
    if warning is None:
        assert not any("partial" in note for note in snapshot.warnings), snapshot.warnings
    elif warning:
        assert any(warning in note for note in snapshot.warnings), snapshot.warnings
    if "million" in path:
        assert snapshot.settled_by in ("stable", "budget")
        assert len(snapshot.html.encode()) <= RenderOptions().max_dom_bytes


def test_popups_are_not_opened(tagged: Renderer, hostile: HostileServer) -> None:
    """guard.js: window.open returns null, as behind a popup blocker."""
    snapshot = tagged.render(f"{hostile.base}/popups.html")
    assert not any("window" in note for note in snapshot.warnings)
    assert_next_page_works(tagged, hostile)


def test_script_built_nesting_is_flattened_not_lost(
    tagged: Renderer, hostile: HostileServer
) -> None:
    """2,000 levels built by a script: the snapshot stops nesting at 500 levels and keeps the
    text, so the extractor (recursive in places) reads the deepest words too."""
    extraction = tagged.capture(f"{hostile.base}/deep-script.html?depth=2000")
    assert "Deepest words of the nested crane page" in extraction.text


def test_page_that_never_stops_growing_is_partial(tagged: Renderer, hostile: HostileServer) -> None:
    spent = RenderOptions(block_private=False, budget=SPENT_BUDGET)
    snapshot, seconds = timed(tagged, f"{hostile.base}/growing.html", options=spent)
    assert isinstance(snapshot, PageSnapshot), snapshot
    assert seconds < HANG_S  # backstop only
    assert snapshot.settled_by == "budget" and ARTICLE in snapshot.html
    assert any(note.startswith("partial:") for note in snapshot.warnings)


def test_leaving_for_another_origin_keeps_what_was_captured(
    tagged: Renderer, hostile: HostileServer, other_origin: HostileServer
) -> None:
    url = f"{hostile.base}/leaves.html?to={other_origin.base}/elsewhere.html"
    snapshot, seconds = timed(tagged, url)
    assert isinstance(snapshot, PageSnapshot), snapshot
    assert seconds < HANG_S  # backstop only
    extraction = extract(snapshot)
    assert extraction.metadata.title == "Crane page that leaves for elsewhere"
    assert "Somewhere else entirely" not in extraction.text
    assert urlsplit(snapshot.final_url or "").port == urlsplit(hostile.base).port
    assert any(other_origin.base in note for note in snapshot.warnings), snapshot.warnings


def test_same_origin_navigation_is_followed(tagged: Renderer, hostile: HostileServer) -> None:
    """The other side of the origin rule: a page moving within its own site is followed."""
    snapshot = tagged.render(f"{hostile.base}/leaves.html?to={hostile.base}/elsewhere.html")
    assert extract(snapshot).metadata.title == "Somewhere else entirely"
    assert not any("stayed on" in note for note in snapshot.warnings), snapshot.warnings


# ---- pages that end in one error ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "error", "fragment"),
    [
        ("/huge?mb=50", InputTooLargeError, "max_bytes=5,000,000"),
        ("/huge?mb=50&chunked=1", InputTooLargeError, "max_bytes=5,000,000"),
        ("/redirect?n=6", LimitExceededError, "max_redirects=5"),
        ("/redirect-loop", LimitExceededError, "max_redirects=5"),
        ("/status/404", HTTPStatusError, "HTTP 404"),
        ("/status/500", HTTPStatusError, "HTTP 500"),
        # full Chromium opens its PDF viewer; the headless shell has none and downloads it
        ("/file.pdf", NotHTMLError, "application/pdf|download"),
        ("/image.png", NotHTMLError, "image/png"),
        ("/data.json", NotHTMLError, "application/json"),
        ("/attachment", NotHTMLError, "download"),
        ("/empty", EmptyInputError, "empty"),
        ("/held", BudgetExceededError, "budget"),  # the server answers after the test
    ],
)
def test_hostile_page_ends_in_one_error(
    tagged: Renderer, hostile: HostileServer, path: str, error: type, fragment: str
) -> None:
    # /held never answers while the test runs: a short budget is as good as a long one.
    budget = BLOCKED_BUDGET if path == "/held" else BUDGET
    outcome, seconds = timed(
        tagged, hostile.base + path, options=RenderOptions(block_private=False, budget=budget)
    )
    assert isinstance(outcome, error), outcome
    assert any(part in str(outcome) for part in fragment.split("|")), outcome
    assert "\n" not in str(outcome)
    assert seconds < HANG_S  # backstop only
    if path.startswith(("/huge", "/deep-script", "/held")):
        assert_next_page_works(tagged, hostile)


def test_stalled_parser_is_read_from_the_served_document(
    tagged: Renderer, hostile: HostileServer
) -> None:
    """A script that never arrives stops the parser half way: the DOM holds the first paragraph
    only, so the extractor reads the document as served instead, and says so."""
    spent = RenderOptions(block_private=False, budget=SPENT_BUDGET)  # it waits for most of it
    snapshot = tagged.render(hostile.base + "/stalled-parser.html", options=spent)
    assert any("no DOMContentLoaded" in warning for warning in snapshot.warnings)
    assert "The last paragraph says" not in snapshot.html
    assert snapshot.source_html and "The last paragraph says" in snapshot.source_html
    result = extract(snapshot)
    assert "first time since the lamps" in result.text and "The last paragraph says" in result.text
    assert result.trace[-1].name == "served-document"
    assert_next_page_works(tagged, hostile)


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("/infinite-loop.html", None),  # frozen after load: a snapshot may come first
        ("/million-visible.html", None),  # busy laying out for a minute: the same
        ("/frozen-during-load.html", "main thread did not answer"),
        ("/deep-script.html?depth=5000", "tab crashed"),
        # its layout may still be busy when the budget ends, on a loaded machine: either way
        ("/crash-deep-thread.html", "tab crashed|main thread did not answer"),
    ],
)
def test_a_failed_browser_side_still_gives_the_served_article(
    tagged: Renderer, hostile: HostileServer, path: str, reason: str | None
) -> None:
    """A frozen main thread or a crashed tab gives nothing to snapshot: the document as served
    holds the article, so it is read instead, flagged partial with the reason. page.evaluate
    cannot return from the frozen pages, yet the capture ends in time."""
    blocked = RenderOptions(block_private=False, budget=BLOCKED_BUDGET)
    outcome, seconds = timed(tagged, hostile.base + path, options=blocked)
    assert seconds < HANG_S  # backstop only
    assert isinstance(outcome, PageSnapshot), outcome
    partial = [warning for warning in outcome.warnings if warning.startswith("partial:")]
    assert partial, outcome.warnings
    if reason is not None:
        assert outcome.settled_by == "served" and outcome.html == ""
        assert any(part in partial[-1] for part in reason.split("|")), partial
        assert "as served" in partial[-1]
    result = extract(outcome)
    assert ARTICLE in result.text and "plaque with the names" in result.text
    if outcome.settled_by == "served":
        assert result.trace[-1].name == "served-document"
    assert_next_page_works(tagged, hostile)


def test_a_trickling_body_is_read_as_far_as_it_came(
    tagged: Renderer, hostile: HostileServer
) -> None:
    """The article at once, then a comment a second with no Content-Length: ``load`` never
    fires while the budget lasts, yet the article is read, flagged partial."""
    spent = RenderOptions(block_private=False, budget=SPENT_BUDGET)
    outcome, seconds = timed(tagged, hostile.base + "/trickle?n=600", options=spent)
    assert seconds < HANG_S  # backstop only
    assert isinstance(outcome, PageSnapshot), outcome
    assert any("no DOMContentLoaded" in warning for warning in outcome.warnings)
    result = extract(outcome)
    assert ARTICLE in result.text and "plaque with the names" in result.text
    assert_next_page_works(tagged, hostile)


def test_loaded_pages_carry_no_served_copy(tagged: Renderer, hostile: HostileServer) -> None:
    assert tagged.render(hostile.base + "/story.html").source_html is None


def test_utf8_with_invalid_sequences_renders_as_utf8(
    tagged: Renderer, hostile: HostileServer
) -> None:
    """The document decoder keeps UTF-8 for a page with five broken sequences, as Chromium's own
    decoder would: replacement characters there, every accent intact elsewhere."""
    result = extract(tagged.render(hostile.base + "/invalid-utf8.html"))
    assert "Le marché couvert" in result.text and "n’arriverait jamais" in result.text
    assert "Ã" not in result.text and "\ufffd" in result.text


# ---- limits: both sides of each cap ------------------------------------------------------------


@pytest.mark.parametrize("chunked", ["0", "1"])
def test_max_bytes(tagged: Renderer, hostile: HostileServer, chunked: str) -> None:
    url = f"{hostile.base}/huge?mb=0.1&chunked={chunked}"
    with pytest.raises(InputTooLargeError, match="max_bytes=50,000"):
        tagged.render(
            url, options=RenderOptions(block_private=False, budget=BUDGET, max_bytes=50_000)
        )
    snapshot = tagged.render(
        url, options=RenderOptions(block_private=False, budget=BUDGET, max_bytes=200_000)
    )
    assert ARTICLE in snapshot.html


def test_max_bytes_keyword_overrides_the_option(tagged: Renderer, hostile: HostileServer) -> None:
    with pytest.raises(InputTooLargeError, match="max_bytes=50,000"):
        tagged.render(f"{hostile.base}/big?kb=100", max_bytes=50_000)


def test_max_dom_bytes(tagged: Renderer, hostile: HostileServer) -> None:
    url = f"{hostile.base}/big?kb=100"
    capped = tagged.render(
        url, options=RenderOptions(block_private=False, budget=BUDGET, max_dom_bytes=20_000)
    )
    assert len(capped.html.encode()) <= 20_000
    assert capped.html.rstrip().endswith("</html>")
    assert any("max_dom_bytes=20,000" in note for note in capped.warnings), capped.warnings
    assert ARTICLE in extract(capped).text  # the article came first: still read
    full = tagged.render(url)
    assert len(full.html.encode()) > 100_000
    assert not any("max_dom_bytes" in note for note in full.warnings)


def test_max_elements(tagged: Renderer, hostile: HostileServer) -> None:
    url = f"{hostile.base}/big?kb=100"
    capped = tagged.render(
        url, options=RenderOptions(block_private=False, budget=BUDGET, max_elements=100)
    )
    assert any("max_elements=100 " in note for note in capped.warnings), capped.warnings
    assert ARTICLE in extract(capped).text
    full = tagged.render(
        url, options=RenderOptions(block_private=False, budget=BUDGET, max_elements=5_000)
    )
    assert not any("max_elements" in note for note in full.warnings)
    assert full.html.count("<p>") > capped.html.count("<p>")


def test_max_redirects_http(tagged: Renderer, hostile: HostileServer) -> None:
    url = f"{hostile.base}/redirect?n=2"
    with pytest.raises(LimitExceededError, match="max_redirects=1") as raised:
        tagged.render(
            url, options=RenderOptions(block_private=False, budget=BUDGET, max_redirects=1)
        )
    assert raised.value.option == "max_redirects" and raised.value.exit_code == 17
    snapshot = tagged.render(
        url, options=RenderOptions(block_private=False, budget=BUDGET, max_redirects=2)
    )
    assert snapshot.final_url == f"{hostile.base}/story.html"


def test_max_redirects_page_navigations(tagged: Renderer, hostile: HostileServer) -> None:
    url = f"{hostile.base}/leaves.html?to={hostile.base}/elsewhere.html"
    stopped = tagged.render(
        url, options=RenderOptions(block_private=False, budget=BUDGET, max_redirects=0)
    )
    assert any("max_redirects=0" in note for note in stopped.warnings), stopped.warnings
    assert "Crane page that leaves" in (extract(stopped).metadata.title or "")


def test_budget(tagged: Renderer, hostile: HostileServer) -> None:
    """A held answer: the 5 s budget ends the capture while the server still holds it. Then
    a held answer released once it was asked for is read (60 s budget: a backstop)."""
    kept = hostile.held  # /held of the other tests: held until the server closes
    hostile.held = held = HeldResponse()
    try:
        with pytest.raises(BudgetExceededError, match="5 s budget"):
            tagged.render(
                f"{hostile.base}/held", options=RenderOptions(block_private=False, budget=5.0)
            )
        assert held.arrived.is_set(), "the request reached the server: its answer was cut"
    finally:
        held.release()
    hostile.held = late = HeldResponse()
    releaser = threading.Thread(target=lambda: late.wait_arrived() and late.release(), daemon=True)
    releaser.start()
    try:
        snapshot = tagged.render(
            f"{hostile.base}/held", options=RenderOptions(block_private=False, budget=60.0)
        )
    finally:
        late.release()
        hostile.held = kept
    assert late.arrived.is_set() and ARTICLE in snapshot.html


# ---- the command line --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "error"),
    [
        ("/huge?mb=50", InputTooLargeError),
        ("/redirect-loop", LimitExceededError),
        ("/empty", EmptyInputError),
        ("/file.pdf", NotHTMLError),
    ],
)
def test_cli_one_line_error_and_exit_code(
    hostile: HostileServer, path: str, error: type[ReadermodeError]
) -> None:
    tag = uuid.uuid4().hex
    result = subprocess.run(
        [str(READERMODE), hostile.base + path, "--timeout", "30"],  # a backstop
        env={**os.environ, "READERMODE_TEST_TAG": tag},
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert result.returncode == error.exit_code, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert wait_until_gone(lambda: chromium_tagged(tag)), "the CLI left a Chromium running"
