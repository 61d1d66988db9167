"""The in-page scripts renderer/browser/js/init.js and renderer/browser/js/snapshot.js, in a real Chromium.

Pages come from memory (tests/browser/pages_snapshot/ plus a few generated ones) through
page.route on http://readermode.test/; every other request is aborted, so nothing touches the
network.
"""

from __future__ import annotations

import json
import struct
import zlib
from dataclasses import replace
from pathlib import Path
from typing import Any

import lxml.html
import pytest

from extractor import extract
from renderer import RenderOptions
from renderer.browser.snapshot import BOX_MARK, VIEWPORT_MARK

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
JS = REPO / "renderer" / "browser" / "js"
INIT_JS = JS / "init.js"
SNAPSHOT_JS = JS / "snapshot.js"
PAGES = Path(__file__).resolve().parent / "pages_snapshot"
CHROMIUM = "/usr/bin/chromium"
ORIGIN = "http://readermode.test"
OPTIONS = {"hiddenAttribute": "data-readermode-hidden", "maxElements": 200000}
HIDDEN = "data-readermode-hidden"
VISIBLE = "data-readermode-visible"
DEEP_LEVELS = 8
# as the extractor parses (libxml2 drops everything nested deeper than 255 levels otherwise)
PARSER = lxml.html.HTMLParser(huge_tree=True)


def _png(width: int = 4, height: int = 3) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    raw = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def _site() -> dict[str, tuple[bytes, str]]:
    site: dict[str, tuple[bytes, str]] = {}
    for path in PAGES.rglob("*.html"):
        site["/" + path.relative_to(PAGES).as_posix()] = (
            path.read_bytes(),
            "text/html; charset=utf-8",
        )
    png = _png()
    for name in (
        "/img/real1.png",
        "/img/a.png",
        "/img/b.png",
        "/img/c.png",
        "/img/c2.png",
        "/sub/pic.png",
    ):
        site[name] = (png, "image/png")
    # frames nested DEEP_LEVELS deep: /deep/0.html holds /deep/1.html, which holds /deep/2.html ...
    for level in range(DEEP_LEVELS):
        child = f'<iframe src="{level + 1}.html"></iframe>' if level + 1 < DEEP_LEVELS else ""
        body = f'<!doctype html><title>deep {level}</title><p id="level-{level}">level {level}</p>{child}'
        site[f"/deep/{level}.html"] = (body.encode(), "text/html; charset=utf-8")
    site["/weird.html"] = (
        b"<!doctype html><title>weird</title><body>"
        b'<div "quoted=x" a<b=1 id="weird">odd attribute names</div>'
        b'<p id="ctl">control</p>'
        b"<script>"
        b"document.getElementById('ctl').append('nul\\u0000 bell\\u0007 lone\\ud800 surrogate');"
        b"const x = document.createElement('div'); x.id = 'deep';"
        b"let cur = x; for (let i = 0; i < 3000; i++) { const d = document.createElement('span'); cur.append(d); cur = d; }"
        b"cur.append('bottom of the deep nest'); document.body.append(x);"
        b"document.body.insertAdjacentHTML('beforeend', '<p id=after-deep>after the deep nest</p>');"
        b"</script></body>",
        "text/html; charset=utf-8",
    )
    return site


SITE = _site()


@pytest.fixture(scope="module")
def chromium(browser: Any) -> Any:
    """pytest-playwright's browser, launched from the system Chromium (tests/browser/conftest.py).

    Sharing it matters: a second sync Playwright in the same thread cannot start while
    pytest-playwright's is running."""
    return browser


def _serve(route: Any) -> None:
    url = route.request.url
    if not url.startswith(ORIGIN + "/"):
        route.abort()
        return
    path = "/" + url[len(ORIGIN) + 1 :].split("?", 1)[0].split("#", 1)[0]
    if path in SITE:
        body, content_type = SITE[path]
        route.fulfill(status=200, body=body, headers={"content-type": content_type})
    else:
        route.fulfill(status=404, body=b"not found", headers={"content-type": "text/plain"})


# Every frame's HTML, open shadow roots included (getHTML with the roots), to see that the
# snapshot changes nothing.
LIVE_HTML = """() => {
  const roots = [];
  const walk = (node) => {
    for (const el of node.querySelectorAll("*")) {
      if (el.shadowRoot) { roots.push(el.shadowRoot); walk(el.shadowRoot); }
    }
  };
  walk(document);
  const el = document.documentElement;
  return el.getHTML ? el.getHTML({ shadowRoots: roots }) : el.outerHTML;
}"""


