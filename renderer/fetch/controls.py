"""Request controls shared by the static fetch and the browser: User-Agent, extra headers,
cookies (Netscape cookies.txt or the JSON Playwright writes), a proxy and a locale."""

from __future__ import annotations

import http.cookiejar
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from extractor import InputError, InputNotFoundError

FORBIDDEN_HEADERS = frozenset({"host", "content-length", "transfer-encoding", "connection"})
"""Headers a caller may not set: they belong to the connection, not to the request."""


@dataclass(frozen=True, kw_only=True)
class Cookie:
    """One cookie, as a browser stores it (Playwright's fields)."""

    name: str
    value: str
    domain: str
    path: str = "/"
    secure: bool = False
    http_only: bool = False
    expires: float = -1  # -1: a session cookie


@dataclass(frozen=True, kw_only=True)
class RequestControls:
    """What every request of a capture carries. ``proxy`` is a URL (``http://host:port``)."""

    user_agent: str | None = None
    headers: tuple[tuple[str, str], ...] = ()
    cookies: tuple[Cookie, ...] = ()
    proxy: str | None = None
    locale: str | None = None

    def redacted(self) -> dict[str, Any]:
        """What a manifest may record: header and cookie names, never their values, and the
        proxy without its credentials."""
        proxy = None
        if self.proxy:
            parts = urlsplit(self.proxy)
            proxy = f"{parts.scheme}://{parts.hostname}" + (f":{parts.port}" if parts.port else "")
        return {
            "user_agent": self.user_agent,
            "headers": [name for name, _ in self.headers],
            "cookies": [cookie.name for cookie in self.cookies],
            "proxy": proxy,
            "locale": self.locale,
        }

    def header_dict(self) -> dict[str, str]:
        """The extra headers, ``Accept-Language`` from ``locale`` unless one was given."""
        headers = dict(self.headers)
        if self.locale and not any(k.lower() == "accept-language" for k in headers):
            headers["Accept-Language"] = f"{self.locale},{self.locale.split('-')[0]};q=0.9"
        return headers


def parse_header(value: str) -> tuple[str, str]:
    """``'Name: value'`` as a pair (ValueError when it is not one, or names a forbidden one)."""
    name, colon, rest = value.partition(":")
    name = name.strip()
    if not colon or not name or any(c in name for c in " \t\r\n") or "\n" in rest:
        raise ValueError(f"not a header 'Name: value': {value!r}")
    if name.lower() in FORBIDDEN_HEADERS:
        raise ValueError(f"{name} cannot be set: it belongs to the connection")
    return name, rest.strip()


def load_cookies(path: str | Path) -> tuple[Cookie, ...]:
    """Cookies from a Netscape cookies.txt (curl, browser extensions) or Playwright's JSON
    (a list of cookies, or ``storage_state`` with a ``cookies`` list)."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise InputNotFoundError(f"--cookies {file}: no such file") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"--cookies {file}: not a readable text file") from exc
    if text.lstrip().startswith(("[", "{")):
        return _json_cookies(text, file)
    return _netscape_cookies(text, file)


def _json_cookies(text: str, file: Path) -> tuple[Cookie, ...]:
    try:
        data: Any = json.loads(text)
    except ValueError as exc:
        raise InputError(f"--cookies {file}: not Playwright's cookie JSON ({exc})") from exc
    return cookies_from_json(data, f"--cookies {file}")


def cookies_from_json(data: Any, source: str) -> tuple[Cookie, ...]:
    """The cookies of decoded Playwright JSON: a list of cookies, or a ``storage_state``
    object with one under ``cookies`` (InputError naming ``source`` otherwise)."""
    try:
        items = data["cookies"] if isinstance(data, dict) else data
        if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
            raise TypeError("a list of cookie objects is expected")
        return tuple(
            Cookie(
                name=str(item["name"]),
                value=str(item["value"]),
                domain=str(item["domain"]),
                path=str(item.get("path") or "/"),
                secure=bool(item.get("secure", False)),
                http_only=bool(item.get("httpOnly", False)),
                expires=float(item.get("expires", -1)),
            )
            for item in items
        )
    except (ValueError, KeyError, TypeError) as exc:
        raise InputError(f"{source}: not Playwright's cookie JSON ({exc})") from exc


def _netscape_cookies(text: str, file: Path) -> tuple[Cookie, ...]:
    cookies = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        http_only = line.startswith("#HttpOnly_")
        if http_only:
            line = line.removeprefix("#HttpOnly_")
        if not line or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 7:
            raise InputError(
                f"--cookies {file}:{number}: not a cookies.txt line (7 tab-separated fields)"
            )
        domain, _, path, secure, expires, name, value = fields
        cookies.append(
            Cookie(
                name=name,
                value=value,
                domain=domain,
                path=path or "/",
                secure=secure.upper() == "TRUE",
                http_only=http_only,
                expires=float(expires) if expires.isdigit() and int(expires) > 0 else -1,
            )
        )
    return tuple(cookies)


def cookie_jar(cookies: tuple[Cookie, ...]) -> http.cookiejar.CookieJar:
    """The cookies in a jar for urllib: each sent only where its domain and path match, on
    every redirect hop (a Cookie header would follow a redirect to any host)."""
    jar = http.cookiejar.CookieJar()
    for cookie in cookies:
        domain = cookie.domain
        jar.set_cookie(
            http.cookiejar.Cookie(
                version=0,
                name=cookie.name,
                value=cookie.value,
                port=None,
                port_specified=False,
                domain=domain,
                domain_specified=domain.startswith("."),
                domain_initial_dot=domain.startswith("."),
                path=cookie.path,
                path_specified=True,
                secure=cookie.secure,
                expires=None if cookie.expires < 0 else int(cookie.expires),
                discard=cookie.expires < 0,
                comment=None,
                comment_url=None,
                rest={"HttpOnly": ""} if cookie.http_only else {},
            )
        )
    return jar


def playwright_cookies(cookies: tuple[Cookie, ...]) -> list[dict[str, Any]]:
    """The cookies as ``BrowserContext.add_cookies`` takes them."""
    return [
        {
            "name": c.name,
            "value": c.value,
            "domain": c.domain,
            "path": c.path,
            "secure": c.secure,
            "httpOnly": c.http_only,
            "expires": c.expires,
        }
        for c in cookies
    ]


def proxy_host(proxy: str) -> str:
    """``host:port`` of a proxy URL (ValueError when it has none)."""
    parts = urlsplit(proxy if "://" in proxy else "http://" + proxy)
    if parts.scheme not in ("http", "https", "socks5") or not parts.hostname:
        raise ValueError(f"not a proxy URL (http://host:port): {proxy!r}")
    return parts.netloc
