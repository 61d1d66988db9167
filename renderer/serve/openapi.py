"""The OpenAPI 3.1 description of the service (``GET /openapi.json``; ``/docs`` reads it).

Written out rather than generated: the service takes raw JSON (no model layer to generate it
from), and ``tests/serve`` checks that every route here exists and every route is here."""

from __future__ import annotations

from typing import Any

from renderer.browser.steps import MAX_STEPS, MAX_WAIT_MS
from renderer.serve.controls import MAX_COOKIES, MAX_HEADERS
from renderer.serve.limits import FORMATS

ERROR = {
    "type": "object",
    "properties": {
        "error": {
            "type": "object",
            "properties": {
                "kind": {"type": "string", "example": "BlockedAddressError"},
                "message": {"type": "string"},
                "exit_code": {"type": "integer", "example": 16},
            },
            "required": ["kind", "message", "exit_code"],
        }
    },
}
COOKIE = {
    "type": "object",
    "description": "a cookie as Playwright writes it",
    "properties": {
        "name": {"type": "string"},
        "value": {"type": "string"},
        "domain": {"type": "string"},
        "path": {"type": "string", "default": "/"},
        "secure": {"type": "boolean"},
        "httpOnly": {"type": "boolean"},
        "expires": {"type": "number", "description": "Unix time; -1: a session cookie"},
    },
    "required": ["name", "value", "domain"],
}
STEP = {
    "type": "object",
    "description": "exactly one of click, type (with text), press (optional selector), "
    "scroll (top, bottom or pixels), wait_for, wait (ms, at most 30000); no screenshot step "
    'over HTTP (formats: ["screenshot"])',
    "properties": {
        "click": {"type": "string"},
        "type": {"type": "string"},
        "text": {"type": "string"},
        "press": {"type": "string"},
        "selector": {"type": "string"},
        "scroll": {"oneOf": [{"enum": ["top", "bottom"]}, {"type": "integer", "minimum": 0}]},
        "wait_for": {"type": "string"},
        "wait": {"type": "integer", "minimum": 0, "maximum": MAX_WAIT_MS},
    },
}
CONTROLS: dict[str, Any] = {
    "user_agent": {"type": "string", "description": "the User-Agent of every request"},
    "headers": {
        "type": "object",
        "additionalProperties": {"type": "string"},
        "maxProperties": MAX_HEADERS,
        "description": "extra request headers; not Host, Content-Length, Transfer-Encoding "
        "or Connection",
    },
    "cookies": {"type": "array", "items": COOKIE, "maxItems": MAX_COOKIES},
    "proxy": {
        "type": "string",
        "description": "http://host:port; with the guard on it must resolve to public "
        "addresses (403 otherwise)",
    },
    "locale": {"type": "string", "description": "browser locale and Accept-Language (de-DE)"},
    "viewport": {"type": "string", "pattern": "^[0-9]+[xX][0-9]+$", "example": "390x844"},
    "wait_for": {"type": "string", "description": "CSS selector to wait for"},
    "actions": {"type": "array", "items": STEP, "maxItems": MAX_STEPS},
}
"""The request controls both POST bodies take (``controls.py``): a request with any of the
first six is rendered in a browser of its own."""
EXTRACT_BODY = {
    "type": "object",
    "properties": {
        "url": {"type": "string", "format": "uri"},
        "html": {"type": "string", "description": "the page itself; url is then its address"},
        "formats": {"type": "array", "items": {"enum": list(FORMATS)}, "default": ["markdown"]},
        "render": {"type": "boolean", "description": "default: true for url, false for html"},
        "timeout": {"type": "number", "description": "seconds, capped by the server's"},
        **CONTROLS,
        "include_comments": {"type": "boolean"},
        "with_metadata": {"type": "boolean"},
        "links": {"type": "boolean"},
        "tables": {"type": "boolean"},
        "images": {"type": "boolean"},
        "keep": {"type": "array", "items": {"type": "string"}},
        "stages": {"type": "array", "items": {"type": "string"}},
        "min_length": {"type": "integer", "description": "fewer words: ContentTooShortError"},
        "cache": {"type": "boolean", "default": True},
    },
}
GET_HEADERS = [
    ("X-Return-Format", "markdown, text, html, json or screenshot"),
    ("X-Timeout", "seconds, capped by the server's --timeout"),
    ("X-No-Render", "true: fetch without a browser"),
    ("X-Wait-For-Selector", "a CSS selector to wait for before reading"),
    ("X-No-Cache", "true: bypass the cache"),
    ("X-With-Metadata", "true: YAML front matter before Markdown and text"),
]


