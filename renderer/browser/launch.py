"""Finding and launching Chromium: one browser for many pages, a fresh context per page.

The executable is found in this order: an explicit path, ``READERMODE_CHROMIUM``, Debian's
chromium-headless-shell, /usr/bin/chromium, chromium-browser, google-chrome on PATH, then
Playwright's own managed browser (which ``playwright install`` would have downloaded; these
machines cannot).
"""

from __future__ import annotations

import asyncio
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.async_api import (
    Browser,
    BrowserContext,
    Playwright,
    ViewportSize,
    async_playwright,
)
from playwright.async_api import Error as PlaywrightError

from extractor import BrowserMissingError
from renderer.browser.options import RenderOptions
from renderer.fetch.controls import RequestControls, playwright_cookies

CHROMIUM_ENV = "READERMODE_CHROMIUM"
SYSTEM_CANDIDATES = (
    "/usr/bin/chromium-headless-shell",
    "chromium-headless-shell",
    "/usr/bin/chromium",
    "chromium",
    "chromium-browser",
    "google-chrome",
)
"""The headless shell first: the build Playwright runs headless pages in, without the full
browser's UI. A capture of an article-benchmark page cost it 0.28-0.33 s of browser CPU
against 0.89-0.91 s in full Chromium's headless mode (same version, same pages)."""

# Without the background-networking flags Chromium keeps trying to reach Google's services,
# which these machines refuse (and which a capture tool has no business doing anyway).
CHROMIUM_FLAGS = (
    "--headless",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--mute-audio",
    "--hide-scrollbars",
)

VIEWPORT: ViewportSize = {"width": 1280, "height": 900}
"""A common laptop viewport: lazy loaders and responsive layouts behave as for most readers."""

LAUNCH_TIMEOUT_MS = 90_000
"""How long Chromium may take to start. It starts in about 0.2 s on a quiet machine, but on
a 2-core machine at load average ~19 one start passed 30 s; a launch that fails is lost work,
a slow one only slow."""

CLOSE_WAIT_S = 1.0
"""How long a capture waits for its context to close. Closing a tab whose main thread is
stuck (an endless loop, a layout of a million elements) can take seconds: that is finished in
the background, so the capture still returns within its budget."""

SHUTDOWN_WAIT_S = 10.0
"""How long ``close`` waits for each of its steps: contexts still closing in the background,
the browser's close, the Playwright driver's stop. A step that takes longer is abandoned:
Chromium and the driver hang on pipes to this process and exit with it, and a Ctrl-C must
end the command (under heavy load a batch's close once waited over two minutes)."""


def find_chromium(explicit: str | None = None) -> str | None:
    """Path of the Chromium to use, or None when only Playwright's managed browser is left."""
    for candidate in (explicit, os.environ.get(CHROMIUM_ENV)):
        if candidate:
            path = shutil.which(candidate) or (candidate if Path(candidate).is_file() else None)
            if path is None:
                raise BrowserMissingError(f"browser not found: {candidate}")
            return path
    for candidate in SYSTEM_CANDIDATES:
        path = shutil.which(candidate)
        if path:
            return path
    return None


def launch_flags() -> list[str]:
    flags = list(CHROMIUM_FLAGS)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        flags.append("--no-sandbox")  # Chromium refuses to start its sandbox as root
    return flags


@dataclass
class BrowserHandle:
    """A running Playwright driver and Chromium; ``close`` stops both."""

    playwright: Playwright
    browser: Browser
    executable: str | None
    _closing: set[asyncio.Task[None]] = field(default_factory=set)

    async def new_context(self, options: RenderOptions | None = None) -> BrowserContext:
        """A fresh context with the request controls and viewport of ``options``."""
        controls = options.request if options is not None else RequestControls()
        size = options.viewport if options is not None else None
        extra: dict[str, Any] = {}
        if controls.user_agent:
            extra["user_agent"] = controls.user_agent
        if controls.locale:
            extra["locale"] = controls.locale
        if controls.proxy:
            extra["proxy"] = {"server": controls.proxy}
        if headers := controls.header_dict():
            extra["extra_http_headers"] = headers
        context = await self.browser.new_context(
            bypass_csp=True,  # our in-page scripts must run on pages with a strict CSP
            viewport={"width": size[0], "height": size[1]} if size else VIEWPORT,
            service_workers="block",  # a worker could answer from its cache behind our routes
            java_script_enabled=True,
            accept_downloads=False,  # a page cannot write files; a download is just cancelled
            **extra,
        )
        if controls.cookies:
            await context.add_cookies(playwright_cookies(controls.cookies))  # type: ignore[arg-type]
        return context

    async def dispose(self, context: BrowserContext) -> None:
        """Close a capture's context; wait at most ``CLOSE_WAIT_S``, then let it finish in
        the background (``close`` waits for it). Never raises."""
        task = asyncio.ensure_future(_close_quietly(context))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)
        await asyncio.wait({task}, timeout=CLOSE_WAIT_S)

    async def close(self) -> None:
        """Close the browser and stop Playwright, each step bounded by ``SHUTDOWN_WAIT_S``."""
        try:
            if self._closing:
                await asyncio.wait(set(self._closing), timeout=SHUTDOWN_WAIT_S)
            await asyncio.wait_for(self.browser.close(), timeout=SHUTDOWN_WAIT_S)
        except (PlaywrightError, TimeoutError):
            pass  # already gone, or stuck: stopping the driver below ends it
        finally:
            try:
                await asyncio.wait_for(self.playwright.stop(), timeout=SHUTDOWN_WAIT_S)
            except TimeoutError:
                pass  # the driver exits when this process closes its pipe


async def _close_quietly(context: BrowserContext) -> None:
    try:
        await context.close()
    except PlaywrightError:
        pass  # already closed, or the browser is gone


async def launch_browser(executable: str | None = None) -> BrowserHandle:
    """Start Playwright and Chromium; BrowserMissingError when no browser can be started."""
    path = find_chromium(executable)
    playwright = await async_playwright().start()
    try:
        browser = await playwright.chromium.launch(
            executable_path=path,
            args=launch_flags(),
            headless=True,
            timeout=LAUNCH_TIMEOUT_MS,
        )
    except PlaywrightError as exc:
        await playwright.stop()
        where = path or "Playwright's managed Chromium"
        hint = "install it with: apt-get install -y chromium" if path is None else ""
        raise BrowserMissingError(
            f"cannot start {where}: {str(exc).splitlines()[0]} {hint}".strip()
        ) from exc
    return BrowserHandle(playwright=playwright, browser=browser, executable=path)