class Snap:
    def __init__(
        self,
        result: dict[str, Any],
        before: list[str],
        after: list[str],
        errors: list[str],
        page_state: Any,
    ) -> None:
        self.result = result
        self.html: str = result["html"]
        self.stats: dict[str, Any] = result["stats"]
        self.doc = lxml.html.document_fromstring(self.html, parser=PARSER)
        self.before = before
        self.after = after
        self.errors = errors
        self.page_state = page_state

    def one(self, id_: str) -> Any:
        found = self.doc.xpath(f'//*[@id="{id_}"]')
        assert len(found) == 1, f"#{id_}: {len(found)} matches in\n{self.html}"
        return found[0]

    def none(self, id_: str) -> None:
        assert not self.doc.xpath(f'//*[@id="{id_}"]'), f"#{id_} should not be in\n{self.html}"

    def text(self) -> str:
        return self.doc.text_content()


def snapshot(
    browser: Any,
    path: str,
    options: dict[str, Any] | None = None,
    *,
    init_twice: bool = False,
    page_state: str | None = None,
) -> Snap:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        context.add_init_script(path=str(INIT_JS))
        if init_twice:
            context.add_init_script(path=str(INIT_JS))
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.route("**/*", _serve)
        page.goto(ORIGIN + path, wait_until="load")
        before = [
            frame.evaluate(LIVE_HTML) for frame in page.frames if frame.url.startswith(ORIGIN)
        ]
        result = page.evaluate(SNAPSHOT_JS.read_text(), OPTIONS if options is None else options)
        after = [frame.evaluate(LIVE_HTML) for frame in page.frames if frame.url.startswith(ORIGIN)]
        state = page.evaluate(page_state) if page_state else None
        return Snap(result, before, after, errors, state)
    finally:
        context.close()


def hidden(snap: Snap, id_: str) -> str | None:
    return snap.one(id_).get(HIDDEN)


# ---- shadow DOM -------------------------------------------------------------------------------


def test_open_shadow_root_flattened_with_slots(chromium: Any) -> None:
    snap = snapshot(chromium, "/shadow.html")
    title = snap.one("card-title")
    assert title.text_content() == "Slotted Title"  # assigned node replaces the fallback
    assert "Fallback title" not in snap.html
    assert snap.one("default-slotted").getparent().get("class") == "card-body"
    assert snap.one("card-footer").text_content() == "Footer fallback"  # nothing assigned
    assert "Unassigned light child" not in snap.html  # not rendered: no slot takes it
    assert "<slot" not in snap.html
    assert "color: red" not in snap.html and "<style" not in snap.html
    assert snap.one("card").tag == "my-card"


def test_closed_and_nested_shadow_roots(chromium: Any) -> None:
    snap = snapshot(chromium, "/shadow.html", page_state="() => window.__closed")
    assert snap.one("closed-p").text_content() == "Closed shadow content"
    assert snap.one("closed-p").getparent().get("id") == "closed"
    # x-outer (open) > section > x-inner (closed) > div.inner-wrap > slot > slot > <i>
    light = snap.one("outer-light")
    assert [a.tag for a in light.iterancestors()][:4] == ["div", "x-inner", "section", "x-outer"]
    assert light.getparent().get("class") == "inner-wrap"
    assert snap.one("dsd-p").text_content() == "Declarative shadow content"
    assert "dsd light" not in snap.html
    assert snap.stats["shadowRoots"] == 5
    assert snap.stats["closedShadowRoots"] == 2
    # the page's own code saw a normal shadow root
    assert snap.page_state == {
        "text": "Closed shadow content",
        "isShadowRoot": True,
        "host": True,
        "delegatesFocus": True,
    }
    assert snap.errors == []


def test_init_script_twice_is_harmless(chromium: Any) -> None:
    snap = snapshot(
        chromium,
        "/shadow.html",
        init_twice=True,
        page_state="""() => ({
        closed: window.__closed.text,
        nativeLooking: Function.prototype.toString.call(Element.prototype.attachShadow).includes("[native code]"),
        name: Element.prototype.attachShadow.name,
        length: Element.prototype.attachShadow.length,
        notes: Object.prototype.toString.call(window[Symbol.for("readermode.closedShadowRoots")]),
        reattach: (() => { try { document.getElementById("closed").attachShadow({mode: "closed"}); return "no error"; }
                           catch (e) { return e.name; } })(),
    })""",
    )
    assert snap.errors == []
    assert snap.page_state == {
        "closed": "Closed shadow content",
        "nativeLooking": True,
        "name": "attachShadow",
        "length": 1,
        "notes": "[object WeakSet]",
        "reattach": "NotSupportedError",
    }
    assert snap.one("closed-p").text_content() == "Closed shadow content"
    assert snap.stats["closedShadowRoots"] == 2


