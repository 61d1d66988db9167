"""The page pool (renderer/browser/pool.py): captures start on contexts opened ahead, no state
crosses from one capture to the next, at most ``max_pages`` run at once, and closing leaves no
context open."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

import pytest
from playwright.async_api import Request

from extractor import extract
from renderer import AsyncRenderer, RenderOptions
from renderer.browser.defences import PageDefences
from renderer.browser.inpage import MISSING, call_expression
from renderer.browser.offline import MAX_REFUSED_IN_BROWSER
from renderer.browser.pool import Tab
from renderer.browser.session import Deadline, PageSession

pytestmark = pytest.mark.browser

T = TypeVar("T")
OPTIONS = RenderOptions(block_private=False, budget=30)
URL = "http://pool.readermode.localhost/story.html"
STORY = " ".join(
    f"Sentence {n} of the pooled story tells of the ferry, the pier and the harbour master."
    for n in range(40)
)
# Each capture says what the previous one left behind in this origin's storage and cookies.
REMEMBERING_PAGE = f"""<!doctype html><title>Pooled story</title><body><article>
<h1>Pooled story</h1><p id="memory"></p><p>{STORY}</p></article>
<script>
const before = (localStorage.getItem("visited") || "nothing stored") + ", " +
  (document.cookie.includes("visited=") ? "a cookie" : "no cookie");
localStorage.setItem("visited", "a visit stored");
document.cookie = "visited=1; path=/";
document.getElementById("memory").textContent = "The page found " + before + " from before.";
</script>"""


def run(coroutine_function: Callable[[], Awaitable[T]]) -> T:
    """On a thread of its own: pytest-playwright keeps an event loop in the main thread."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine_function()).result(timeout=600)  # type: ignore[arg-type]


def test_captures_start_on_spares_and_share_no_state(tmp_path: Path) -> None:
    page = tmp_path / "story.html"
    page.write_text(REMEMBERING_PAGE, encoding="utf-8")

    async def two_captures() -> tuple[list[str], int, int]:
        async with AsyncRenderer(OPTIONS) as renderer:
            texts = [
                extract(await renderer.render(str(page), url=URL, options=OPTIONS)).text
                for _ in range(2)
            ]
            assert renderer._pool is not None
            return texts, renderer._pool.from_spares, renderer._pool.opened

    texts, from_spares, opened = run(two_captures)
    for text in texts:
        assert "The page found nothing stored, no cookie from before." in text
    assert from_spares == 1  # the second capture was given the spare the first one opened
    assert opened == 3  # two used, one spare left open for a third


def test_at_most_max_pages_at_once_and_nothing_left_open(tmp_path: Path) -> None:
    async def scenario() -> tuple[bool, int, int]:
        async with AsyncRenderer(OPTIONS, max_pages=1) as renderer:
            pool = renderer._pool
            handle = renderer._handle
            assert pool is not None and handle is not None
            second_entered = asyncio.Event()

            async def second() -> None:
                async with pool.tab():
                    second_entered.set()

            async with pool.tab():
                waiter = asyncio.ensure_future(second())
                for _ in range(100_000):  # the second capture reaches the pool's bound ...
                    if pool.waiting or second_entered.is_set():
                        break
                    await asyncio.sleep(0)
                entered_while_full = second_entered.is_set() or not pool.waiting
            await waiter  # ... and gets its slot once the first one is done
            await pool.close()
            await asyncio.gather(*handle._closing)
            return entered_while_full, len(handle.browser.contexts), pool.opened

    entered_while_full, open_contexts, opened = run(scenario)
    assert not entered_while_full
    assert open_contexts == 0
    assert opened >= 2


def test_a_closed_pool_opens_nothing() -> None:
    async def scenario() -> str:
        async with AsyncRenderer(OPTIONS) as renderer:
            assert renderer._pool is not None
            await renderer._pool.close()
            try:
                async with renderer._pool.tab():
                    return "opened"
            except RuntimeError as exc:
                return str(exc)

    assert run(scenario) == "the page pool is closed"


def test_the_next_context_is_opened_once_the_page_has_loaded(tmp_path: Path) -> None:
    """Opening a context while a page loads slowed that load: the spare for the next capture
    is asked for once the page is in (none is on its way while its document is fetched), and
    is there for the next capture."""
    page = tmp_path / "story.html"
    page.write_text(REMEMBERING_PAGE, encoding="utf-8")

    async def capture() -> tuple[list[int], int]:
        async with AsyncRenderer(OPTIONS) as renderer:
            await renderer.start()
            pool = renderer._pool
            assert pool is not None
            on_the_way: list[int] = []
            original = pool._take

            async def take() -> object:
                tab = await original()
                on_the_way.append(len(pool._ready))  # as the capture starts to load
                return tab

            pool._take = take  # type: ignore[method-assign]
            await renderer.render(str(page), url=URL, options=OPTIONS)
            await renderer.render(str(page), url=URL, options=OPTIONS)
            return on_the_way, pool.from_spares

    on_the_way, from_spares = run(capture)
    assert on_the_way == [0, 0]
    assert from_spares == 1


