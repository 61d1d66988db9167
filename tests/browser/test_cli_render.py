"""The rendering options of the CLI, run as a process against the loopback SPA server."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from renderer import AsyncRenderer, RenderOptions
from tests.browser.conftest import SPA

pytestmark = pytest.mark.browser

OFFLINE = RenderOptions(block_private=False, offline=True, budget=30.0)  # a backstop


def readermode(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "renderer.cli", *args],
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        timeout=120,
    )


def present(name: str) -> list[str]:
    return json.loads((SPA / name / "case.json").read_text(encoding="utf-8"))["present"]


def test_stdin_rendered_at_its_url(spa_server: str) -> None:
    """--render serves stdin from memory at --url: the page's own app.js and data.json load."""
    html = (SPA / "korean-spa" / "index.html").read_bytes()
    result = readermode(
        "-", "--render", "--url", f"{spa_server}korean-spa/index.html", "-f", "text", stdin=html
    )
    assert result.returncode == 0, result.stderr.decode()
    assert present("korean-spa")[0] in result.stdout.decode("utf-8")


def test_offline_refuses_everything_but_the_page(spa_server: str, tmp_path: Path) -> None:
    """Offline, the json-render app cannot fetch its data: the article is not there."""
    saved = tmp_path / "page.html"
    saved.write_bytes((SPA / "timeout-text" / "index.html").read_bytes())
    online = readermode(
        str(saved), "--render", "--url", f"{spa_server}timeout-text/index.html", "-f", "text"
    )
    offline = readermode(
        str(saved),
        "--render",
        "--offline",
        "--url",
        f"{spa_server}timeout-text/index.html",
        "-f",
        "text",
    )
    phrase = present("timeout-text")[0]
    assert phrase in online.stdout.decode()
    assert phrase not in offline.stdout.decode()


def test_screenshot_and_saved_snapshot(spa_server: str, tmp_path: Path) -> None:
    shot, saved = tmp_path / "page.png", tmp_path / "snapshot.html"
    result = readermode(
        f"{spa_server}shadow-closed/index.html",
        "--screenshot",
        str(shot),
        "--save-html",
        str(saved),
    )
    assert result.returncode == 0, result.stderr.decode()
    assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 5_000
    # The saved snapshot holds the closed shadow root's text, flattened.
    assert present("shadow-closed")[-1] in saved.read_text(encoding="utf-8")


def test_no_readability_js_uses_the_python_cascade(spa_server: str) -> None:
    result = readermode(f"{spa_server}json-render/index.html", "--no-readability-js", "-f", "json")
    data = json.loads(result.stdout)
    assert data["stage"] in ("readability-lxml", "scorer")
    assert present("json-render")[0] == data["title"]  # the headline is the title
    assert present("json-render")[1] in data["text"]


def test_async_renderer_captures_concurrently(spa_server: str) -> None:
    names = ["timeout-text", "json-render", "shadow-open"]

    async def capture_all() -> list[str]:
        async with AsyncRenderer(RenderOptions(block_private=False)) as renderer:
            results = await asyncio.gather(
                *(renderer.capture(f"{spa_server}{n}/index.html") for n in names)
            )
        return [f"{result.metadata.title}\n{result.text}" for result in results]

    # In a thread of its own: pytest-playwright's sync fixtures keep an event loop running in
    # this one, and asyncio.run refuses to start inside it (as it would in Jupyter).
    with ThreadPoolExecutor(max_workers=1) as pool:
        texts = pool.submit(asyncio.run, capture_all()).result(timeout=120)
    for name, text in zip(names, texts, strict=True):
        assert present(name)[0] in text, name


ARTICLE_WORDS = " ".join(
    "Der Bürgermeister eröffnete die Brücke über den Fluss, während Passanten applaudierten.".split()
)


def test_served_bytes_keep_their_encoding(renderer, tmp_path: Path) -> None:  # noqa: ANN001
    """A saved page in windows-1252 without <meta charset>: detected, not guessed by Chromium."""
    page = f"<html><body><article><h1>Brücke</h1>{('<p>' + ARTICLE_WORDS + '</p>') * 5}</article></body></html>"
    saved = tmp_path / "latin.html"
    saved.write_bytes(page.encode("cp1252"))
    extraction = renderer.capture(str(saved), url="http://saved.test/latin.html", options=OFFLINE)
    assert "Bürgermeister eröffnete die Brücke" in extraction.text
    assert "\ufffd" not in extraction.text and "Ã" not in extraction.text


def test_offline_page_that_navigates_away_stays(renderer, tmp_path: Path) -> None:  # noqa: ANN001
    """Offline, a script sending the page elsewhere must not leave us with an error page."""
    page = (
        "<html><body><article><h1>Stay here</h1>"
        + ("<p>" + ARTICLE_WORDS + "</p>") * 5
        + "</article><script>setTimeout(() => { location.href = 'http://elsewhere.test/consent'; }, 200);"
        "</script></body></html>"
    )
    saved = tmp_path / "bounce.html"
    saved.write_text(page, encoding="utf-8")
    snapshot = renderer.render(str(saved), url="http://saved.test/bounce.html", options=OFFLINE)
    assert snapshot.final_url == "http://saved.test/bounce.html"
    assert "Bürgermeister" in snapshot.html


PAGES_READABILITY = Path(__file__).resolve().parent / "pages_readability"


def test_readability_js_reads_past_utility_class_names(renderer) -> None:  # noqa: ANN001
    """A Mintlify manual (hand-written in its markup) puts each step of a procedure in a
    Tailwind ``overflow-hidden`` box: Readability.js's negative class weight ("hidden") dropped
    the steps whole, leaving their numbers, until our copy for it cleared such names."""
    page = PAGES_READABILITY / "mintlify_steps.html"
    url = "https://docs.relay.dev/webhooks/verify-signatures"
    snapshot = renderer.render(str(page), url=url, options=OFFLINE)
    assert snapshot.readability is not None
    text = " ".join((snapshot.readability.text_content or "").split())
    for step in ("Read the raw request body", "Capture the body as bytes", "Reject stale"):
        assert step in text, step


def test_reader_views_copy_keeps_every_class() -> None:
    from renderer.browser.readability import reader_view_options, run_options

    assert run_options("<p>x</p>", hidden_attribute="m")["builderClasses"]
    assert reader_view_options()["builderClasses"] is None  # Firefox reads the page's classes
