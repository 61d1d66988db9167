"""Fetching a URL without a browser (the static path): bounded in time, size and redirects."""

from __future__ import annotations

import socket
import ssl
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from email.message import Message

from extractor import (
    BudgetExceededError,
    FetchError,
    HTTPStatusError,
    InputTooLargeError,
    NotHTMLError,
)

DEFAULT_TIMEOUT_S = 15.0
MAX_REDIRECTS = 5
"""Browsers allow 20; a page that needs more than 5 hops is almost always a loop or a trap."""

READ_CHUNK = 64 * 1024
USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) readermode/0.1 (+static fetch)"
HTML_TYPES = ("text/html", "application/xhtml+xml", "application/xml", "text/xml")


@dataclass(frozen=True)
class FetchedPage:
    """Raw bytes of a fetched page, with what the server said about them."""

    url: str
    final_url: str
    status: int
    body: bytes
    charset: str | None
    content_type: str | None
    headers: dict[str, str] = field(default_factory=dict)


class _CappedRedirects(urllib.request.HTTPRedirectHandler):
    max_redirections = MAX_REDIRECTS
    max_repeats = 2


def _opener() -> urllib.request.OpenerDirector:
    return urllib.request.build_opener(_CappedRedirects())


def fetch_url(
    url: str,
    *,
    timeout: float = DEFAULT_TIMEOUT_S,
    max_bytes: int = 5_000_000,
) -> FetchedPage:
    """GET ``url`` and return its bytes; one time budget covers connect, redirects and body."""
    deadline = time.monotonic() + timeout
    request = urllib.request.Request(
        url,
        headers={
            "User-Agent": USER_AGENT,
            "Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5",
            "Accept-Encoding": "identity",
        },
    )
    try:
        response = _opener().open(request, timeout=timeout)
    except urllib.error.HTTPError as exc:
        if exc.code in (301, 302, 303, 307, 308):
            raise FetchError(f"too many redirects (over {MAX_REDIRECTS}) from {url}") from None
        raise HTTPStatusError(exc.code, url, str(exc.reason or "")) from None
    except TimeoutError as exc:
        raise BudgetExceededError(f"no answer from {url} within {timeout:g} s") from exc
    except urllib.error.URLError as exc:
        reason = exc.reason
        if isinstance(reason, TimeoutError | socket.timeout):
            raise BudgetExceededError(f"no answer from {url} within {timeout:g} s") from exc
        raise FetchError(f"cannot fetch {url}: {reason}") from exc
    except (ssl.SSLError, OSError, ValueError) as exc:
        raise FetchError(f"cannot fetch {url}: {exc}") from exc

    with response:
        headers: Message = response.headers
        content_type = headers.get_content_type() if headers.get("Content-Type") else None
        if content_type is not None and content_type not in HTML_TYPES:
            raise NotHTMLError(f"{url} is {content_type}, not HTML")
        declared_length = headers.get("Content-Length")
        if declared_length and declared_length.isdigit() and int(declared_length) > max_bytes:
            raise InputTooLargeError(int(declared_length), max_bytes, f"response from {url}")
        body = _read_body(response, url, deadline, timeout, max_bytes)
        return FetchedPage(
            url=url,
            final_url=response.geturl(),
            status=response.status,
            body=body,
            charset=headers.get_content_charset(),
            content_type=content_type,
            headers={key.lower(): value for key, value in headers.items()},
        )


def _read_body(response, url: str, deadline: float, timeout: float, max_bytes: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        if time.monotonic() > deadline:
            raise BudgetExceededError(f"{url} did not finish downloading within {timeout:g} s")
        try:
            chunk = response.read(READ_CHUNK)
        except TimeoutError as exc:
            raise BudgetExceededError(
                f"{url} stalled while downloading (budget {timeout:g} s)"
            ) from exc
        except OSError as exc:
            raise FetchError(f"connection to {url} broke while downloading: {exc}") from exc
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > max_bytes:
            raise InputTooLargeError(size, max_bytes, f"response from {url}")
        chunks.append(chunk)