# ---- frames -----------------------------------------------------------------------------------


def test_same_origin_frames_inlined_recursively(chromium: Any) -> None:
    snap = snapshot(chromium, "/frames.html")
    frames = snap.doc.xpath("//div[@data-readermode-frame]")
    assert [f.get("data-readermode-frame") for f in frames] == [
        ORIGIN + "/frame1.html",
        ORIGIN + "/sub/frame2.html",
    ]
    one, two = frames
    assert two.getparent() is one  # frame in frame
    assert snap.one("in-one").text_content() == "In frame one a link."
    assert snap.one("one-link").get("href") == ORIGIN + "/rel/link.html"  # against the frame's URL
    assert snap.one("in-two").getparent() is two
    assert snap.one("two-img").get("src") == ORIGIN + "/sub/pic.png"
    assert hidden(snap, "one-hidden") == "display"  # marking works inside frames
    assert hidden(snap, "in-one") is None
    assert "cross-origin.example" not in snap.html
    assert not snap.doc.xpath("//iframe")
    assert "<title>Frame one" not in snap.html  # a frame's head is not carried over
    assert snap.stats["frames"] == 2
    assert snap.stats["framesDropped"] == 1


def test_frame_depth_is_limited(chromium: Any) -> None:
    snap = snapshot(chromium, "/deep/0.html")
    for level in range(6):
        assert snap.one(f"level-{level}").text == f"level {level}"
    for level in range(6, DEEP_LEVELS):
        snap.none(f"level-{level}")
    assert snap.stats["frames"] == 5


# ---- hidden content ---------------------------------------------------------------------------


def test_hidden_reasons_marked(chromium: Any) -> None:
    snap = snapshot(chromium, "/hidden.html")
    assert hidden(snap, "dn") == "display"
    assert hidden(snap, "dn-child") is None  # not looked into, serialised with its content
    assert snap.one("dn-child").text == "Display none text."
    assert hidden(snap, "hidden-attr") == "display"
    assert hidden(snap, "vh") == "visibility"
    assert hidden(snap, "vh-inner") is None  # inherits; marked only where it becomes hidden
    assert hidden(snap, "vh-visible") is None  # visible again ...
    assert snap.one("vh-visible").get(VISIBLE) == "visibility"  # ... and said so
    assert hidden(snap, "zs") == "zero-size"
    assert hidden(snap, "off") == "offscreen"
    assert hidden(snap, "skip") == "offscreen"  # sr-only clip pattern
    assert hidden(snap, "overlay") == "overlay"
    assert hidden(snap, "overlay-p") is None
    assert snap.stats["hidden"] == {
        "display": 2,
        "visibility": 1,
        "zero-size": 1,
        "offscreen": 2,
        "overlay": 1,
    }


def test_visible_content_not_marked(chromium: Any) -> None:
    snap = snapshot(chromium, "/hidden.html")
    for id_ in (
        "normal",
        "inline",
        "empty-inline",
        "floatwrap",
        "float-l",
        "float-r",
        "abswrap",
        "abs-child",
        "inline-float",
        "inline-float-b",
        "contents",
        "contents-p",
        "det",
        "det-summary",
        "det-body",
        "until",
        "until-body",
        "main",
        "p1",
        "p2",
    ):
        assert hidden(snap, id_) is None, f"#{id_} marked {hidden(snap, id_)!r}"
    marked = {el.get("id") for el in snap.doc.xpath(f"//*[@{HIDDEN}]")}
    assert marked == {"dn", "hidden-attr", "vh", "zs", "off", "skip", "overlay"}
    assert snap.doc.body.get(HIDDEN) is None


def test_positioned_content_in_scrollers(chromium: Any) -> None:
    # An app scrolling inside a full-page <div> (scrolled to its end), holding an absolutely
    # positioned grid and a carousel: nothing there is off-screen; the -9999px tricks are.
    snap = snapshot(chromium, "/scroller.html")
    for id_ in ["app", "carousel", "slide1", "slide2", "grid"] + [f"card{i}" for i in range(12)]:
        assert hidden(snap, id_) is None, f"#{id_} marked {hidden(snap, id_)!r}"
    assert hidden(snap, "sr-left") == "offscreen"
    assert hidden(snap, "sr-right") == "offscreen"  # overflow hidden: no sideways scrolling


