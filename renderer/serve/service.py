"""Everything one running server holds, built from its ``ServeConfig``: the shared browser,
admission, worker, cache, metrics, reports and batches; started and closed together."""

from __future__ import annotations

from contextlib import suppress

from renderer.browser.options import RenderOptions
from renderer.serve.admission import Admission
from renderer.serve.batches import Batches
from renderer.serve.browser import SharedBrowser
from renderer.serve.cache import ResultCache
from renderer.serve.config import ServeConfig
from renderer.serve.metrics import Metrics
from renderer.serve.reports import MAX_REPORTS, BoundedStore
from renderer.serve.work import Worker


class Service:
    """The state behind every route of one server."""

    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        self.metrics = Metrics()
        self.admission = Admission(config.max_concurrent, config.queue)
        options = RenderOptions(
            budget=config.max_timeout,
            browser=config.browser,
            block_private=not config.allow_private,
        )
        self.browser = SharedBrowser(
            options, max_pages=config.max_concurrent, on_restart=self.metrics.browser_restarts.inc
        )
        self.worker = Worker(config, self.browser, self.admission)
        self.cache = (
            ResultCache(config.cache_dir, config.cache_ttl) if config.cache_dir is not None else None
        )
        self.reports: BoundedStore[str] = BoundedStore(MAX_REPORTS)
        self.batches = Batches(self.worker)

    async def start(self) -> None:
        """Start the browser before the first request, so the first answer is not slow and a
        missing Chromium stops the server at once."""
        await self.browser.start()

    async def close(self) -> None:
        await self.batches.close()
        await self.browser.close()
        if self.cache is not None:
            with suppress(Exception):
                self.cache.close()
