"""readermode's capture side: rendering pages in Chromium (or fetching them statically), batch
capture, Reader View QA and the CLI. It imports the extractor, never the other way round.

Sub-packages, each importing only those before it (``docs/architecture.md``)::

    extractor  <-  renderer.fetch  <-  renderer.browser  <-  renderer.batch, renderer.qa  <-  renderer.cli

The names below are loaded when first used (PEP 562), so ``import renderer`` and the static
path do not load Playwright.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from renderer.batch.runner import BatchOptions, BatchSummary, PageRecord, run_batch
    from renderer.browser.api import (
        AsyncRenderer,
        Renderer,
        capture,
        capture_async,
        render,
        render_async,
    )
    from renderer.browser.launch import find_chromium
    from renderer.browser.options import RenderOptions
    from renderer.fetch.http import FetchedPage, fetch_url
    from renderer.fetch.static import static_snapshot

_EXPORTS = {
    "AsyncRenderer": "renderer.browser.api",
    "Renderer": "renderer.browser.api",
    "capture": "renderer.browser.api",
    "capture_async": "renderer.browser.api",
    "render": "renderer.browser.api",
    "render_async": "renderer.browser.api",
    "find_chromium": "renderer.browser.launch",
    "RenderOptions": "renderer.browser.options",
    "BatchOptions": "renderer.batch.runner",
    "BatchSummary": "renderer.batch.runner",
    "PageRecord": "renderer.batch.runner",
    "run_batch": "renderer.batch.runner",
    "FetchedPage": "renderer.fetch.http",
    "fetch_url": "renderer.fetch.http",
    "static_snapshot": "renderer.fetch.static",
}

__all__ = [
    "AsyncRenderer",
    "BatchOptions",
    "BatchSummary",
    "FetchedPage",
    "PageRecord",
    "RenderOptions",
    "Renderer",
    "capture",
    "capture_async",
    "fetch_url",
    "find_chromium",
    "render",
    "render_async",
    "run_batch",
    "static_snapshot",
]


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'renderer' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next lookup does not come here again
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])