def test_overlay_is_not_an_app_shell(chromium: Any) -> None:
    shell = snapshot(chromium, "/overlay_shell.html")
    assert hidden(shell, "shell") is None  # a full-viewport fixed layer holding the page's text
    assert shell.stats["hidden"]["overlay"] == 0
    wall = snapshot(chromium, "/overlay_frame.html")
    assert hidden(wall, "wall") == "overlay"  # a consent wall in a cross-origin frame
    assert hidden(wall, "story") is None
    wall.none("cmp")


def test_hidden_attribute_option(chromium: Any) -> None:
    snap = snapshot(
        chromium, "/hidden.html", {"hiddenAttribute": "data-x-hidden", "maxElements": 1000}
    )
    assert snap.one("dn").get("data-x-hidden") == "display"
    assert HIDDEN not in snap.html


# ---- images, URLs, what is dropped, escaping --------------------------------------------------


def test_lazy_images_promoted(chromium: Any) -> None:
    snap = snapshot(chromium, "/lazy.html")
    assert snap.one("lazy1").get("src") == ORIGIN + "/img/real1.png"
    assert (
        snap.one("lazy2").get("src") == ORIGIN + "/img/large.png"
    )  # largest data-srcset candidate
    assert snap.one("lazy3").get("src") == ORIGIN + "/img/orig.png"  # no src at all
    assert snap.one("pic").get("src") == ORIGIN + "/img/b.png"  # loaded currentSrc wins
    assert snap.one("real").get("src") == ORIGIN + "/img/c.png"  # a real src is kept
    assert snap.one("srcset").get("srcset") == f"{ORIGIN}/img/c.png 1x, {ORIGIN}/img/c2.png 2x"
    assert snap.one("lazy1").get("data-src") == "/img/real1.png"  # other attributes as they were
    assert snap.one("lazy4").get("src") == ORIGIN + "/img/never.png"
    assert snap.stats["lazyImages"] == 4
    # an image that has not loaded (0x0 for now) is not "zero-size", nor is its 0x0 wrapper
    for id_ in ("lazy1", "lazy2", "lazy3", "pic", "real", "lazy4", "lazy-wrap"):
        assert hidden(snap, id_) is None


def test_urls_dropped_content_and_escaping(chromium: Any) -> None:
    snap = snapshot(chromium, "/esc/page.html")
    doc = snap.doc
    assert snap.html.startswith("<!DOCTYPE html>")
    assert doc.find(".//title").text == "Tom & Jerry <3"
    assert snap.result["title"] == "Tom & Jerry <3"
    assert snap.result["url"] == ORIGIN + "/esc/page.html"
    assert snap.result["baseURI"] == ORIGIN + "/esc/page.html"
    assert [b.get("href") for b in doc.xpath("//base")] == [ORIGIN + "/esc/page.html"]
    assert doc.xpath("//meta[@name='description']/@content") == ['Desc "quoted" & more']
    assert doc.xpath("//meta/@charset") == ["utf-8"]  # the page's windows-1252 no longer applies
    assert doc.xpath("//link/@href") == [
        ORIGIN + "/canon?a=1&b=2"
    ]  # canonical kept, stylesheet not
    ld = [json.loads(s.text) for s in doc.xpath("//script[@type='application/ld+json']")]
    assert ld == [
        {"@type": "NewsArticle", "headline": 'A <b> & "quoted" headline </script-ish>'},
        {"@type": "BreadcrumbList"},
    ]
    assert len(doc.xpath("//script")) == 2
    for gone in (
        "script text",
        "color: red",
        "noscript text",
        "template text",
        "a comment",
        "insertAdjacentHTML",
    ):
        assert gone not in snap.html
    assert not doc.xpath("//style | //noscript | //template | //comment()")
    esc = snap.one("esc")
    assert esc.get("title") == "He said \"hi\" & <left> 'x'"
    assert esc.text_content() == "1 < 2 && 3 > 2"
    assert snap.one("ta").text_content() == "</textarea> & stuff"
    assert snap.one("pre").text_content() == "  indented\n    code <tag>"
    assert snap.one("rel").get("href") == ORIGIN + "/x/y.html?a=1&b=2"
    assert snap.one("frag").get("href") == ORIGIN + "/esc/page.html#sec"
    assert snap.one("dyn").text == "Dynamic paragraph."
    assert "<br>" in snap.html and "</br>" not in snap.html


