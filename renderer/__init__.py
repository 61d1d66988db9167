"""readermode's capture side: rendering pages in Chromium (or fetching them statically) and the CLI.

The renderer imports the extractor and never the other way round.
"""

from ._api import AsyncRenderer, Renderer, capture, capture_async, render, render_async
from ._batch import BatchOptions, BatchSummary, PageRecord, run_batch
from ._browser import find_chromium
from ._fetch import FetchedPage, fetch_url
from ._options import RenderOptions
from ._static import static_snapshot

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
