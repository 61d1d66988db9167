"""One extraction or comparison, as the request asked for it: the guard's check before any page
is taken, a page slot (``admission``), then the shared browser or the static path, exactly as
the CLI does them (``AsyncRenderer.capture``, ``static_snapshot``, ``extract``,
``compare_page``)."""

from __future__ import annotations

import asyncio
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from extractor import Extraction, ExtractOptions, extract
from renderer.browser.api import AsyncRenderer
from renderer.browser.options import RenderOptions
from renderer.fetch.addresses import check_url
from renderer.fetch.static import static_snapshot
from renderer.qa.compare import PNG_SIGNATURE, PageComparison, compare_page
from renderer.serve.admission import Admission
from renderer.serve.browser import SharedBrowser
from renderer.serve.config import ServeConfig
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
        return replace(self.browser.options, budget=job.timeout, wait_for=job.wait_for)

    def extract_options(self, job: Job) -> ExtractOptions:
        # A posted page is bounded by the body cap, a rendered snapshot by max_dom_bytes.
        limit = max(self.config.max_body_bytes, self.browser.options.max_dom_bytes)
        return job.extract_options(limit)

    async def vet(self, url: str) -> None:
        """The private-network guard before a page is taken: a refused target never costs a
        slot. The browser's own guard still vets every request and redirect hop."""
        if self.block_private:
            await asyncio.to_thread(check_url, url)

    async def extract(self, job: Job, *, queued: bool = True) -> Outcome:
        if job.url is not None and job.html is None:
            await self.vet(job.url)
        # A batch's pages wait as long as it takes: the batch bounds its own pages at once.
        async with self.admission.page(job.timeout if queued else None, queued=queued):
            if job.render:
                return await self.browser.run(lambda renderer: self._rendered(renderer, job))
            return Outcome(await asyncio.to_thread(self._static, job))

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
