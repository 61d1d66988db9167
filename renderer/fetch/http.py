"""Fetching a URL without a browser (the static path): bounded in time, size and redirects."""

from __future__ import annotations

import http.client
import socket
import ssl
import time
import urllib.error
import urllib.request
import urllib.response
from dataclasses import dataclass, field
from email.message import Message
from functools import partial
from http.client import HTTPMessage
from typing import IO, Any
from urllib.parse import urljoin

from extractor import (
    BlockedAddressError,
    BudgetExceededError,
    FetchError,
    HTTPStatusError,
    InputTooLargeError,
    LimitExceededError,
    NotHTMLError,
)
from renderer.fetch.addresses import AddressGuard
from renderer.fetch.controls import RequestControls, cookie_jar

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
    max_repeats = 2

    def __init__(self, max_redirects: int, guard: AddressGuard | None) -> None:
        super().__init__()
        # urllib reads the cap through self, so a per-opener value works (typeshed: ClassVar).
        self.max_redirections = max_redirects  # type: ignore[misc]
        self.guard = guard

    def http_error_302(
        self, req: urllib.request.Request, fp: IO[bytes], code: int, msg: str, headers: HTTPMessage
    ) -> http.client.HTTPResponse | urllib.response.addinfourl | None:
        location = headers.get("location") or headers.get("uri")
        if self.guard is not None and location:
            # urllib itself would follow a redirect to ftp:; the hop's address is vetted when
            # its connection opens.
            try:
                self.guard.refuse_scheme(urljoin(req.full_url, location))
            except BlockedAddressError:
                fp.close()
                raise
        return super().http_error_302(req, fp, code, msg, headers)

    http_error_301 = http_error_303 = http_error_307 = http_error_308 = http_error_302

    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: IO[bytes],
        code: int,
        msg: str,
        headers: HTTPMessage,
        newurl: str,
    ) -> urllib.request.Request | None:
        if self.max_redirections <= 0:  # urllib counts only from the second hop on
            raise urllib.error.HTTPError(req.full_url, code, "redirects are off", headers, fp)
        return super().redirect_request(req, fp, code, msg, headers, newurl)


class _VettedConnectionMixin:
    """Connects to an address the guard vetted, resolved once: a second lookup by the socket
    layer could answer differently (DNS rebinding). Host header, TLS SNI and certificate
    check still use the host name, since ``self.host`` is untouched."""

    def __init__(self, *args: Any, guard: AddressGuard, url: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._guard = guard
        self._url = url
        self._create_connection = self._connect_vetted

    def _connect_vetted(
        self, address: tuple[str, int], timeout: Any, source_address: Any = None
    ) -> socket.socket:
        host, port = address
        last_error: OSError | None = None
        for ip in self._guard.vet_host(self._url, host):
            try:
                return socket.create_connection((ip, port), timeout, source_address)
            except OSError as exc:
                last_error = exc
        raise last_error or OSError(f"no address to connect to for {host}")


class _VettedHTTPConnection(_VettedConnectionMixin, http.client.HTTPConnection):
    pass


class _VettedHTTPSConnection(_VettedConnectionMixin, http.client.HTTPSConnection):
    pass


class _GuardedHandlerMixin:
    """Every connection, the first and each redirect hop's, goes through the guard."""

    guard: AddressGuard
    _VETTED = {
        http.client.HTTPConnection: _VettedHTTPConnection,
        http.client.HTTPSConnection: _VettedHTTPSConnection,
    }

    def do_open(self, http_class, req, **kwargs):  # type: ignore[no-untyped-def]
        if req.has_proxy() or req._tunnel_host:
            # Through a proxy it is the proxy that resolves and connects: vet what it will find.
            self.guard.check_url(req.full_url)
            return super().do_open(http_class, req, **kwargs)  # type: ignore[misc]
        vetted = partial(self._VETTED[http_class], guard=self.guard, url=req.full_url)
        return super().do_open(vetted, req, **kwargs)  # type: ignore[misc]


class _GuardedHTTPHandler(_GuardedHandlerMixin, urllib.request.HTTPHandler):
    def __init__(self, guard: AddressGuard) -> None:
        super().__init__()
        self.guard = guard


class _GuardedHTTPSHandler(_GuardedHandlerMixin, urllib.request.HTTPSHandler):
    def __init__(self, guard: AddressGuard) -> None:
        super().__init__()
        self.guard = guard


def _opener(
    max_redirects: int, guard: AddressGuard | None, controls: RequestControls | None
) -> urllib.request.OpenerDirector:
    handlers: list[urllib.request.BaseHandler] = [_CappedRedirects(max_redirects, guard)]
    if guard is not None:
        handlers += [_GuardedHTTPHandler(guard), _GuardedHTTPSHandler(guard)]
    if controls is not None and controls.cookies:
        handlers.append(urllib.request.HTTPCookieProcessor(cookie_jar(controls.cookies)))
    if controls is not None and controls.proxy:
        proxy = controls.proxy if "://" in controls.proxy else "http://" + controls.proxy
        handlers.append(urllib.request.ProxyHandler({"http": proxy, "https": proxy}))
    return urllib.request.build_opener(*handlers)


def fetch_url(
    url: str,
    *,
    timeout: float = DEFAULT_TIMEOUT_S,
    max_bytes: int = 5_000_000,
    max_redirects: int = MAX_REDIRECTS,
    guard: AddressGuard | None = None,
    content_types: tuple[str, ...] | None = HTML_TYPES,
    user_agent: str = USER_AGENT,
    accept: str = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5",
    controls: RequestControls | None = None,
) -> FetchedPage:
    """GET ``url`` and return its bytes; one time budget covers connect, redirects and body.

    ``content_types`` are the types accepted (NotHTMLError otherwise; None takes any: robots.txt,
    sitemaps and feeds come as text, XML or gzip). ``controls``: the caller's User-Agent,
    headers, cookies (sent where their domain matches, hop by hop), proxy and locale.

    With a ``guard`` (the private-network guard), ``url`` and every redirect hop must be http(s)
    and resolve only to public addresses, and the connection goes to the address vetted:
    BlockedAddressError otherwise, before any byte is sent there.
    """
    if guard is not None:
        guard.refuse_scheme(url)
    deadline = time.monotonic() + timeout
    sent = {"User-Agent": user_agent, "Accept": accept}
    if controls is not None:
        sent["User-Agent"] = controls.user_agent or user_agent
        sent.update(controls.header_dict())
    sent["Accept-Encoding"] = "identity"  # our caps count the bytes as they are decoded
    request = urllib.request.Request(url, headers=sent)
    try:
        response = _opener(max_redirects, guard, controls).open(request, timeout=timeout)
    except urllib.error.HTTPError as exc:
        if exc.code in (301, 302, 303, 307, 308):
            raise LimitExceededError(
                "max_redirects", max_redirects, f"too many redirects from {url}"
            ) from None
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
        if content_type is not None and content_types is not None and (
            content_type not in content_types
        ):
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


def _read_body(
    response: IO[bytes], url: str, deadline: float, timeout: float, max_bytes: int
) -> bytes:
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
