"""Options of a render: keyword-only and immutable, one time budget for the whole capture."""

from __future__ import annotations

from dataclasses import dataclass, field

from extractor import DEFAULT_MAX_BYTES
from renderer.browser.steps import Step
from renderer.fetch.controls import RequestControls

DEFAULT_BUDGET_S = 15.0

DEFAULT_MAX_DOM_BYTES = DEFAULT_MAX_BYTES
"""The snapshot is the extractor's input, so it gets the extractor's input cap (5 MB): a
larger one would be refused by ``extract`` anyway."""

DEFAULT_MAX_ELEMENTS = 50_000
"""Measured here on a page of a million elements: extracting a 50,000-element snapshot takes
~3.7 s, 200,000 ~13.5 s (and the snapshot itself ~1-3 s). Long real articles have 3,000-30,000
elements; the scorer's own cap is also 50,000."""

DEFAULT_MAX_REDIRECTS = 5
"""As the static fetcher (--no-render). Chromium itself never follows more than 20."""

NETWORK_QUIET_MS = 500
"""No request in flight for this long counts as a quiet network (Playwright's networkidle)."""

DOM_QUIET_MS = 400
"""No DOM mutation for this long counts as a quiet DOM: hydration usually lands in bursts."""

MAX_SCROLL_STEPS = 30
"""Scroll steps of ~0.8 viewport: 30 reach ~24 screens down, past any article's end, and an
infinite feed cannot hold the capture longer than this."""

SCROLL_TIME_S = 6.0
"""Time cap on scrolling, whatever the step count (and at most half the settle time left): a
page that streams its next part on scroll waits for each part at the bottom."""

SCROLL_PAUSE_MS = 120
"""Pause after each step for IntersectionObserver callbacks and the fetches they start."""

IMAGE_WAIT_S = 2.0
"""How long to wait for started image loads, bounded: a slow CDN must not stall a capture."""

STABILITY_INTERVAL_S = 0.5
"""Between two extraction checks; two consecutive agreeing checks end the wait."""

IDLE_QUIET_MS = 50
"""The quiet windows above, and the interval between two checks, shrink to this when the page
shows it has nothing left to do: loaded, no timer, interval, animation frame, idle callback or
running animation scheduled, no request in flight (``observe.js``). A few frames: long enough
for a response's promise chain to start its next request, short next to the fixed windows."""

MAX_REVEAL = 50
"""IntersectionObserver targets brought into view per pass (sentinels, lazy blocks)."""


@dataclass(frozen=True, kw_only=True)
class RenderOptions:
    """How to render. ``budget`` bounds the whole capture, navigation included.

    The limits, each named in the error or warning it causes:

    - ``budget`` (seconds): the whole capture. Nothing loaded by then: ``BudgetExceededError``;
      a page still changing: the snapshot as it is, ``settled_by="budget"`` and a warning.
    - ``max_bytes``: the main document's response (decoded bytes; a Content-Length above it is
      refused before the body is read), and a file or stdin served from memory:
      ``InputTooLargeError``.
    - ``max_dom_bytes``: the serialised snapshot (UTF-8). The snapshot stops writing there and
      closes its open tags: a partial result with a warning. Only a snapshot that could not be
      cut (the in-page walk failed) raises ``LimitExceededError``.
    - ``max_elements``: elements in the snapshot. It stops there: a partial result with a
      warning (the article usually comes before what made the page huge).
    - ``max_redirects``: HTTP redirects of one navigation: ``LimitExceededError``. Navigations
      the page starts itself (script, meta refresh) are followed up to this many times; after
      that the page is kept where it is, with a warning. A navigation to another origin after
      the page loaded is never followed: what was captured is kept, with a warning.
    """

    budget: float = DEFAULT_BUDGET_S
    max_bytes: int = DEFAULT_MAX_BYTES
    max_dom_bytes: int = DEFAULT_MAX_DOM_BYTES
    max_elements: int = DEFAULT_MAX_ELEMENTS
    max_redirects: int = DEFAULT_MAX_REDIRECTS
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
    block_private: bool = True
    """Refuse the page and every request, redirect hop and WebSocket that leads to a
    loopback, private, link-local, carrier-grade NAT or cloud-metadata address (after DNS),
    and file: URLs (``_netguard.py``). On by default for the Python API, which is what a
    service embeds; the CLI turns it off unless ``--block-private`` (local dev servers)."""
    mhtml: str | None = None
    """Also save the live page as an MHTML archive at this path (capture bundles)."""
    wait_for: str | None = None
    """A CSS selector to wait for once the page loaded, before settling (within the budget;
    a selector that never appears leaves a ``partial:`` warning, an invalid one is an
    ``InputError``). For pages whose content comes after a signal no heuristic sees."""
    request: RequestControls = field(default_factory=RequestControls)
    """User-Agent, extra headers, cookies, proxy and locale of every request (the static
    fetch's too). In the browser they belong to the page's context, which the page pool opens
    ahead: they are the ``Renderer``'s options', not a single ``render(options=)``'s."""
    viewport: tuple[int, int] | None = None
    """Width and height of the page (the renderer's, as ``request``); None: ``VIEWPORT``."""
    actions: tuple[Step, ...] = ()
    """Scripted capture: steps run after the page loaded (and ``wait_for``), before settling,
    each bounded by the budget and recorded in the trace (``steps.py``, ``scripted.py``)."""
    fetch_everything: bool = False
    """Fetch fonts, audio, video and analytics or ad scripts too; by default they are refused
    (fonts are kept for a screenshot or an MHTML archive): ``skipped.py``."""
    record_layout: bool = False
    """Write each visible block's box and font size into the snapshot (``snapshot.BOX_MARK``).
    The extractor does not read them: as block-model features they did not raise wcxb-dev's
    F1 (``scripts/layout_experiment.py``, docs/benchmark-losses.md); they are there for
    experiments and cost the snapshot a tenth more bytes."""

    def __post_init__(self) -> None:
        for name in ("budget", "max_bytes", "max_dom_bytes", "max_elements"):
            if not getattr(self, name) > 0:
                raise ValueError(
                    f"RenderOptions.{name} must be positive, not {getattr(self, name)}"
                )
        if self.max_redirects < 0:
            raise ValueError(f"RenderOptions.max_redirects must be >= 0, not {self.max_redirects}")
