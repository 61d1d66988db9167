"""What a capture does not fetch (renderer/browser/skipped.py): fonts, audio, video and
trackers are refused unless asked for, and the article is read all the same."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from extractor import extract
from renderer import Renderer, RenderOptions
from renderer.browser.skipped import is_tracker

STORY = " ".join(
    f"Sentence {n} of the story tells how the lifeboat crew trained on the winter sea."
    for n in range(30)
)
PAGE = f"""<!doctype html><html><head><title>Lifeboat crew</title>
<style>@font-face {{ font-family: Crew; src: url(/crew.woff2) format("woff2"); }}
body {{ font-family: Crew, serif; }}</style></head>
<body><article><h1>Lifeboat crew</h1><p>{STORY}</p>
<video src="/drill.mp4" controls></video><audio src="/horn.mp3"></audio>
</article></body></html>"""


class _Recorder(http.server.BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802
        self.server.paths.append(self.path)
        body, kind = (PAGE.encode(), "text/html; charset=utf-8")
        if self.path != "/":
            body, kind = (b"\0" * 64, "application/octet-stream")
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    paths: list[str]


@pytest.fixture
def recorder() -> Iterator[_Server]:
    server = _Server(("127.0.0.1", 0), _Recorder)
    server.paths = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.mark.browser
def test_fonts_and_media_are_not_fetched_unless_asked(
    recorder: _Server, renderer: Renderer
) -> None:
    url = f"http://127.0.0.1:{recorder.server_address[1]}/"
    options = RenderOptions(block_private=False)
    snapshot = renderer.render(url, options=options)
    assert "Sentence 29 of the story" in extract(snapshot).text
    assert recorder.paths == ["/"]
    assert snapshot.timings["skipped_requests"] >= 2  # the font and the video at least

    recorder.paths.clear()
    renderer.render(url, options=replace(options, fetch_everything=True))
    assert "/crew.woff2" in recorder.paths and "/drill.mp4" in recorder.paths


@pytest.mark.browser
def test_trackers_are_refused_before_they_leave(renderer: Renderer, tmp_path: Path) -> None:
    """Served from memory and offline: had the tracker not been refused first, the offline
    route would have refused it, so nothing leaves the machine either way."""
    page = tmp_path / "tracked.html"
    page.write_text(
        PAGE.replace(
            "</body>",
            '<script src="https://www.googletagmanager.com/gtag/js?id=G-1"></script>'
            '<img src="https://stats.g.doubleclick.net/pixel.gif" alt=""></body>',
        ),
        encoding="utf-8",
    )
    snapshot = renderer.render(str(page), options=RenderOptions(offline=True))
    # font, video, audio (if the browser asks for it), the tag manager and the pixel
    assert snapshot.timings["skipped_requests"] >= 4
    assert "Sentence 29 of the story" in extract(snapshot).text


@pytest.mark.parametrize(
    ("url", "tracker"),
    [
        ("https://www.google-analytics.com/analytics.js", True),
        ("https://connect.facebook.net/en_US/sdk.js", True),
        ("https://stats.g.doubleclick.net/r/collect", True),
        ("https://doubleclick.net.example.org/story", False),
        ("https://www.facebook.net/", False),  # only the SDK's host, not every facebook.net
        ("https://news.example.com/analytics.js", False),
    ],
)
def test_tracker_hosts(url: str, tracker: bool) -> None:
    assert is_tracker(url) is tracker
