"""Options of a render: keyword-only and immutable, one time budget for the whole capture."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_BUDGET_S = 15.0

NETWORK_QUIET_MS = 500
"""No request in flight for this long counts as a quiet network (Playwright's networkidle)."""

DOM_QUIET_MS = 400
"""No DOM mutation for this long counts as a quiet DOM: hydration usually lands in bursts."""

MAX_SCROLL_STEPS = 30
"""Scroll steps of ~0.8 viewport: 30 reach ~24 screens down, past any article's end, and an
infinite feed cannot hold the capture longer than this."""

SCROLL_TIME_S = 4.0
"""Time cap on scrolling, whatever the step count."""

SCROLL_PAUSE_MS = 120
"""Pause after each step for IntersectionObserver callbacks and the fetches they start."""

IMAGE_WAIT_S = 2.0
"""How long to wait for started image loads, bounded: a slow CDN must not stall a capture."""

STABILITY_INTERVAL_S = 0.5
"""Between two extraction checks; two consecutive agreeing checks end the wait."""

MAX_REVEAL = 50
"""IntersectionObserver targets brought into view per pass (sentinels, lazy blocks)."""


@dataclass(frozen=True, kw_only=True)
class RenderOptions:
    """How to render. ``budget`` bounds the whole capture, navigation included."""

    budget: float = DEFAULT_BUDGET_S
    browser: str | None = None
    readability_js: bool = True
    expand: bool = True
    scroll: bool = True
    offline: bool = False
    screenshot: str | None = None
    reader_view: bool = False
    """Also run Readability.js as Firefox Reader View does (on a clone of the live document,
    unfiltered, ``charThreshold`` 500) and keep it as ``PageSnapshot.reader_view``."""
    max_scroll_steps: int = MAX_SCROLL_STEPS
    scroll_time: float = SCROLL_TIME_S
