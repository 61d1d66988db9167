"""Prometheus metrics (prometheus-client), in a registry of the app's own: requests by endpoint
and status, latency, pages in flight, the queue, browser restarts, failures by kind, the cache.

Endpoints are labelled by route, never by the URL asked for (``/{url}``), so a client cannot
grow the label set without bound."""

from __future__ import annotations

import time

from prometheus_client import CONTENT_TYPE_LATEST as CONTENT_TYPE_LATEST
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from starlette.types import ASGIApp, Message, Receive, Scope, Send

ROUTE_LABELS = (
    ("/v1/extract", "/v1/extract"),
    ("/v1/compare", "/v1/compare"),
    ("/v1/reports/", "/v1/reports/{id}"),
    ("/v1/batch/", "/v1/batch/{id}"),
    ("/v1/batch", "/v1/batch"),
    ("/healthz", "/healthz"),
    ("/metrics", "/metrics"),
    ("/openapi.json", "/openapi.json"),
    ("/docs", "/docs"),
    ("/static/", "/static"),
)
LATENCY_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0)
"""Seconds: from a cache hit or a refusal (tens of ms) to a page that spends its whole budget."""


def endpoint_label(method: str, path: str) -> str:
    for prefix, label in ROUTE_LABELS:
        if path == prefix or (prefix.endswith("/") and path.startswith(prefix)):
            return label
    if path == "/":
        return "/"
    return "/{url}" if method in ("GET", "HEAD") else "other"


class Metrics:
    """Every metric the service exports."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.requests = Counter(
            "readermode_requests", "HTTP requests answered", ["endpoint", "status"], registry=r
        )
        self.latency = Histogram(
            "readermode_request_seconds",
            "Time to answer a request",
            ["endpoint"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.pages_in_flight = Gauge(
            "readermode_pages_in_flight", "Pages holding a render slot", registry=r
        )
        self.queue_length = Gauge(
            "readermode_queue_length", "Requests waiting for a render slot", registry=r
        )
        self.browser_restarts = Counter(
            "readermode_browser_restarts", "Times the shared browser was restarted", registry=r
        )
        self.failures = Counter(
            "readermode_failures", "Failed extractions by error kind", ["kind"], registry=r
        )
        self.cache_hits = Counter("readermode_cache_hits", "Answers from the cache", registry=r)
        self.cache_misses = Counter(
            "readermode_cache_misses", "Cacheable requests not in the cache", registry=r
        )
        self.cancelled = Counter(
            "readermode_cancelled", "Renders cancelled because the client went away", registry=r
        )
        self.active_requests = 0
        """Requests being answered now (the drain waits for this to reach 0)."""

    def exposition(self) -> bytes:
        return generate_latest(self.registry)


class MetricsMiddleware:
    """ASGI middleware: counts and times every HTTP request by endpoint and status."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        label = endpoint_label(scope["method"], scope["path"])
        status = 500  # a response never started is the server's failure

        async def watch(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        started = time.monotonic()
        self.metrics.active_requests += 1
        try:
            await self.app(scope, receive, watch)
        finally:
            self.metrics.active_requests -= 1
            self.metrics.requests.labels(label, str(status)).inc()
            self.metrics.latency.labels(label).observe(time.monotonic() - started)