def test_a_document_without_our_functions_is_sent_their_source() -> None:
    """Captures call our in-page functions by name (defined by an init script of the pool's
    contexts); a document they are missing from is sent their source and answers the same."""

    async def scenario() -> tuple[object, dict[str, object], dict[str, object]]:
        async with AsyncRenderer(OPTIONS) as renderer:
            await renderer.start()
            assert renderer._handle is not None
            context = await renderer._handle.browser.new_context()  # no init scripts
            try:
                page = await context.new_page()
                await page.set_content(f"<article><p>{STORY}</p></article>")
                session = PageSession(
                    page, Deadline(30.0), PageDefences(context, page, OPTIONS, "about:blank")
                )
                by_name = await session.evaluate(call_expression("settle"), {"action": "quiet"})
                state = await session.call("settle", {"action": "quiet", "maxReveal": 1})
                snap = await session.call("snapshot", {"hiddenAttribute": "data-h"})
                return by_name, state, snap
            finally:
                await context.close()

    by_name, state, snap = run(scenario)
    assert by_name == MISSING
    assert state["readyState"] == "complete" and "idle" in state
    assert "Sentence 39 of the pooled story" in str(snap["html"])


STATIC_PAGE = REMEMBERING_PAGE.replace(
    "</article>",
    '</article><script src="/app.js"></script><link rel="stylesheet" href="/site.css?v=2">'
    '<img src="https://cdn.example/photo.jpg" alt=""><img src="/pixel" alt="">',
)


def render_watching(page: Path, options: RenderOptions, watch: Callable[[Tab], None]) -> str:
    """The text of ``page`` rendered at ``URL``; ``watch`` is handed the capture's tab before
    the page loads (to listen to its requests)."""

    async def capture() -> str:
        async with AsyncRenderer(options) as renderer:
            await renderer.start()
            pool = renderer._pool
            assert pool is not None
            original = pool._take

            async def take() -> Tab:
                tab = await original()
                watch(tab)
                return tab

            pool._take = take  # type: ignore[method-assign]
            return extract(await renderer.render(str(page), url=URL, options=options)).text

    return run(capture)


@pytest.mark.parametrize("offline", [True, False])
def test_an_offline_page_from_memory_has_its_static_requests_refused_by_chromium(
    tmp_path: Path, offline: bool
) -> None:
    """Offline, a page served from memory is the only main document that can load: the
    scripts, style sheets and images it asks for by name are refused by Chromium on the tab's
    blocked URL patterns, never routed through Python; a request without such a name still
    is. Online, every request is routed."""
    page = tmp_path / "story.html"
    page.write_text(STATIC_PAGE, encoding="utf-8")
    options = RenderOptions(block_private=False, budget=30, offline=offline)

    failures: dict[str, str] = {}

    def watch(tab: Tab) -> None:
        tab.page.on("requestfailed", lambda r: failures.update({r.url: r.failure or ""}))

    text = render_watching(page, options, watch)
    assert "Sentence 39 of the pooled story" in text
    static = (
        "http://pool.readermode.localhost/app.js",
        "http://pool.readermode.localhost/site.css?v=2",
        "https://cdn.example/photo.jpg",
    )
    in_browser = {url for url, failure in failures.items() if failure == "inspector"}
    if offline:
        assert set(static) <= in_browser  # refused by Chromium, never routed
        # no file name to go by: refused by the route chain
        assert "ERR_BLOCKED_BY_CLIENT" in failures["http://pool.readermode.localhost/pixel"]
    else:
        assert not in_browser


def test_an_offline_page_served_at_a_static_name_is_still_served(tmp_path: Path) -> None:
    """A page served from memory at an address the blocked patterns match (``/story.js``) is
    still asked for through the route chain: Chromium leaves navigations out of them."""
    page = tmp_path / "story.html"
    page.write_text(STATIC_PAGE, encoding="utf-8")
    options = RenderOptions(block_private=False, budget=30, offline=True)

    async def capture() -> str:
        async with AsyncRenderer(options) as renderer:
            url = "http://pool.readermode.localhost/story.js"
            return extract(await renderer.render(str(page), url=url, options=options)).text

    assert "Sentence 39 of the pooled story" in run(capture)


RETRYING_PAGE = REMEMBERING_PAGE.replace(
    "</article>",
    """</article><script>
window.keepTrying = true;  // until the test has seen a refusal by a route
let tries = 0;
const load = () => {
  if (!window.keepTrying) return;
  tries++;
  const script = document.createElement("script");
  script.src = "/widget.js?try=" + tries;
  script.onerror = load;  // asks again on every error, as some loaders do
  document.head.appendChild(script);
};
load();
</script>""",
)


def test_chromium_stops_refusing_for_a_page_that_asks_again_on_every_error(
    tmp_path: Path,
) -> None:
    """Refused in the browser, a script that asks again on every error spins as fast as the
    refusals come; past ``MAX_REFUSED_IN_BROWSER`` the patterns are lifted and the rest go
    through the route chain, each refusal a trip through Python."""
    page = tmp_path / "story.html"
    page.write_text(RETRYING_PAGE, encoding="utf-8")
    options = RenderOptions(block_private=False, budget=30, offline=True)

    kinds = {"in browser": 0, "by a route": 0}

    def watch(tab: Tab) -> None:
        def failed(request: Request) -> None:
            if "widget.js" not in request.url:
                return
            kind = "in browser" if request.failure == "inspector" else "by a route"
            kinds[kind] += 1
            if kind == "by a route" and kinds[kind] == 1:  # the patterns were lifted
                stop = asyncio.ensure_future(tab.page.evaluate("window.keepTrying = false"))
                stop.add_done_callback(lambda done: done.exception())

        tab.page.on("requestfailed", failed)

    text = render_watching(page, options, watch)
    assert "Sentence 39 of the pooled story" in text
    # (how many more were refused in the browser while the lift was on its way depends on
    # how far the page's loop ran ahead of the events: hundreds on a busy machine)
    assert kinds["in browser"] >= MAX_REFUSED_IN_BROWSER
    assert kinds["by a route"] > 0  # lifted: the rest went through the route chain
