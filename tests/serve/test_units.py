"""The service's pieces that need no server: admission, the error table, the token check."""

from __future__ import annotations

import asyncio
import json

import pytest

from extractor import (
    BlockedAddressError,
    BudgetExceededError,
    ContentTooShortError,
    HTTPStatusError,
    InputTooLargeError,
    ReadermodeError,
    RenderError,
    RobotsDisallowedError,
)
from renderer.serve.admission import Admission
from renderer.serve.auth import token_matches
from renderer.serve.errors import ServiceError, error_response, http_status
from tests.unit.test_batch import run_async


def test_admission_queues_then_refuses_then_drains() -> None:
    async def scenario() -> None:
        admission = Admission(max_concurrent=1, queue=1)
        release = asyncio.Event()
        entered = asyncio.Event()

        async def hold(queued: bool = True) -> None:
            async with admission.page(None, queued=queued):
                entered.set()
                await release.wait()

        running = asyncio.create_task(hold())
        await entered.wait()
        waiting = asyncio.create_task(hold())
        while admission.waiting != 1:
            await asyncio.sleep(0)
        with pytest.raises(ServiceError) as full:
            async with admission.page(None):
                pass
        assert full.value.status == 429 and int(full.value.headers["Retry-After"]) >= 1
        batch_page = asyncio.create_task(hold(queued=False))  # waits its turn, never refused
        await asyncio.sleep(0)
        assert not batch_page.done() and admission.waiting == 1
        admission.draining = True
        with pytest.raises(ServiceError) as draining:
            async with admission.page(None):
                pass
        assert draining.value.status == 503 and draining.value.kind == "ShuttingDown"
        release.set()
        await asyncio.gather(running, waiting, batch_page)
        assert (admission.running, admission.waiting) == (0, 0)

    run_async(scenario())  # a fresh loop: pytest-playwright may run one in this thread


def test_a_request_waits_in_the_queue_no_longer_than_its_budget() -> None:
    async def scenario() -> None:
        admission = Admission(max_concurrent=1, queue=5)
        async with admission.page(None):
            with pytest.raises(BudgetExceededError):
                async with admission.page(0.01):
                    pass
        assert admission.waiting == 0

    run_async(scenario())  # a fresh loop: pytest-playwright may run one in this thread


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (BlockedAddressError("x"), 403),
        (RobotsDisallowedError("robots.txt disallows http://h/p for readermode"), 403),
        (RenderError("the browser failed"), 502),
        (InputTooLargeError(10, 5), 413),
        (BudgetExceededError("x"), 504),
        (HTTPStatusError(404, "http://x/"), 502),
        (ContentTooShortError(3, 10), 422),
        (ReadermodeError("x"), 500),
    ],
)
def test_error_statuses(error: ReadermodeError, status: int) -> None:
    assert http_status(error) == status


def test_robots_refusal_is_its_own_kind_and_code_in_one_line() -> None:
    refusal = RobotsDisallowedError("robots.txt disallows http://h/p for readermode")
    answer = error_response(refusal)
    assert answer.status_code == 403
    assert json.loads(answer.body) == {
        "error": {
            "kind": "RobotsDisallowedError",
            "message": "robots.txt disallows http://h/p for readermode",
            "exit_code": 20,
        }
    }
    assert isinstance(refusal, RenderError)  # in the tree, under RenderError (9)
    codes = {cls.exit_code for cls in _tree(ReadermodeError) if cls is not RobotsDisallowedError}
    assert RobotsDisallowedError.exit_code not in codes  # its own


def _tree(cls: type[ReadermodeError]) -> list[type[ReadermodeError]]:
    return [cls, *(sub for child in cls.__subclasses__() for sub in _tree(child))]


def test_token_check() -> None:
    assert token_matches("Bearer abc", "abc") and token_matches("bearer abc", "abc")
    assert not token_matches("Bearer abd", "abc") and not token_matches("abc", "abc")
    assert not token_matches(None, "abc") and not token_matches("Basic abc", "abc")


def test_cache_entries_expire_after_their_ttl(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    from renderer.serve import cache as cache_module

    now = [1_000_000.0]
    monkeypatch.setattr(cache_module.time, "time", lambda: now[0])
    cache = cache_module.ResultCache(tmp_path, ttl=60)
    try:
        cache._put("k", "text/markdown", b"body")
        hit = cache._get("k")
        assert hit is not None and hit.body == b"body" and hit.age == 0
        now[0] += 59
        assert cache._get("k") is not None
        now[0] += 2
        assert cache._get("k") is None
    finally:
        cache.close()
    reopened = cache_module.ResultCache(tmp_path, ttl=60)  # the expired entry is dropped at start
    try:
        assert reopened._db.execute("SELECT COUNT(*) FROM answers").fetchone() == (0,)
    finally:
        reopened.close()
