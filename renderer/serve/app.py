"""The Starlette application: routes, middleware (metrics outermost, then the token), error
handlers that answer JSON and never a traceback, and the lifespan that starts and stops the
shared browser with the server."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from extractor import ReadermodeError
from renderer.browser.readability import node_modules_dir
from renderer.serve import routes
from renderer.serve.auth import TokenAuth
from renderer.serve.config import ServeConfig
from renderer.serve.errors import ServiceError, error_body, error_response
from renderer.serve.metrics import MetricsMiddleware
from renderer.serve.openapi import openapi_spec
from renderer.serve.service import Service

STATIC = Path(__file__).with_name("static")
SWAGGER_UI = Path("swagger-ui-dist")
"""Swagger UI's browser files (npm, package.json), served at /docs/assets: the interactive
docs of /openapi.json, from this server, as these machines have no CDN."""
LOG = logging.getLogger("readermode.serve")
PAGE_HEADERS = {
    # The page's own script only; the article's images, the screenshot (data:) and the
    # report's inline style (in its sandboxed frame, which inherits this) may show.
    "Content-Security-Policy": "default-src 'self'; img-src 'self' http: https: data:; "
    "style-src 'self' 'unsafe-inline'; object-src 'none'; frame-ancestors 'none'; "
    "base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
}


async def _known_error(request: Request, exc: Exception) -> Response:
    service: Service = request.app.state.service
    kind = exc.kind if isinstance(exc, ServiceError) else type(exc).__name__
    service.metrics.failures.labels(kind).inc()
    return error_response(exc)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    kind = {404: "NotFound", 405: "MethodNotAllowed"}.get(exc.status_code, "BadRequest")
    return JSONResponse(error_body(kind, str(exc.detail), 2), status_code=exc.status_code)


async def _internal_error(request: Request, exc: Exception) -> Response:
    LOG.error("internal error on %s %s", request.method, request.url.path, exc_info=exc)
    request.app.state.service.metrics.failures.labels("InternalError").inc()
    return error_response(exc)


def _page(name: str) -> Route:
    async def endpoint(request: Request) -> Response:
        return FileResponse(STATIC / name, headers=PAGE_HEADERS)

    return Route("/" if name == "index.html" else f"/{name.removesuffix('.html')}", endpoint)


async def _openapi(request: Request) -> Response:
    return JSONResponse(openapi_spec())


def build_app(config: ServeConfig) -> Starlette:
    """The service's ASGI app for ``config`` (the browser starts with the lifespan)."""
    service = Service(config)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await service.start()
        try:
            yield
        finally:
            await service.close()

    app = Starlette(
        routes=[
            Route("/healthz", routes.healthz),
            Route("/metrics", routes.metrics),
            Route("/openapi.json", _openapi),
            _page("index.html"),
            _page("docs.html"),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
            Mount(
                "/docs/assets",
                StaticFiles(directory=node_modules_dir() / SWAGGER_UI, check_dir=False),
                name="docs-assets",
            ),
            Route("/v1/info", routes.info),
            Route("/v1/extract", routes.post_extract, methods=["POST"]),
            Route("/v1/compare", routes.post_compare, methods=["POST"]),
            Route("/v1/reports/{report_id}", routes.get_report),
            Route("/v1/batch", routes.post_batch, methods=["POST"]),
            Route("/v1/batch/{batch_id}", routes.get_batch),
            Route("/{target:path}", routes.get_url),
        ],
        middleware=[
            Middleware(MetricsMiddleware, metrics=service.metrics),
            Middleware(TokenAuth, token=config.token),
        ],
        exception_handlers={
            ReadermodeError: _known_error,
            ServiceError: _known_error,
            HTTPException: _http_error,
            Exception: _internal_error,
        },
        lifespan=lifespan,
    )
    app.state.service = service
    return app