def test_weird_pages_do_not_break_the_snapshot(chromium: Any) -> None:
    snap = snapshot(chromium, "/weird.html")
    assert "failed" not in snap.stats
    assert snap.one("weird").text == "odd attribute names"
    assert snap.one("ctl").text_content() == "controlnul bell lone\ufffd surrogate"
    assert "bottom of the deep nest" in snap.one("deep").text_content()
    assert (
        snap.one("after-deep").text == "after the deep nest"
    )  # libxml2 would drop it past ~2046 levels
    assert snap.stats["flattened"] > 0
    snap.html.encode("utf-8")  # well-formed: no lone surrogates


def test_max_elements_truncates(chromium: Any) -> None:
    snap = snapshot(chromium, "/hidden.html", {"maxElements": 12})
    assert snap.stats["truncated"] is True
    assert snap.stats["elements"] == 12
    assert snap.html.endswith("</body></html>")
    assert snap.doc.find(".//title").text == "Hidden things"
    assert "main article text" not in snap.html
    full = snapshot(chromium, "/hidden.html")
    assert full.stats["truncated"] is False


# ---- the live page is left alone --------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/shadow.html",
        "/hidden.html",
        "/frames.html",
        "/lazy.html",
        "/esc/page.html",
        "/scroller.html",
        "/weird.html",
    ],
)
def test_live_dom_unchanged(chromium: Any, path: str) -> None:
    snap = snapshot(chromium, path)
    assert snap.before == snap.after
    assert len(snap.before) >= 1
    assert snap.stats["errors"] == 0
    assert snap.stats["elements"] > 5


def test_an_open_modal_does_not_hide_the_page_behind_it(chromium: Any) -> None:
    snap = snapshot(chromium, "/modal_open.html")
    wrap = snap.one("wrap")
    assert wrap.get("aria-hidden") is None and wrap.get("inert") is None  # a reader sees it
    assert hidden(snap, "modal") == "overlay"  # the dialog is what covers the page
    assert snap.one("icon").get("aria-hidden") == "true"  # not a wrapper: left as it is
    assert snap.before == snap.after  # the live page keeps its attributes


def test_aria_hidden_stays_when_no_modal_is_open(chromium: Any) -> None:
    snap = snapshot(chromium, "/modal_closed.html")
    assert snap.one("wrap").get("aria-hidden") == "true"
    assert hidden(snap, "modal") == "display"


# ---- layout: boxes and font sizes ------------------------------------------------------------

WITH_BOXES = {**OPTIONS, "boxAttribute": BOX_MARK, "viewportAttribute": VIEWPORT_MARK}


def box_of(snap: Snap, id_: str) -> list[int]:
    value = snap.one(id_).get(BOX_MARK)
    assert value is not None, f"#{id_} has no box"
    return [int(part) for part in value.split(",")]


def test_blocks_carry_their_box_and_font_size(chromium: Any) -> None:
    snap = snapshot(chromium, "/layout.html", WITH_BOXES)
    x, y, width, _, font = box_of(snap, "main")
    assert (x, y, width, font) == (0, 60, 800, 16)
    assert box_of(snap, "side")[:3] == [900, 60, 300]
    assert box_of(snap, "side-p")[4] == 12
    assert box_of(snap, "headline")[4] == 32
    assert box_of(snap, "low")[1] > 2000  # page coordinates: the page scrolled itself 500 px down
    viewport = [int(part) for part in snap.doc.get(VIEWPORT_MARK).split(",")]
    assert viewport[:3] == [1280, 720, 1280] and viewport[3] > 2000


def test_inline_and_hidden_elements_have_no_box(chromium: Any) -> None:
    snap = snapshot(chromium, "/layout.html", WITH_BOXES)
    assert snap.one("inline").get(BOX_MARK) is None
    assert snap.one("gone").get("data-readermode-hidden") == "display"
    assert snap.one("gone").get(BOX_MARK) is None and snap.one("gone-p").get(BOX_MARK) is None


def test_without_a_box_attribute_nothing_is_added(chromium: Any) -> None:
    snap = snapshot(chromium, "/layout.html")
    assert BOX_MARK not in snap.html and VIEWPORT_MARK not in snap.html


def test_the_renderer_records_the_layout_only_when_asked(renderer: Any) -> None:
    page = str(PAGES / "layout.html")
    offline = RenderOptions(offline=True, block_private=False, budget=60.0)
    plain = renderer.render(page, url="https://layout.test/", options=offline)
    laid_out = renderer.render(
        page, url="https://layout.test/", options=replace(offline, record_layout=True)
    )
    assert BOX_MARK not in plain.html and VIEWPORT_MARK not in plain.html
    assert BOX_MARK in laid_out.html and VIEWPORT_MARK in laid_out.html
    assert extract(plain).text == extract(laid_out).text  # the extractor does not read them