def _json_body(schema: dict[str, Any]) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": schema}}}


def _responses(ok: str, media: str = "application/json") -> dict[str, Any]:
    error = {"content": {"application/json": {"schema": ERROR}}}
    return {
        "200": {"description": ok, "content": {media: {}}},
        "400": {"description": "bad JSON, option or format", **error},
        "401": {"description": "the bearer token is missing or wrong", **error},
        "403": {"description": "the private-network guard refused the target or the proxy",
                **error},
        "413": {"description": "body or page over its cap", **error},
        "429": {"description": "queue full; see Retry-After", **error},
        "502": {"description": "the target failed", **error},
        "503": {"description": "shutting down", **error},
        "504": {"description": "the budget was spent", **error},
    }


def _op(summary: str, ok: str, media: str = "application/json", **more: Any) -> dict[str, Any]:
    return {"summary": summary, "responses": _responses(ok, media), **more}


def openapi_spec() -> dict[str, Any]:
    """The whole description, as a JSON-ready dict."""
    url_param = {"name": "url", "in": "path", "required": True, "schema": {"type": "string"}}
    headers = [
        {"name": name, "in": "header", "required": False, "schema": {"type": "string"},
         "description": text}
        for name, text in GET_HEADERS
    ]
    id_param = {"in": "path", "required": True, "schema": {"type": "string"}}
    paths: dict[str, Any] = {
        "/{url}": {"get": _op("Main content of the URL in the path", "the content",
                              "text/markdown", parameters=[url_param, *headers])},
        "/v1/extract": {"post": _op("Extract one page (URL or HTML)", "the CLI's JSON fields",
                                    requestBody=_json_body(EXTRACT_BODY))},
        "/v1/compare": {"post": _op("Reader View against readermode", "comparison and report id",
                                    requestBody=_json_body({"type": "object", "properties": {
                                        "url": {"type": "string"},
                                        "timeout": {"type": "number"}}}))},
        "/v1/reports/{report_id}": {"get": _op("The comparison's HTML report", "the report",
                                               "text/html",
                                               parameters=[{"name": "report_id", **id_param}])},
        "/v1/batch": {"post": _op("Start a batch", "its id", requestBody=_json_body(
            {"type": "object", "properties": {
                "urls": {"type": "array", "items": {"type": "string"}},
                "formats": {"type": "array", "items": {"type": "string"}},
                "per_host": {"type": "integer"}, "delay": {"type": "number"},
                **CONTROLS}}))},
        "/v1/batch/{batch_id}": {"get": _op(
            "Progress (Accept: application/json) or the records as JSON Lines, streamed",
            "progress or records", "application/x-ndjson",
            parameters=[{"name": "batch_id", **id_param}])},
        "/v1/info": {"get": _op("The server's guard and limits", "settings")},
        "/healthz": {"get": _op("Up (200) or draining (503); no token needed", "status")},
        "/metrics": {"get": _op("Prometheus metrics", "metrics", "text/plain")},
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "readermode", "version": "0.1.0",
                 "description": "Main content of web pages, rendered in Chromium."},
        "components": {"securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
        "security": [{"bearer": []}],
        "paths": paths,
    }
