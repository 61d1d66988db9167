"""The bearer token: with ``--token`` (or ``READERMODE_TOKEN``) every request needs
``Authorization: Bearer T``, except the health check and the files of the web page and the API
description, which hold no data and must load in a browser that cannot send the header."""

from __future__ import annotations

import hmac

from starlette.types import ASGIApp, Receive, Scope, Send

from renderer.serve.errors import ServiceError, error_response

PUBLIC_PATHS = frozenset({"/healthz", "/", "/openapi.json", "/docs", "/favicon.ico"})
PUBLIC_PREFIXES = ("/static/", "/docs/assets/")


def is_public(path: str) -> bool:
    return path in PUBLIC_PATHS or path.startswith(PUBLIC_PREFIXES)


def token_matches(header: str | None, token: str) -> bool:
    """``Bearer T`` against the token, in constant time (no timing oracle on the token)."""
    scheme, _, given = (header or "").partition(" ")
    if scheme.lower() != "bearer":
        return False
    return hmac.compare_digest(given.strip().encode(), token.encode())


class TokenAuth:
    """ASGI middleware: 401 with ``WWW-Authenticate: Bearer`` unless the token matches."""

    def __init__(self, app: ASGIApp, token: str | None) -> None:
        self.app = app
        self.token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.token is None or is_public(scope["path"]):
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        raw = headers.get(b"authorization")
        if token_matches(raw.decode("latin-1") if raw else None, self.token):
            await self.app(scope, receive, send)
            return
        why = "missing" if raw is None else "wrong"
        error = ServiceError(
            401,
            "Unauthorized",
            f"the bearer token is {why}: send Authorization: Bearer <token>",
            headers={"WWW-Authenticate": "Bearer"},
        )
        await error_response(error)(scope, receive, send)
