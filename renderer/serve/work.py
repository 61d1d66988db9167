"""One extraction or comparison, as the request asked for it: the guard's check before any page
is taken, a page slot (``admission``), then the shared browser or the static path, exactly as
the CLI does them (``AsyncRenderer.capture``, ``static_snapshot``, ``extract``,
``compare_page``).

The shared browser's contexts are opened ahead with the server's options, so a request with
controls of its own (User-Agent, headers, cookies, proxy, locale, viewport: ``controls.py``)
is rendered in a browser of its own, started for it (or for its batch) and closed after;
``wait_for`` and ``actions`` belong to the page and run on the shared browser."""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Awaitable
from dataclasses import dataclass, replace
from pathlib import Path

from playwright.async_api import Error as PlaywrightError

from extractor import Extraction, ExtractOptions, RenderError, extract
from renderer.browser.api import AsyncRenderer
from renderer.browser.options import RenderOptions
from renderer.fetch.addresses import AddressGuard, check_url
from renderer.fetch.static import static_snapshot
from renderer.qa.compare import PNG_SIGNATURE, PageComparison, compare_page
from renderer.serve.admission import Admission
from renderer.serve.browser import SharedBrowser
from renderer.serve.config import ServeConfig
from renderer.serve.controls import vetted_proxy
from renderer.serve.limits import Job

PAGE_NAME = "page.html"
"""The file a posted page is served to the browser from (at its ``url``, or readermode's own
never-resolved origin)."""


@dataclass(frozen=True)
class Outcome:
    extraction: Extraction
    screenshot: bytes | None = None


def _png(path: Path) -> bytes | None:
    if path.is_file() and path.read_bytes()[:8] == PNG_SIGNATURE:
        return path.read_bytes()
    return None


class Worker:
    """Runs jobs on the service's shared browser under its admission control."""

    def __init__(self, config: ServeConfig, browser: SharedBrowser, admission: Admission) -> None:
        self.config = config
        self.browser = browser
        self.admission = admission

    @property
    def block_private(self) -> bool:
        return not self.config.allow_private

    def render_options(self, job: Job) -> RenderOptions:
        controls = job.controls
        return replace(
            self.browser.options,
            budget=job.timeout,
            wait_for=job.wait_for,
            actions=controls.actions,
            request=controls.request,
            viewport=controls.viewport or self.browser.options.viewport,
        )

    def extract_options(self, job: Job) -> ExtractOptions:
        # A posted page is bounded by the body cap, a rendered snapshot by max_dom_bytes.
        limit = max(self.config.max_body_bytes, self.browser.options.max_dom_bytes)
        return job.extract_options(limit)

    async def vet(self, url: str) -> None:
        """The private-network guard before a page is taken: a refused target never costs a
        slot. The browser's own guard still vets every request and redirect hop."""
        if self.block_private:
            await asyncio.to_thread(check_url, url)

    async def vetted(self, job: Job) -> Job:
        """``job`` with its target and its proxy through the guard (when it is on): the proxy
        is then the address that was vetted, so no second lookup can rebind it."""
        if job.url is not None and job.html is None:
            await self.vet(job.url)
        request = job.controls.request
        if not self.block_private or not request.proxy:
            return job
        proxied = await asyncio.to_thread(vetted_proxy, request, AddressGuard())
        return replace(job, controls=replace(job.controls, request=proxied))

    def own_browser(self, job: Job, *, max_pages: int = 1) -> AsyncRenderer:
        """A browser with ``job``'s context controls (not started; the caller closes it)."""
        return AsyncRenderer(self.render_options(job), max_pages=max_pages)

    async def extract(
        self, job: Job, *, queued: bool = True, renderer: AsyncRenderer | None = None
    ) -> Outcome:
        """One page; ``renderer``: the browser of the batch's own controls, else the shared
        one (or, with context controls, one started for this page)."""
        job = await self.vetted(job)
        # A batch's pages wait as long as it takes: the batch bounds its own pages at once.
        async with self.admission.page(job.timeout if queued else None, queued=queued):
            if not job.render:
                return Outcome(await asyncio.to_thread(self._static, job))
            if renderer is None and not job.controls.own_context:
                return await self.browser.run(lambda shared: self._rendered(shared, job))
            if renderer is not None:
                return await _unshared(self._rendered(renderer, job))
            async with self.own_browser(job) as own:
                return await _unshared(self._rendered(own, job))

    async def _rendered(self, renderer: AsyncRenderer, job: Job) -> Outcome:
        options = self.render_options(job)
        with tempfile.TemporaryDirectory(prefix="readermode-serve-") as scratch:
            folder = Path(scratch)
            if "screenshot" in job.formats:
                options = replace(options, screenshot=str(folder / "page.png"))
            target = job.url or ""
            if job.html is not None:
                target = str(folder / PAGE_NAME)
                Path(target).write_text(job.html, encoding="utf-8")
            extraction = await renderer.capture(
                target,
                url=job.url if job.html is not None else None,
                options=options,
                extract_options=self.extract_options(job),
            )
            return Outcome(extraction, _png(folder / "page.png"))

    def _static(self, job: Job) -> Extraction:
        options = self.extract_options(job)
        if job.html is not None:
            return extract(job.html, url=job.url, options=options)
        assert job.url is not None
        snapshot = static_snapshot(
            job.url,
            timeout=job.timeout,
            max_bytes=self.config.max_body_bytes,
            max_redirects=self.browser.options.max_redirects,
            block_private=self.block_private,
            controls=job.controls.request,
        )
        return extract(snapshot, options=options)

    async def compare(self, job: Job) -> PageComparison:
        """Reader View against readermode on one rendered page, with its screenshot."""
        assert job.url is not None
        await self.vet(job.url)
        async with self.admission.page(job.timeout):
            return await self.browser.run(
                lambda renderer: compare_page(
                    renderer,
                    job.url or "",
                    options=self.render_options(job),
                    extract_options=self.extract_options(job),
                    screenshot=True,
                )
            )


async def _unshared(capture: Awaitable[Outcome]) -> Outcome:
    """A capture in a browser of its own: a Playwright failure is the tree's RenderError."""
    try:
        return await capture
    except PlaywrightError as exc:
        first = (str(exc).splitlines() or [type(exc).__name__])[0]
        raise RenderError(f"the browser failed: {first}") from exc
