"""The capture's phases without a browser: the hard stop covers everything that may run past
the budget, what ``snapshot.js`` reports about a failed walk reaches the warnings, and which
pending timers a settling page is waited for."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from extractor import LimitExceededError
from renderer import RenderOptions
from renderer.browser import extras
from renderer.browser.guard import VERIFY_TIMEOUT_S
from renderer.browser.page import HARD_STOP_GRACE_S
from renderer.browser.session import Deadline, awaited_timers
from renderer.browser.snapshot import snapshot_warnings


class _NeverAnswers:
    """A page (and CDP session) whose every call would hang: the extras' own timeouts decide."""

    url = "https://example.com/"

    async def evaluate(self, *_: object) -> None:
        await asyncio.Event().wait()

    async def screenshot(self, **_: object) -> None:
        await asyncio.Event().wait()

    async def send(self, *_: object) -> None:
        await asyncio.Event().wait()


class _Context:
    async def new_cdp_session(self, _page: object) -> _NeverAnswers:
        return _NeverAnswers()


class _Session:
    def __init__(self, deadline: Deadline) -> None:
        self.page = _NeverAnswers()
        self.deadline = deadline
        self.timings: dict[str, float] = {}

    def mark(self, name: str, since: float) -> None:
        self.timings[name] = since


def test_the_hard_stop_outlasts_every_extra_run_after_a_spent_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Reader View, screenshot and MHTML on a page that never answers, once the budget is
    spent: the time they are given, plus the guard's last check, ends before the hard stop
    (which would otherwise turn a finished capture into BudgetExceededError)."""
    given: list[float] = []
    now = [100.0]

    async def wait_for(awaitable: Coroutine[Any, Any, Any], timeout: float) -> Any:
        given.append(timeout)
        now[0] += timeout  # the call hangs until its timeout
        awaitable.close()
        raise TimeoutError

    monkeypatch.setattr(extras.asyncio, "wait_for", wait_for)
    monkeypatch.setattr(extras, "readability_expression", lambda: "() => null")
    deadline = Deadline(0.0, clock=lambda: now[0])  # spent
    session: Any = _Session(deadline)
    page: Any = _NeverAnswers()

    async def run_extras() -> list[str | None]:
        _, reader_view = await extras.run_reader_view(session)
        screenshot = await extras.save_screenshot(page, "/nonexistent/shot.png", deadline)
        mhtml = await extras.save_mhtml(_Context(), page, "/nonexistent/page.mhtml", deadline)  # type: ignore[arg-type]
        return [reader_view, screenshot, mhtml]

    # On a thread of its own: pytest-playwright's sync API may keep a loop running on this one.
    with ThreadPoolExecutor(1) as pool:
        problems = pool.submit(asyncio.run, run_extras()).result()
    assert len(given) == 3 and all(problem for problem in problems)
    assert sum(given) + VERIFY_TIMEOUT_S < HARD_STOP_GRACE_S


def _snap(**stats: object) -> dict[str, Any]:
    return {"html": "<html><body><p>text</p></body></html>", "stats": stats}


def test_a_failed_snapshot_walk_is_a_warning() -> None:
    warnings = snapshot_warnings(
        _snap(failed="TypeError: document.head is a trap"), RenderOptions(), "https://x/"
    )
    assert len(warnings) == 1
    assert "snapshot walk failed" in warnings[0] and "document.head is a trap" in warnings[0]


def test_elements_the_walk_could_not_read_are_counted_in_a_warning() -> None:
    warnings = snapshot_warnings(_snap(errors=3), RenderOptions(), "https://x/")
    assert warnings == [
        "snapshot: 3 element(s) could not be read whole (visibility, attributes or children) "
        "and were kept as they are"
    ]


def test_a_clean_snapshot_has_no_warning_and_caps_still_apply() -> None:
    assert snapshot_warnings(_snap(errors=0, elements=3), RenderOptions(), "https://x/") == []
    options = RenderOptions(max_elements=2)
    assert snapshot_warnings(_snap(truncated=True, truncatedBy="elements"), options, "u") == [
        "partial: the snapshot stopped at max_elements=2 elements"
    ]
    with pytest.raises(LimitExceededError):
        snapshot_warnings(_snap(failed="x"), RenderOptions(max_dom_bytes=10), "https://x/")


def test_a_page_exception_message_is_clipped_to_one_line() -> None:
    (warning,) = snapshot_warnings(_snap(failed="a\nb " + "c" * 500), RenderOptions(), "u")
    assert "\n" not in warning and len(warning) < 300


@pytest.mark.parametrize(
    ("state", "awaited"),
    [
        ({"timers": 3, "longTimers": 2, "hasArticle": False}, 3),  # a skeleton: wait for all
        ({"timers": 3, "longTimers": 2, "hasArticle": True}, 1),  # an article: the short one
        ({"timers": 1, "longTimers": 0, "hasArticle": None}, 1),
        ({}, 0),
    ],
)
def test_long_timers_are_waited_for_only_while_the_page_has_no_article(
    state: dict[str, object], awaited: int
) -> None:
    assert awaited_timers(state) == awaited
