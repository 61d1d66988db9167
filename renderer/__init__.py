"""readermode's capture side: getting a page (statically today, in Chromium next) and the CLI.

The renderer imports the extractor and never the other way round.
"""

from ._fetch import FetchedPage, fetch_url
from ._static import static_snapshot

__all__ = ["FetchedPage", "fetch_url", "static_snapshot"]
