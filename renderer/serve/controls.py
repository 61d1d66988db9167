"""The request controls a JSON body may carry (``POST /v1/extract`` and ``/v1/batch``):
``user_agent``, ``headers``, ``cookies``, ``proxy``, ``locale``, ``viewport`` and ``actions``
(``wait_for`` is ``limits.py``'s, as for GET), each checked as the CLI checks its flags, every
refusal a 400 naming the field.

What the service adds to the CLI's checks, because the client is not the operator: an
``actions`` script may not take a ``screenshot`` step (it would write a file on the server;
``formats: ["screenshot"]`` returns one instead), and the proxy is a target like any other:
with the private-network guard on it must resolve to public addresses only, and the browser
or the static fetch is pointed at the address that was vetted, so a second lookup cannot
rebind it (``vetted_proxy``). The pages themselves are vetted as ever: the browser's guard
sees every request a script's click or a proxy would make.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from extractor import InputError
from renderer.browser.steps import Step, parse_steps
from renderer.fetch.addresses import AddressGuard
from renderer.fetch.controls import (
    FORBIDDEN_HEADERS,
    Cookie,
    RequestControls,
    cookies_from_json,
    proxy_host,
)
from renderer.serve.errors import bad_request

MAX_HEADERS = 50
"""Extra headers one request may set: far more than any site needs, and a bound on the work."""

MAX_COOKIES = 300
"""Cookies one request may send: browsers keep at most 180 per domain (RFC 6265 says 50)."""

VIEWPORT_RANGE = (100, 10_000)
"""Pixels per side, as the CLI's ``--viewport``."""

_LOCALE = re.compile(r"[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*")
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")  # RFC 9110's token: a header name


@dataclass(frozen=True)
class Controls:
    """A request's checked controls: the browser context's (``request``, ``viewport``) and
    the page's (``actions``)."""

    request: RequestControls = RequestControls()
    viewport: tuple[int, int] | None = None
    actions: tuple[Step, ...] = ()

    @property
    def own_context(self) -> bool:
        """The browser contexts of the shared pool carry none of these: a capture with any of
        them needs contexts of its own."""
        return self.request != RequestControls() or self.viewport is not None


def controls_from_json(data: dict[str, Any]) -> Controls:
    """The controls of a JSON body (absent fields: none)."""
    return Controls(
        request=RequestControls(
            user_agent=_text(data, "user_agent"),
            headers=_headers(data.get("headers")),
            cookies=_cookies(data.get("cookies")),
            proxy=_proxy(data.get("proxy")),
            locale=_locale(data.get("locale")),
        ),
        viewport=_viewport(data.get("viewport")),
        actions=_actions(data.get("actions")),
    )


def _text(data: dict[str, Any], name: str) -> str | None:
    value = data.get(name)
    if value is not None and not isinstance(value, str):
        raise bad_request(f"{name} must be a string")
    if value and ("\r" in value or "\n" in value):
        raise bad_request(f"{name} must be one line")
    return value or None


def _headers(value: object) -> tuple[tuple[str, str], ...]:
    if value is None:
        return ()
    if not isinstance(value, dict) or len(value) > MAX_HEADERS:
        raise bad_request(f"headers must be an object of at most {MAX_HEADERS} name: value pairs")
    headers = []
    for name, text in value.items():
        if not _TOKEN.fullmatch(name) or not isinstance(text, str) or re.search(r"[\r\n\0]", text):
            raise bad_request(f"headers: {name!r} must be a header name with a one-line string")
        if name.lower() in FORBIDDEN_HEADERS:
            raise bad_request(f"headers: {name} cannot be set: it belongs to the connection")
        headers.append((name, text))
    return tuple(headers)


def _cookies(value: object) -> tuple[Cookie, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or len(value) > MAX_COOKIES:
        raise bad_request(f"cookies must be a list of at most {MAX_COOKIES} cookies")
    try:
        return cookies_from_json(value, "cookies")
    except InputError as exc:
        raise bad_request(str(exc)) from exc


def _proxy(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise bad_request("proxy must be a URL (http://host:port)")
    try:
        proxy_host(value)
    except ValueError as exc:
        raise bad_request(f"proxy: {exc}") from exc
    return value if "://" in value else "http://" + value


def _locale(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not _LOCALE.fullmatch(value):
        raise bad_request(f"locale must be a language tag like de-DE, not {value!r}")
    return value


def _viewport(value: object) -> tuple[int, int] | None:
    if value is None:
        return None
    low, high = VIEWPORT_RANGE
    match = re.fullmatch(r"(\d+)[xX](\d+)", value) if isinstance(value, str) else None
    if not match or not all(low <= int(side) <= high for side in match.groups()):
        raise bad_request(f"viewport must be WIDTHxHEIGHT, {low} to {high} each (1280x900)")
    return int(match[1]), int(match[2])


def _actions(value: object) -> tuple[Step, ...]:
    if value is None:
        return ()
    try:
        steps = parse_steps(value, "actions")
    except InputError as exc:
        raise bad_request(str(exc)) from exc
    for number, step in enumerate(steps, 1):
        if step.verb == "screenshot":
            raise bad_request(
                f"actions: step {number} (screenshot) would write a file on the server; "
                'ask for formats: ["screenshot"] instead'
            )
    return steps


def vetted_proxy(controls: RequestControls, guard: AddressGuard) -> RequestControls:
    """``controls`` with its proxy refused unless it resolves to public addresses only, and
    then pointed at the first address vetted (BlockedAddressError, FetchError otherwise).
    An ``https://`` proxy keeps its name: its certificate is for the name, not the address."""
    if not controls.proxy:
        return controls
    parts = urlsplit(controls.proxy)
    vetted = guard.check_url(f"http://{proxy_host(controls.proxy)}/")
    if parts.scheme == "https":
        return controls
    address = f"[{vetted[0]}]" if ":" in vetted[0] else vetted[0]
    port = f":{parts.port}" if parts.port else ""
    credentials = parts.netloc.rpartition("@")[0]
    netloc = f"{credentials}@{address}{port}" if credentials else f"{address}{port}"
    return RequestControls(
        user_agent=controls.user_agent,
        headers=controls.headers,
        cookies=controls.cookies,
        proxy=f"{parts.scheme}://{netloc}",
        locale=controls.locale,
    )
