"""Every failure as JSON, ``{"error": {"kind", "message", "exit_code"}}``, never a traceback.

The error tree's classes (``extractor._errors``) keep their kind and exit code and get an HTTP
status by what went wrong: the caller's input (4xx), the target page (502, 504, 422), or this
server (5xx). Failures that belong to the service alone (auth, a full queue, bad JSON) are a
``ServiceError`` with a kind of their own and the exit code the CLI gives their nearest kin.
"""

from __future__ import annotations

from starlette.responses import JSONResponse

from extractor import (
    EXIT_INTERNAL,
    EXIT_USAGE,
    BlockedAddressError,
    BrowserMissingError,
    BudgetExceededError,
    FetchError,
    HTTPStatusError,
    InputError,
    InputTooLargeError,
    LimitExceededError,
    NavigationError,
    NoContentError,
    OutputError,
    ReadermodeError,
    RenderError,
    RobotsDisallowedError,
)

EXIT_TEMPFAIL = 75
"""``EX_TEMPFAIL`` (sysexits.h): try again later. A full queue or a draining server has no CLI
counterpart; this is the code a script would retry on."""

STATUS_BY_CLASS: tuple[tuple[type[ReadermodeError], int], ...] = (
    # Most specific first: the first class the error is an instance of decides.
    (InputTooLargeError, 413),
    (BlockedAddressError, 403),
    (RobotsDisallowedError, 403),  # the site's own policy refuses it: not a failed gateway
    (BudgetExceededError, 504),
    (BrowserMissingError, 503),
    (HTTPStatusError, 502),
    (FetchError, 502),
    (NavigationError, 502),
    (LimitExceededError, 422),
    (RenderError, 502),
    (NoContentError, 422),
    (InputError, 422),
    (OutputError, 500),
)
"""HTTP status of each class of the error tree: 4xx for what the caller sent or asked for
(a refused address, a page robots.txt disallows, an input too large, a page with nothing to
read), 502/504 for a target that
failed or was too slow, 5xx for this server."""


class ServiceError(Exception):
    """A failure of the service itself, outside the error tree: its HTTP status, kind, code."""

    def __init__(
        self,
        status: int,
        kind: str,
        message: str,
        *,
        exit_code: int = EXIT_USAGE,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.kind = kind
        self.exit_code = exit_code
        self.headers = headers or {}


def bad_request(message: str) -> ServiceError:
    """400: the request itself is malformed (JSON, a field, a format), as a usage error."""
    return ServiceError(400, "BadRequest", message)


def http_status(error: ReadermodeError) -> int:
    """The HTTP status an error of the tree is answered with."""
    for cls, status in STATUS_BY_CLASS:
        if isinstance(error, cls):
            return status
    return 500


def error_body(kind: str, message: str, exit_code: int) -> dict[str, object]:
    return {"error": {"kind": kind, "message": message, "exit_code": exit_code}}


def error_response(exc: BaseException) -> JSONResponse:
    """The JSON answer for any exception; anything unexpected is one line, no traceback."""
    if isinstance(exc, ServiceError):
        body = error_body(exc.kind, str(exc), exc.exit_code)
        return JSONResponse(body, status_code=exc.status, headers=exc.headers)
    if isinstance(exc, ReadermodeError):
        body = error_body(type(exc).__name__, str(exc), exc.exit_code)
        return JSONResponse(body, status_code=http_status(exc))
    message = f"internal error: {type(exc).__name__} (see the server's log)"
    return JSONResponse(error_body("InternalError", message, EXIT_INTERNAL), status_code=500)
