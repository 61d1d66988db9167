"""The evidence that lets a capture skip its fixed quiet windows: ``observe.js`` records what a
page has scheduled, ``settle.js``'s ``quiet`` action reports ``idle`` only when nothing is.

Each scheduler is checked inside one evaluation (schedule, ask, cancel, ask again), so no test
depends on how fast the machine runs the page. Pages come from memory; nothing leaves it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, Route

from renderer import Renderer, RenderOptions
from renderer.browser.session import PageSession

pytestmark = pytest.mark.browser

JS = Path(__file__).resolve().parents[2] / "renderer" / "browser" / "js"
ORIGIN = "http://readermode.test"
ARTICLE = "<article><h1>Harbour</h1>" + "<p>The ferry left the harbour at dawn.</p>" * 12
PAGES = {
    "/": f"<!doctype html><title>Still</title><body>{ARTICLE}</body>",
    "/framed": f'<!doctype html><title>Framed</title><body>{ARTICLE}<iframe src="/child"></iframe>',
    "/child": "<!doctype html><body><p>inner</p><script>window.tick = setTimeout(() => {}, 1000);"
    "</script>",
    "/long-read": "<!doctype html><title>Long read</title><body><article>"
    + "<p>The ferry left the harbour at dawn, as it had every morning since the pier was rebuilt,"
    " and the harbour master wrote its name, its load and the height of the tide in his book.</p>"
    * 6
    + "</article>",
    "/fade-in": "<!doctype html><style>@keyframes show{from{opacity:0}to{opacity:1}}"
    f"article{{animation:show 60s linear}}</style><body>{ARTICLE}",
    "/spinner": "<!doctype html><style>@keyframes spin{to{transform:rotate(1turn)}}"
    f"#s{{animation:spin 1s linear infinite;width:9px;height:9px}}</style><body>{ARTICLE}"
    "<div id=s></div>",
}

# One evaluation: ``quiet`` while the work is scheduled, then once it is cancelled.
SCHEDULED = """async ([settleSource, schedule, cancel]) => {
  const settle = eval(settleSource);
  const idle = () => settle({action: "quiet"}).idle;
  const id = eval(schedule);
  const whileScheduled = idle();
  eval(cancel);
  return [whileScheduled, idle()];
}"""


@pytest.fixture()
def loaded(page: Page) -> Page:
    page.add_init_script(path=str(JS / "observe.js"))

    def answer(route: Route) -> None:
        path = "/" + route.request.url.removeprefix(ORIGIN).lstrip("/")
        if path in PAGES:
            route.fulfill(body=PAGES[path], content_type="text/html; charset=utf-8")
        else:
            route.abort()

    page.route("**/*", answer)
    return page


def _quiet(page: Page) -> dict:
    return page.evaluate(f"({(JS / 'settle.js').read_text()})({{action: 'quiet'}})")


def test_a_loaded_still_page_is_idle(loaded: Page) -> None:
    loaded.goto(ORIGIN + "/", wait_until="load")
    assert _quiet(loaded)["idle"] is True


@pytest.mark.parametrize(
    ("schedule", "cancel"),
    [
        ("setTimeout(() => {}, 4000)", "clearTimeout(id)"),
        ("setTimeout(() => {}, 5)", "clearTimeout(id)"),  # short hops of a chain count too
        ("requestAnimationFrame(() => {})", "cancelAnimationFrame(id)"),
        ("requestIdleCallback(() => {})", "cancelIdleCallback(id)"),
        # not run yet: it may be what writes the page (the first tick can come after the first
        # snapshot on a loaded machine, even at 20 ms)
        ("setInterval(() => {}, 20)", "clearInterval(id)"),
        ("setInterval(() => {}, 1000)", "clearInterval(id)"),
    ],
    ids=["timeout", "short-timeout", "animation-frame", "idle-callback", "interval", "1s-interval"],
)
def test_scheduled_work_is_not_idle(loaded: Page, schedule: str, cancel: str) -> None:
    loaded.goto(ORIGIN + "/", wait_until="load")
    settle = (JS / "settle.js").read_text()
    assert loaded.evaluate(SCHEDULED, [settle, schedule, cancel]) == [False, True]


# An interval is work once it has changed content (a clock, a ticker, a renderer in chunks),
# not while it only ticks (a heartbeat, a poller that found nothing yet). The page resolves a
# promise from the interval's first run.
INTERVAL = """async ([settleSource, body]) => {
  const settle = eval(settleSource);
  const idle = () => settle({action: "quiet"}).idle;
  let ran;
  const first = new Promise((done) => (ran = done));
  const id = setInterval(() => { eval(body); ran(); }, 100);
  await first;
  const afterFirstRun = idle();
  clearInterval(id);
  return [afterFirstRun, idle()];
}"""


@pytest.mark.parametrize(
    ("body", "idle_while_it_runs"),
    [
        ("document.querySelector('p').textContent = 'tick ' + Date.now()", False),
        ("document.body.classList.toggle('slide')", True),  # attributes only: a carousel
        ("window.beats = (window.beats || 0) + 1", True),
    ],
    ids=["changes-text", "toggles-a-class", "heartbeat"],
)
def test_an_interval_is_work_once_it_changed_content(
    loaded: Page, body: str, idle_while_it_runs: bool
) -> None:
    loaded.goto(ORIGIN + "/", wait_until="load")
    settle = (JS / "settle.js").read_text()
    assert loaded.evaluate(INTERVAL, [settle, body]) == [idle_while_it_runs, True]


def test_a_long_interval_not_run_yet_is_no_work(loaded: Page) -> None:
    # A heartbeat every 30 s (analytics, a session ping) is not waited for.
    loaded.goto(ORIGIN + "/", wait_until="load")
    settle = (JS / "settle.js").read_text()
    interval = ["setInterval(() => {}, 30000)", "clearInterval(id)"]
    assert loaded.evaluate(SCHEDULED, [settle, *interval]) == [True, True]


# A scroll step between two others adds a reading pane that scrolls on its own: the steps keep
# the scrollers they found while the DOM is unchanged, and must find the new one.
PANE_ADDED = """async ([settleSource]) => {
  const settle = eval(settleSource);
  await settle({action: "step"});
  const pane = document.createElement("div");
  pane.style.cssText = "height: 90vh; overflow: auto";
  pane.innerHTML = "<div style='height: 5000px'>a long reading pane</div>";
  document.body.prepend(pane);
  await new Promise((done) => setTimeout(done, 0));  // the mutation records delivered
  await settle({action: "step"});
  return pane.scrollTop;
}"""


def test_a_scroll_pane_added_between_steps_is_scrolled(loaded: Page) -> None:
    loaded.goto(ORIGIN + "/", wait_until="load")
    assert loaded.evaluate(PANE_ADDED, [(JS / "settle.js").read_text()]) > 0


def test_work_that_ran_is_no_longer_counted(loaded: Page) -> None:
    loaded.goto(ORIGIN + "/", wait_until="load")
    # each resolves only once its callback has run
    loaded.evaluate("new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)))")
    loaded.evaluate("new Promise((done) => requestIdleCallback(() => done()))")
    assert _quiet(loaded)["idle"] is True


def test_a_running_animation_is_not_idle(loaded: Page) -> None:
    """An animation that will end (content fading in) is work still to come."""
    loaded.goto(ORIGIN + "/fade-in", wait_until="load")
    assert _quiet(loaded)["idle"] is False
    loaded.evaluate("document.querySelector('article').style.animation = 'none'")
    assert _quiet(loaded)["idle"] is True


def test_an_animation_that_repeats_forever_is_no_work(loaded: Page) -> None:
    """A spinner never ends: waiting for it would spend the budget for nothing."""
    loaded.goto(ORIGIN + "/spinner", wait_until="load")
    assert loaded.evaluate("document.getAnimations()[0].playState") == "running"
    state = _quiet(loaded)
    assert state["idle"] is True and state["still"] is True


def test_a_same_origin_frame_with_work_keeps_the_page_busy(loaded: Page) -> None:
    loaded.goto(ORIGIN + "/framed", wait_until="load")
    assert _quiet(loaded)["idle"] is False
    loaded.frames[1].evaluate("clearTimeout(window.tick)")
    assert _quiet(loaded)["idle"] is True


# A message posted to the page's own MessageChannel keeps it busy until the message is a
# while old (the page waits for a timer it controls to fire past that while).
MESSAGED = """async (settleSource) => {
  const settle = eval(settleSource);
  const idle = () => settle({action: "quiet"}).idle;
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {};
  channel.port2.postMessage("yield");
  const whilePosted = idle();
  await new Promise((done) => setTimeout(done, 200));
  return [whilePosted, idle()];
}"""

POSTED_TASK = """async (settleSource) => {
  const settle = eval(settleSource);
  const idle = () => settle({action: "quiet"}).idle;
  const control = new AbortController();
  const task = scheduler.postTask(() => {}, {delay: 60000, signal: control.signal});
  const whilePending = idle();
  control.abort();
  await task.catch(() => {});
  await new Promise((done) => setTimeout(done, 0));
  return [whilePending, idle()];
}"""


def test_a_scheduler_yielding_through_messages_is_not_idle(loaded: Page) -> None:
    loaded.goto(ORIGIN + "/", wait_until="load")
    settle = (JS / "settle.js").read_text()
    assert loaded.evaluate(MESSAGED, settle) == [False, True]


def test_a_posted_task_is_not_idle_until_it_is_done(loaded: Page) -> None:
    loaded.goto(ORIGIN + "/", wait_until="load")
    settle = (JS / "settle.js").read_text()
    assert loaded.evaluate(POSTED_TASK, settle) == [False, True]


# React's scheduler renders in slices between MessageChannel messages and touches the DOM only
# when it commits: until then the page shows nothing new, though it is far from done.
MESSAGE_RENDERER = (
    PAGES["/"].replace(ARTICLE, '<main id="app"><p>Loading</p></main>')
    + """
