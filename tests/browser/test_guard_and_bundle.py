"""The private-network guard as wired into captures, and capture bundles, end to end."""

from __future__ import annotations

import json
from pathlib import Path

import lxml.html
import pytest

from extractor import BlockedAddressError
from renderer import Renderer, RenderOptions
from tests.browser.test_cli_render import readermode
from tests.conftest import FIXTURES

DEMO = FIXTURES / "demo" / "article.html"

BACKSTOP_S = 30.0
"""Budget of the captures here: they end when the page settles; a loaded machine must not make
them partial. (The bundle test uses 31 s, so its manifest shows the value given, not a default.)"""

SAME_RESULT_FIELDS = ("url", "title", "text", "html", "markdown", "stage", "date_published")


def test_library_default_refuses_a_loopback_page(spa_server: str) -> None:
    with Renderer(RenderOptions(budget=BACKSTOP_S)) as guarded:  # block_private is on by default
        with pytest.raises(BlockedAddressError, match="loopback"):
            guarded.render(f"{spa_server}hydration/index.html")
        # The same browser still renders a page served from memory: no network is involved.
        snapshot = guarded.render(
            str(DEMO),
            url="https://news.example/article.html",
            options=RenderOptions(budget=BACKSTOP_S, offline=True),
        )
    assert "<p" in snapshot.html and snapshot.final_url == "https://news.example/article.html"


@pytest.mark.parametrize("mode", [(), ("--no-render",)])
def test_cli_block_private_is_exit_16(spa_server: str, mode: tuple[str, ...]) -> None:
    url = f"{spa_server}hydration/index.html"
    result = readermode(url, "--block-private", "--timeout", "30", *mode)
    stderr = result.stderr.decode()
    assert result.returncode == BlockedAddressError.exit_code, stderr
    assert len(stderr.strip().splitlines()) == 1 and "--allow-private" in stderr
    allowed = readermode(url, "--timeout", "30", *mode)  # the CLI's default allows it
    assert allowed.returncode == 0, allowed.stderr.decode()


def test_bundle_written_and_re_extracted_offline(spa_server: str, tmp_path: Path) -> None:
    bundle = tmp_path / "bundle"
    url = f"{spa_server}hydration/index.html"
    captured = readermode(url, "--bundle", str(bundle), "-f", "json", "--timeout", "31")
    assert captured.returncode == 0, captured.stderr.decode()
    names = {path.name for path in bundle.iterdir()}
    assert names >= {
        "snapshot.json",
        "snapshot.html",
        "page.mhtml",
        "screenshot.png",
        "extraction.json",
        "content.md",
        "manifest.json",
    }
    manifest = json.loads((bundle / "manifest.json").read_text())
    assert manifest["versions"]["chromium"] and manifest["versions"]["readability.js"]
    assert manifest["versions"]["readermode"] and manifest["versions"]["lxml"]
    assert manifest["render_options"]["budget"] == 31
    assert set(manifest["files"]) >= {"page.mhtml", "screenshot.png", "snapshot.json"}
    assert "total" in manifest["timings"]
    assert (bundle / "screenshot.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    mhtml = (bundle / "page.mhtml").read_text(errors="replace")
    assert "MIME-Version" in mhtml and "multipart/related" in mhtml
    viewable = lxml.html.fromstring((bundle / "snapshot.html").read_text())
    assert not viewable.xpath("//script | //@*[starts-with(name(), 'on')]")

    first = json.loads(captured.stdout)
    again = readermode(str(bundle), "--from-bundle", "-f", "json")
    assert again.returncode == 0, again.stderr.decode()
    second = json.loads(again.stdout)
    assert first["stage"] == "readability-js"
    for field in SAME_RESULT_FIELDS:
        assert second[field] == first[field], field
    assert json.loads((bundle / "extraction.json").read_text())["text"] == first["text"]


def test_batch_bundles_one_folder_per_page(spa_server: str, tmp_path: Path) -> None:
    pages = [f"{spa_server}hydration/index.html", f"{spa_server}json-render/index.html"]
    result = readermode(*pages, "--bundle", str(tmp_path / "b"), "--no-sitewide", "--jobs", "2")
    assert result.returncode == 0, result.stderr.decode()
    folders = sorted(path for path in (tmp_path / "b").iterdir())
    assert len(folders) == 2
    for folder in folders:
        assert (folder / "manifest.json").is_file() and (folder / "page.mhtml").is_file()
