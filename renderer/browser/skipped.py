"""Requests a capture does not make: what the text does not need.

Fonts change glyphs, not words; audio and video are never text; analytics and advertising
scripts add requests, CPU and, now and then, an overlay, never the article. They are refused in
the browser (``blockedbyclient``, before DNS), counted in ``timings["skipped_requests"]``, and
fetched after all when asked: fonts when a screenshot or an MHTML archive is wanted (they show
there), everything with ``RenderOptions.fetch_everything`` (``--fetch-all``). Images are always
fetched: lazy loaders, layout and the image wait depend on them.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from playwright.async_api import Request, Route

from renderer.browser.options import RenderOptions
from renderer.browser.routes import REFUSED, RouteChain
from renderer.browser.session import REFUSED_IN_BROWSER, PageSession

MEDIA_TYPES = frozenset({"media"})
FONT_TYPES = frozenset({"font"})
TRACKER_HOSTS = (
    "google-analytics.com",
    "googletagmanager.com",
    "googlesyndication.com",
    "googleadservices.com",
    "doubleclick.net",
    "adservice.google.com",
    "connect.facebook.net",
    "hotjar.com",
    "scorecardresearch.com",
    "quantserve.com",
    "chartbeat.com",
    "chartbeat.net",
    "nr-data.net",
    "js-agent.newrelic.com",
    "cdn.segment.com",
    "api.segment.io",
    "mixpanel.com",
    "amplitude.com",
    "taboola.com",
    "outbrain.com",
    "criteo.com",
    "criteo.net",
    "adnxs.com",
    "amazon-adsystem.com",
    "pubmatic.com",
    "rubiconproject.com",
    "moatads.com",
    "bat.bing.com",
    "clarity.ms",
    "mc.yandex.ru",
)
"""Analytics and advertising hosts (and their subdomains) among the most requested on news
pages; no text of an article comes from them. A short list of our own: the filter lists of
ad blockers (EasyList and others) are downloads, which a capture must not depend on."""


def is_tracker(url: str) -> bool:
    host = (urlsplit(url).hostname or "").lower()
    return any(host == known or host.endswith("." + known) for known in TRACKER_HOSTS)


def skipped_types(options: RenderOptions) -> frozenset[str]:
    """The resource types not fetched for these options."""
    if options.fetch_everything:
        return frozenset()
    keeps_fonts = bool(options.screenshot or options.mhtml)
    return MEDIA_TYPES if keeps_fonts else MEDIA_TYPES | FONT_TYPES


def skip_unneeded_requests(
    routes: RouteChain, session: PageSession, options: RenderOptions
) -> None:
    """Refuse fonts, media and trackers in ``context`` (install it last: it must run first).
    Those Chromium refused itself, offline (``offline.refuse_static_requests``), are counted
    as skipped too."""
    if options.fetch_everything:
        return
    types = skipped_types(options)

    def unneeded(request: Request) -> bool:
        return request.resource_type in types or (
            not request.is_navigation_request() and is_tracker(request.url)
        )

    def count() -> None:
        session.timings["skipped_requests"] = session.timings.get("skipped_requests", 0) + 1

    async def handle(route: Route) -> None:
        if unneeded(route.request):
            count()
            await route.abort(REFUSED)
        else:
            await route.fallback()

    def refused_in_browser(request: Request) -> None:
        if request.failure == REFUSED_IN_BROWSER and unneeded(request):
            count()

    routes.add(handle)
    session.page.on("requestfailed", refused_in_browser)