<script>
const channel = new MessageChannel();
let slices = 0;
channel.port1.onmessage = () => {
  slices++;
  const until = performance.now() + 4;
  while (performance.now() < until) {}  // a slice of rendering work
  if (slices < 120) { channel.port2.postMessage(null); return; }
  document.getElementById("app").innerHTML = "<h1>Committed</h1>" +
    "<p>The scheduler committed the article about the lighthouse keeper.</p>".repeat(12);
};
channel.port2.postMessage(null);
</script>"""
)


# A widget that waits for its data with an interval and writes it on the tick that finds it
# (here the first, 300 ms after the script ran): until then the page looks done.
INTERVAL_WRITER = (
    PAGES["/"].replace(ARTICLE, '<main id="app"><p>Loading</p></main>')
    + """
<script>
const waiting = setInterval(() => {
  clearInterval(waiting);
  document.getElementById("app").innerHTML = "<h1>Arrived</h1>" +
    "<p>The data arrived with the story of the lighthouse keeper's last winter.</p>".repeat(12);
}, 300);
</script>"""
)


@pytest.mark.parametrize(
    ("page", "written"),
    [(MESSAGE_RENDERER, "lighthouse keeper"), (INTERVAL_WRITER, "last winter")],
    ids=["scheduler-yielding-through-messages", "interval-not-run-yet"],
)
def test_capture_waits_for_what_the_page_has_still_to_write(
    renderer: Renderer, tmp_path: Path, page: str, written: str
) -> None:
    app = tmp_path / "app.html"
    app.write_text(page, encoding="utf-8")
    snapshot = renderer.render(str(app))
    assert written in snapshot.html


# A poller re-arms its timer from its own callback; the page waits until it has run twice.
POLLER = """async (settleSource) => {
  const settle = eval(settleSource);
  let runs = 0, second;
  const ranTwice = new Promise((done) => (second = done));
  const poll = () => { if (++runs === 2) second(); setTimeout(poll, 700); };
  setTimeout(poll, 700);
  const first = settle({action: "quiet"}).timers;
  await ranTwice;
  return [first, settle({action: "quiet"}).timers];
}"""


def test_a_poller_is_not_a_pending_timer_once_it_re_arms(loaded: Page) -> None:
    loaded.goto(ORIGIN + "/", wait_until="load")
    settle = (JS / "settle.js").read_text()
    assert loaded.evaluate(POLLER, settle) == [1, 0]


LONG_TIMER = "() => { setTimeout(() => {}, 3000); setTimeout(() => {}, 800); }"


@pytest.mark.parametrize(("path", "has_article"), [("/long-read", True), ("/", False)])
def test_long_timers_are_counted_with_whether_the_page_has_an_article(
    loaded: Page, path: str, has_article: bool
) -> None:
    loaded.goto(ORIGIN + path, wait_until="load")
    loaded.evaluate(LONG_TIMER)
    state = _quiet(loaded)
    assert (state["timers"], state["longTimers"], state["hasArticle"]) == (2, 1, has_article)


# The article arrives by a 2.5 s timer: the page shows only a placeholder until then, so the
# long timer is waited for.
SKELETON = """<!doctype html><title>Skeleton</title><body><main id="app"><p>Loading</p></main>
<script>
setTimeout(() => {
  document.getElementById("app").innerHTML = "<h1>Late</h1>" +
    "<p>The late article tells how the lock keeper counted the barges at night.</p>".repeat(10);
}, 2500);
</script>"""


def test_a_long_timer_is_waited_for_while_the_page_has_no_article(
    renderer: Renderer, tmp_path: Path
) -> None:
    page = tmp_path / "skeleton.html"
    page.write_text(SKELETON, encoding="utf-8")
    assert "counted the barges" in renderer.render(str(page)).html


# The page starts a navigation of its own while it is parsed (an anti-adblock redirect); offline
# it is refused, and Chromium stops parsing where it began: the served document holds the rest.
# The complete document never gets a DOMContentLoaded lifecycle event either.
SELF_NAVIGATING = (
    "<!doctype html><title>Redirecting</title><body><h1>Harbour</h1>"
    '<script>location.replace("/g00/" + location.pathname);</script>'
    + ARTICLE
    + "<p>The ferry came back at noon.</p></body>"
)


def test_a_page_whose_own_navigation_is_refused_is_read_whole(
    renderer: Renderer, tmp_path: Path
) -> None:
    page = tmp_path / "redirecting.html"
    page.write_text(SELF_NAVIGATING, encoding="utf-8")
    # offline: what the page asks for beyond its own document is refused, as for a saved page
    options = RenderOptions(block_private=False, budget=60.0, offline=True)
    url = "https://news.readermode.test/story"
    extraction = renderer.capture(str(page), url=url, options=options)
    assert "The ferry came back at noon." in extraction.text
    assert not any("DOMContentLoaded" in warning for warning in extraction.warnings)
    assert any("navigation of its own" in warning for warning in extraction.warnings)


def test_capture_of_a_still_page_ends_its_waits_on_the_evidence(
    renderer: Renderer, tmp_path: Path
) -> None:
    still = tmp_path / "still.html"
    still.write_text(PAGES["/"], encoding="utf-8")
    snapshot = renderer.render(str(still))
    assert snapshot.settled_by == "stable"
    # one look at the page ends the quiet waits: the DOM's wait does not ask again
    assert snapshot.timings.get("idle_waits") == 1, snapshot.timings
    assert "The ferry left the harbour" in snapshot.html


def test_a_still_page_is_read_in_one_call_with_its_readability_run(
    renderer: Renderer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Idle when its first snapshot is taken: that snapshot is the settled page, and
    Readability.js reads it in the same call into the page (one run, not two), a call by name
    to the functions our init script defined (no source sent)."""
    calls: list[str] = []
    evaluate = PageSession.evaluate

    async def recording(self: PageSession, expression: str, *args: object, **kw: object) -> object:
        if "function Readability(" in expression:
            calls.append("source sent")
        elif "fns.first" in expression:
            calls.append("first")
        elif "fns.readability" in expression:
            calls.append("readability alone")
        return await evaluate(self, expression, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(PageSession, "evaluate", recording)
    still = tmp_path / "still.html"
    still.write_text(PAGES["/"], encoding="utf-8")
    snapshot = renderer.render(str(still))
    assert snapshot.timings.get("stable_by_evidence") == 1
    assert calls == ["first"]
    assert snapshot.readability is not None
    assert "The ferry left the harbour" in (snapshot.readability.content or "")


def test_two_quiet_frames_are_evidence_until_the_dom_changes(loaded: Page) -> None:
    loaded.goto(ORIGIN + "/", wait_until="load")
    settle = (JS / "settle.js").read_text()
    assert loaded.evaluate(f"({settle})({{action: 'settled', idleMs: 1e9}})")["framesQuiet"] is True
    assert _quiet(loaded)["framesQuiet"] is True
    loaded.evaluate("document.body.append('one more line')")
    assert _quiet(loaded)["framesQuiet"] is False


# ``settled`` on a page whose DOM just changed (idleMs 1e9: always "just"), counting the
# animation frames it asks for; ``observe`` is run first to set up an observer.
SETTLED_FRAMES = """async ([settleSource, observe]) => {
  eval(observe);
  const native = window.requestAnimationFrame;
  let asked = 0;
  window.requestAnimationFrame = (callback) => { asked++; return native(callback); };
  const state = await eval(settleSource)({action: "settled", idleMs: 1e9});
  window.requestAnimationFrame = native;
  return {asked, framesQuiet: state.framesQuiet, frameWatchers: state.frameWatchers};
}"""


@pytest.mark.parametrize(
    ("observe", "frames"),
    [
        ("", 0),
        ("new IntersectionObserver(() => {}).observe(document.querySelector('p'))", 2),
        ("new ResizeObserver(() => {}).observe(document.querySelector('p'))", 2),
    ],
    ids=["nothing-observed", "intersection", "resize"],
)
def test_frames_are_waited_for_only_where_an_observer_reports_in_them(
    loaded: Page, observe: str, frames: int
) -> None:
    """Nothing a frame could start on a page with nothing scheduled and no observer whose
    callbacks run in frames: it is quiet at once; with an observer, after two frames."""
    loaded.goto(ORIGIN + "/", wait_until="load")
    settle = (JS / "settle.js").read_text()
    state = loaded.evaluate(SETTLED_FRAMES, [settle, observe])
    assert state["framesQuiet"] is True
    assert state["asked"] == frames and (state["frameWatchers"] > 0) == (frames > 0)


def test_a_page_with_work_scheduled_is_not_settled_by_frames(loaded: Page) -> None:
    loaded.goto(ORIGIN + "/fade-in", wait_until="load")
    settle = (JS / "settle.js").read_text()
    state = loaded.evaluate(f"({settle})({{action: 'settled', idleMs: 1e9}})")
    assert state["idle"] is False and state["framesQuiet"] is False


def test_capture_of_a_busy_page_keeps_the_fixed_windows(renderer: Renderer, tmp_path: Path) -> None:
    busy = tmp_path / "busy.html"
    # an animation loop in script: work scheduled all along
    loop = "<script>(function frame() { requestAnimationFrame(frame); })();</script>"
    busy.write_text(PAGES["/"] + loop, encoding="utf-8")
    snapshot = renderer.render(str(busy))
    assert snapshot.settled_by == "stable"
    assert "idle_waits" not in snapshot.timings
    assert "stream_waits" not in snapshot.timings  # a loop never ends: not waited for
    assert "The ferry left the harbour" in snapshot.html


LONG = "".join(
    f"<p>Paragraph {n} of the long still page, about the harbour.</p>" for n in range(600)
)

# A classic scroll-event lazy loader: a section gets its text once a scroll event finds its top
# above the bottom of the screen (sections scrolled past count too, as in most such loaders),
# after a long still part that the scroll covers in growing steps.
SECTIONS = 15
SCROLL_LOADER = (
    "<!doctype html><title>Sections</title><body><article><h1>Sections</h1>"
    + LONG[: len(LONG) // 2]
    + "".join(f'<section data-n="{n}" style="height:700px"></section>' for n in range(SECTIONS))
    + """</article><script>
addEventListener("scroll", () => {
  for (const s of document.querySelectorAll("section:not([data-done])")) {
    if (s.getBoundingClientRect().top < innerHeight) {
      s.dataset.done = "1";
      s.innerHTML = "<p>Section " + s.dataset.n + " loaded on scroll, with its own words.</p>";
    }
  }
});
</script>"""
)


# A scroll-depth tracker, as analytics scripts add: it listens, but changes nothing.
SCROLL_DEPTH = "<script>addEventListener('scroll', () => { window.depth = scrollY; });</script>"


# An interval that runs all along (a carousel, a heartbeat) is no reaction to a scroll step.
HEARTBEAT = "<script>setInterval(() => { window.beats = (window.beats || 0) + 1; }, 100);</script>"


@pytest.mark.parametrize("extra", ["", HEARTBEAT], ids=["still", "with-interval"])
def test_a_long_still_page_is_scrolled_in_growing_steps(
    renderer: Renderer, tmp_path: Path, extra: str
) -> None:
    page = tmp_path / "long.html"
    page.write_text(
        f"<!doctype html><title>Long</title><body><article>{LONG}</article>{SCROLL_DEPTH}{extra}"
    )
    snapshot = renderer.render(str(page))
    # 600 paragraphs are dozens of screens: steps of 0.8 screen would need more than 30
    assert "scroll_skipped" not in snapshot.timings
    assert 1 < snapshot.timings["scroll_steps"] < 20, snapshot.timings
    # nothing reacted to any step, the first included: no pause for what came into view,
    # and no wait afterwards for what the scroll could have loaded
    assert "scroll_pauses" not in snapshot.timings, snapshot.timings
    assert "scroll_quiet" not in snapshot.timings, snapshot.timings
    assert "Paragraph 599 of the long still page" in snapshot.html


def test_a_page_nothing_watches_is_not_scrolled_and_read_in_one_snapshot(
    renderer: Renderer, tmp_path: Path
) -> None:
    """No listener, observer or scheduled work: scrolling and a second snapshot cannot change
    what is read, so neither happens."""
    page = tmp_path / "still.html"
    page.write_text(f"<!doctype html><title>Still</title><body><article>{LONG}</article>")
    snapshot = renderer.render(str(page))
    assert snapshot.timings.get("scroll_skipped") == 1 and "scroll_steps" not in snapshot.timings
    assert snapshot.settled_by == "stable" and snapshot.timings["stability_checks"] == 1
    assert "Paragraph 599 of the long still page" in snapshot.html


@pytest.mark.parametrize(
    "watcher",
    [
        "<script>document.body.onscroll = () => {};</script>",
        "<script>new IntersectionObserver(() => {}).observe(document.querySelector('p'));</script>",
        "<script>setInterval(() => {}, 200);</script>",  # a loader polling the scroll position
        "<script>document.querySelector('article').addEventListener('wheel', () => {});</script>",
    ],
    ids=["onscroll", "observer", "interval", "wheel"],
)
def test_a_page_that_could_react_is_scrolled(
    renderer: Renderer, tmp_path: Path, watcher: str
) -> None:
    page = tmp_path / "watched.html"
    page.write_text(
        f"<!doctype html><title>Watched</title><body><article>{LONG}</article>{watcher}"
    )
    snapshot = renderer.render(str(page))
    assert "scroll_skipped" not in snapshot.timings and snapshot.timings["scroll_steps"] >= 1


# A story with a "read more" control that shows its rest, and a share bar whose "more sharing
# options" control adds a menu of share links.
READ_MORE_AND_SHARING = """<!doctype html><title>Quay</title><body><article><h1>Quay</h1>
<p>The quay was rebuilt in stone after the storm of the winter, and the harbour opened again.</p>
<p id="rest" style="display:none">The rest of the story: the old crane stays on the north quay.</p>
<a href="#" id="more" onclick="document.getElementById('rest').style.display = 'block';
  this.remove(); return false;">Read more</a></article>
<div class="share"><a href="#" onclick="const m = document.createElement('ul');
  m.innerHTML = '<li><a href=/s1>Share on Kelvik</a></li><li><a href=/s2>Share by post</a></li>';
  this.after(m); return false;">Show more sharing options</a></div>"""


def test_read_more_is_opened_and_a_sharing_menu_is_not(renderer: Renderer, tmp_path: Path) -> None:
    page = tmp_path / "quay.html"
    page.write_text(READ_MORE_AND_SHARING)
    snapshot = renderer.render(str(page))
    assert "the old crane stays on the north quay" in snapshot.html
    assert ">Share on Kelvik</a>" not in snapshot.html  # (its markup is in the onclick too)
    assert snapshot.timings.get("expanded_readMore") == 1


def test_sections_loaded_by_scroll_events_are_all_read(renderer: Renderer, tmp_path: Path) -> None:
    page = tmp_path / "sections.html"
    page.write_text(SCROLL_LOADER)
    snapshot = renderer.render(str(page))
    missing = [n for n in range(SECTIONS) if f"Section {n} loaded on scroll" not in snapshot.html]
    assert not missing
    assert "scroll_quiet" in snapshot.timings  # the steps had reactions: what they loaded


def test_a_pane_streaming_on_scroll_is_waited_for_at_the_bottom(
    renderer: Renderer, spa_server: str
) -> None:
    snapshot = renderer.render(f"{spa_server}pane-stream/index.html")
    assert snapshot.timings.get("stream_waits", 0) >= 1
    assert "the second year on a roof is always better" in snapshot.html
