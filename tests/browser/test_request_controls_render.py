"""Request controls and scripted capture in Chromium: User-Agent, headers, cookies, locale and
viewport as the server and the page saw them; --actions steps that reveal content, each in
the trace; --proxy through a local forward proxy. Everything on 127.0.0.1."""

from __future__ import annotations

import pytest

from renderer import Renderer, RenderOptions
from renderer.browser.steps import parse_steps
from renderer.fetch.controls import Cookie, RequestControls
from tests.sites_server import Site, article, forward_proxy, html, serve

pytestmark = pytest.mark.browser

REVEAL = b"""<!doctype html><html lang="en"><head><title>Reveal</title></head><body><main>
<h1>Reveal</h1><p id="intro">The rest of this article is behind the button below.</p>
<input id="q"><button id="more" onclick="reveal()">Read more</button></main>
<script>
function reveal() {
  const main = document.querySelector("main");
  for (let n = 0; n < 4; n++) {
    const p = document.createElement("p");
    p.textContent = "Revealed paragraph " + n + " after the click, for " +
      document.getElementById("q").value + ", in a window " + innerWidth +
      " wide, language " + navigator.language + ", with enough words to be the article.";
    main.append(p);
  }
  const done = document.createElement("div");
  done.id = "done";
  main.append(done);
}
</script></body></html>"""


def test_controls_and_actions_in_the_browser(tmp_path) -> None:  # noqa: ANN001
    steps = parse_steps(
        [
            {"type": "#q", "text": "ferries"},
            {"click": "#more"},
            {"wait_for": "#done"},
            {"screenshot": str(tmp_path / "after.png")},
        ]
    )
    controls = RequestControls(
        user_agent="TestBot/2.0",
        headers=(("X-Token", "t0k"),),
        cookies=(Cookie(name="sid", value="42", domain="127.0.0.1"),),
        locale="de-DE",
    )
    options = RenderOptions(
        block_private=False, budget=60.0, request=controls, viewport=(800, 600), actions=steps
    )
    with serve(Site()) as site, Renderer(options) as renderer:
        site.routes["/r"] = html(REVEAL)
        extraction = renderer.capture(site.base + "/r")
        _, headers = next(request for request in site.requests if request[0] == "/r")
    assert headers["user-agent"] == "TestBot/2.0"
    assert headers["x-token"] == "t0k"
    assert headers["cookie"] == "sid=42"
    assert headers["accept-language"].startswith("de-DE")
    assert "for ferries, in a window 800 wide, language de-DE" in extraction.text
    actions = [entry for entry in extraction.trace if entry.name == "action"]
    assert [entry.reason for entry in actions] == [
        "1: type into #q",
        "2: click #more",
        "3: wait_for #done",
        f"4: screenshot {tmp_path / 'after.png'}",
    ]
    assert (tmp_path / "after.png").read_bytes().startswith(b"\x89PNG")


def test_a_failing_step_leaves_a_partial_warning() -> None:
    options = RenderOptions(
        block_private=False, budget=4.0, actions=parse_steps([{"click": "#missing"}])
    )
    with serve(Site()) as site, Renderer(options) as renderer:
        site.routes["/a"] = html(article("Plain"))
        extraction = renderer.capture(site.base + "/a")
    assert any("action 1: click #missing failed" in w for w in extraction.warnings)


def test_rendering_through_a_proxy() -> None:
    with serve(Site()) as site, forward_proxy() as proxy:
        site.routes["/p"] = html(article("Proxied"))
        options = RenderOptions(
            block_private=False, budget=60.0, request=RequestControls(proxy=proxy.url)
        )
        with Renderer(options) as renderer:
            extraction = renderer.capture(site.base + "/p")
    assert "proxied sentence" in extraction.text
    host = site.base.removeprefix("http://")
    assert any(host in seen for seen in proxy.seen)  # a GET for the URL, or a CONNECT tunnel
