"""Browser proof: the corpus of fixtures/xss, sanitised, runs nothing in Chromium.

Every vector's payload calls ``__xss(id)`` (a binding Playwright puts in every frame), posts
``"xss:id"`` to its parent, or opens a dialog; the page records all three. Each document goes
into a ``srcdoc`` frame of its own (so a vector's ``<base>`` or refresh stays in its frame), every
element is focused, hovered, pressed and clicked, and after a short wait nothing may have run.

The control test loads the raw vectors the same way and asserts that each vector the corpus
marks ``fires`` did fire: the hook is live and the interaction reaches the vectors, so the real
tests would fail if the sanitiser were switched off.

Nothing leaves the machine: every request is aborted, and clicks on http(s)/mailto links are
cancelled (a javascript: link is not, which is the point).
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable, Iterable

import pytest
from playwright.sync_api import Dialog, Page, Route

from extractor import html_to_markdown, sanitize_html
from extractor._sanitize import inert_page_html
from tests.unit.test_xss_corpus import (
    PATHS,
    VECTORS,
    Vector,
    article_page,
    corpus_report,
    extraction,
    markdown_as_html,
    vector_document,
)

SETTLE_MS = 600
"""How long to wait after the interaction for late payloads (frame loads, animations)."""
UNTIL_S = 60.0
"""Backstop for a run waiting for payloads it expects: a pass ends as soon as they fired."""

# Installed in every frame before its own scripts: turn payload messages into hook calls and
# keep real navigation (http, https, mailto, forms that would post) from leaving the page.
GUARD = """
(() => {
  addEventListener('message', (event) => {
    const data = String(event.data);
    if (data.startsWith('xss:')) window.__xss(Number(data.slice(4)));
  });
  const inert = /^(https?|mailto|file|ftp|ws|wss):$/;
  addEventListener('click', (event) => {
    const link = event.target.closest && event.target.closest('a[href], area[href]');
    if (link && inert.test(link.protocol || '')) event.preventDefault();
  }, true);
  addEventListener('submit', (event) => {
    const submitter = event.submitter;
    const target = submitter && submitter.hasAttribute('formaction')
      ? submitter.formAction : event.target.action;
    if (!/^\\s*javascript:/i.test(target)) event.preventDefault();
  }, true);
})();
"""

# Run in every frame: do to each element what a reader might (focus, hover, press, click).
INTERACT = """
() => {
  const mouse = ['pointerover', 'pointerenter', 'mouseover', 'mouseenter', 'mousemove',
                 'pointerdown', 'mousedown', 'pointerup', 'mouseup'];
  for (const element of Array.from(document.querySelectorAll('*'))) {
    try { element.focus && element.focus(); } catch (e) {}
    for (const type of mouse) {
      try { element.dispatchEvent(new MouseEvent(type, {bubbles: true, cancelable: true})); }
      catch (e) {}
    }
    try {
      if (typeof element.click === 'function') element.click();
      else element.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true}));
    } catch (e) {}
  }
}
"""


class Hook:
    """What ran in a page: ids passed to ``__xss`` and dialog messages."""

    def __init__(self, page: Page) -> None:
        self.fired: list[str] = []
        page.expose_function("__xss", lambda number: self.fired.append(str(number)))
        page.on("dialog", self._dialog)
        page.add_init_script(GUARD)
        page.route("**/*", self._abort)

    def _dialog(self, dialog: Dialog) -> None:
        self.fired.append(f"dialog:{dialog.message}")
        dialog.dismiss()

    @staticmethod
    def _abort(route: Route) -> None:
        route.abort()

    def ids(self) -> set[int]:
        return {int(item.split(":")[-1]) for item in self.fired if item.split(":")[-1].isdigit()}


def frames_page(documents: Iterable[str]) -> str:
    """A page with each document in a srcdoc frame of its own."""
    frames = "".join(
        f'<iframe srcdoc="{html.escape(document, quote=True)}"></iframe>' for document in documents
    )
    return f"<!DOCTYPE html><html><head><title>xss</title></head><body>{frames}</body></html>"


def run(
    page: Page, hook: Hook, content: str, until: Callable[[], bool] | None = None
) -> list[str]:
    """Load ``content``, interact with every element of every frame, wait; what fired.

    With ``until``, wait for that instead of SETTLE_MS (up to UNTIL_S, a backstop): a test
    that expects payloads to fire must not depend on how fast a busy machine runs them."""
    page.set_content(content, wait_until="domcontentloaded", timeout=8_000)
    page.wait_for_timeout(SETTLE_MS // 2)
    for frame in list(page.frames):
        try:
            frame.evaluate(INTERACT)
        except Exception:  # a frame that navigated away (a payload did it) or went away
            continue
    page.wait_for_timeout(SETTLE_MS)
    end = time.monotonic() + UNTIL_S
    while until is not None and not until() and time.monotonic() < end:
        page.wait_for_timeout(100)  # lets Playwright deliver the hook's calls meanwhile
    return list(hook.fired)


@pytest.fixture
def hook(page: Page) -> Hook:
    return Hook(page)


def raw_document(vector: Vector) -> str:
    return f"<!DOCTYPE html><html><body><p>Before {vector.html} after.</p></body></html>"


def test_control_raw_vectors_do_fire(page: Page, hook: Hook) -> None:
    """Without the sanitiser the payloads run: the hook and the interaction work."""
    expected = {vector.id for vector in VECTORS if vector.fires}
    run(
        page,
        hook,
        frames_page(raw_document(vector) for vector in VECTORS),
        until=lambda: expected <= hook.ids(),
    )
    missing = expected - hook.ids()
    assert not missing, f"marked 'fires' but did not: {sorted(missing)}"
    unexpected = hook.ids() - expected
    assert not unexpected, f"fired but not marked 'fires' in the corpus: {sorted(unexpected)}"


def test_saved_page_made_inert_runs_nothing(page: Page, hook: Hook) -> None:
    """--save-html keeps the page's own markup (it is a capture, not content); with the policy
    inert_page_html puts first in its head, the raw vectors in it run nothing."""
    fired = run(page, hook, frames_page(inert_page_html(article_page(v)) for v in VECTORS))
    assert not fired, f"payloads ran: {sorted(set(fired))}"


def sanitised_document(vector: Vector) -> str:
    """Everything readermode emits for one vector: the bare vector sanitised, the whole page
    sanitised as a document, the HTML of every extraction path, and each path's Markdown
    rendered by a renderer that passes raw HTML and every link scheme through."""
    bare = sanitize_html(vector.html)
    # The whole-page document lands in a <section>, so its own CSP meta is ignored (in a body)
    # and only the sanitiser protects it.
    parts = [bare, markdown_as_html(html_to_markdown(bare)), vector_document(vector)]
    for path in PATHS:
        result = extraction(vector, path)
        parts.append(result.html)
        parts.append(markdown_as_html(result.markdown))
    return "".join(f"<section>{part}</section>" for part in parts)


def test_sanitised_outputs_run_nothing(page: Page, hook: Hook) -> None:
    fired = run(page, hook, frames_page(sanitised_document(vector) for vector in VECTORS))
    assert not fired, f"payloads ran: {sorted(set(fired))}"


def test_report_runs_nothing_even_without_its_csp(page: Page, hook: Hook) -> None:
    """The report of the whole corpus. Its Content-Security-Policy alone would block every
    script, so it is taken out: this proves the sanitiser, not the CSP."""
    report = corpus_report()
    without_csp = report.replace('http-equiv="Content-Security-Policy"', 'name="removed-csp"')
    assert without_csp != report
    fired = run(page, hook, without_csp)
    assert not fired, f"payloads ran: {sorted(set(fired))}"
