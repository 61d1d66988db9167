"""BrowserHandle.close is bounded: a browser or driver that never finishes closing cannot hold
the command (a Ctrl-C must end a batch). Fakes stand in for Playwright here: what is tested is
our shutdown's bound, with a clock of the test's choosing (SHUTDOWN_WAIT_S set small)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import renderer.browser.launch as launch
from renderer.browser.launch import BrowserHandle


class Stuck:
    """A close or stop that never returns until the test's event is set."""

    def __init__(self, released: asyncio.Event) -> None:
        self.released = released
        self.calls = 0

    async def close(self) -> None:
        self.calls += 1
        await self.released.wait()

    async def stop(self) -> None:
        self.calls += 1
        await self.released.wait()


def test_close_returns_when_the_browser_and_the_driver_never_finish(monkeypatch) -> None:
    monkeypatch.setattr(launch, "SHUTDOWN_WAIT_S", 0.01)

    async def scenario() -> tuple[int, int]:
        released = asyncio.Event()  # never set: both steps would wait forever
        browser, driver = Stuck(released), Stuck(released)
        handle = BrowserHandle(playwright=driver, browser=browser, executable=None)  # type: ignore[arg-type]
        await handle.close()
        return browser.calls, driver.calls

    # On a thread of its own: pytest-playwright's sync API may keep a loop running on this one.
    with ThreadPoolExecutor(1) as pool:
        calls = pool.submit(asyncio.run, scenario()).result()
    # Both steps were tried, and close() came back although neither ever finished.
    assert calls == (1, 1)
