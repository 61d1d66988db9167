"""The web page at ``/``, in a real browser (pytest-playwright on Debian's Chromium), against
a real ``readermode serve``: fill the form, submit, see the article; errors as a message."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.serve.harness import FixtureServer, ServeProcess, start_serve

pytestmark = pytest.mark.browser

DEMO_TITLE = "How Lanthorn Vale switched off its streetlights and got its stars back"
TIMEOUT_MS = 120_000
"""Backstop for what the page waits on (a render on a loaded machine), never a timing."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    process = start_serve(tmp_path_factory.mktemp("serve-page"), "--allow-private")
    yield process
    assert process.stop() == 0


def test_paste_a_url_and_read_the_article(
    page: Page, server: ServeProcess, pages: FixtureServer
) -> None:
    page.goto(server.base + "/")
    expect(page.locator("#private-banner")).to_be_visible(timeout=TIMEOUT_MS)  # --allow-private
    page.fill("#url", f"{pages.base}/demo/")
    page.check("#screenshot")
    page.click("#submit")
    expect(page.locator("#title")).to_have_text(DEMO_TITLE, timeout=TIMEOUT_MS)
    expect(page.locator("#tab-article")).to_contain_text("Milky Way")
    assert page.locator("#tab-article script").count() == 0
    page.click("button[data-tab=markdown]")
    expect(page.locator("#tab-markdown")).to_contain_text("## What the town actually changed")
    page.click("button[data-tab=trace]")
    expect(page.locator("#tab-trace")).to_contain_text("readability-js")
    page.click("button[data-tab=metadata]")
    expect(page.locator("#tab-metadata")).to_contain_text("2024-11-14")
    page.click("button[data-tab=shot]")
    assert page.locator("#shot").get_attribute("src").startswith("data:image/png;base64,")


def test_paste_html_and_compare(page: Page, server: ServeProcess, pages: FixtureServer) -> None:
    page.goto(server.base + "/")
    page.fill("#html", "<article><h1>Pasted</h1>" + "<p>Pasted words about lighthouses and their keepers.</p>" * 4 + "</article>")
    page.click("#submit")
    expect(page.locator("#title")).to_have_text("Pasted", timeout=TIMEOUT_MS)
    page.fill("#html", "")
    page.fill("#url", f"{pages.base}/demo/")
    page.click("#compare")
    expect(page.locator("#report-scores")).to_contain_text("F1", timeout=TIMEOUT_MS)
    report = page.frame_locator("#report-frame")
    expect(report.locator("body")).to_contain_text(DEMO_TITLE, timeout=TIMEOUT_MS)


def test_an_error_shows_as_a_message(page: Page, server: ServeProcess, pages: FixtureServer) -> None:
    page.goto(server.base + "/")
    page.fill("#url", f"{pages.base}/no-such-page")
    page.uncheck("#render")
    page.click("#submit")
    error = page.locator("#error")
    expect(error).to_be_visible(timeout=TIMEOUT_MS)
    expect(error).to_contain_text("HTTPStatusError: HTTP 404")
    assert "Traceback" not in error.inner_text()
    expect(page.locator("#result")).to_be_hidden()


def test_the_docs_are_swagger_ui_on_our_openapi(page: Page, server: ServeProcess) -> None:
    page.goto(server.base + "/docs")
    operations = page.locator(".swagger-ui .opblock-summary-path")
    expect(operations.filter(has_text="/v1/extract")).to_have_count(1, timeout=TIMEOUT_MS)
    expect(operations.filter(has_text="/v1/batch/{batch_id}")).to_have_count(1)
    expect(page.locator("#docs-missing")).to_be_hidden()
