"""The server's settings, from the command line: one frozen value shared by every module."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from extractor import DEFAULT_MAX_BYTES
from renderer.browser.options import DEFAULT_BUDGET_S

DEFAULT_HOST = "127.0.0.1"
"""Loopback unless told otherwise: a service that renders any URL must be exposed on purpose."""
DEFAULT_PORT = 8000
DEFAULT_MAX_CONCURRENT = 4
"""Pages rendered at once: as the batch's default jobs (a context costs tens of MiB and ~0.25 s
to open; four keep two cores busy while pages wait on the network)."""
DEFAULT_QUEUE = 16
"""Requests waiting for a page beyond those rendering; more get 429 at once."""
DEFAULT_CACHE_TTL_S = 3600.0
"""An hour: pages change, but a pipeline that retries or a dashboard that reloads should not
render the same page twice."""
DEFAULT_MAX_BODY_BYTES = DEFAULT_MAX_BYTES
"""A request body (JSON with the page's HTML in it) may be as large as the extractor's input cap."""
TOKEN_ENV = "READERMODE_TOKEN"


@dataclass(frozen=True, kw_only=True)
class ServeConfig:
    """What ``readermode serve`` was started with."""

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    token: str | None = None
    max_concurrent: int = DEFAULT_MAX_CONCURRENT
    queue: int = DEFAULT_QUEUE
    allow_private: bool = False
    """Only this turns the private-network guard off (local development; the page says so)."""
    cache_dir: Path | None = None
    cache_ttl: float = DEFAULT_CACHE_TTL_S
    max_timeout: float = DEFAULT_BUDGET_S
    """Every request's budget is capped by this (seconds), whatever it asks for."""
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    browser: str | None = None

    def __post_init__(self) -> None:
        if self.max_concurrent < 1 or self.queue < 0:
            raise ValueError("max_concurrent must be at least 1 and queue not negative")
        if not self.max_timeout > 0 or not self.cache_ttl > 0 or self.max_body_bytes < 1:
            raise ValueError("max_timeout, cache_ttl and max_body_bytes must be positive")
