"""The request controls of the service's JSON bodies (renderer/serve/controls.py), without a
server: every field checked with a 400 naming it, the shapes the CLI takes accepted, and the
proxy through the private-network guard (a resolver the test controls, no real DNS)."""

from __future__ import annotations

import ipaddress
from typing import Any

import pytest

from extractor import BlockedAddressError
from renderer.fetch.addresses import AddressGuard, is_forbidden_address
from renderer.fetch.controls import Cookie, RequestControls
from renderer.serve.config import ServeConfig
from renderer.serve.controls import Controls, controls_from_json, vetted_proxy
from renderer.serve.errors import ServiceError
from renderer.serve.limits import job_from_json


def test_every_control_in_a_body() -> None:
    controls = controls_from_json(
        {
            "user_agent": "TestBot/2.0",
            "headers": {"X-Token": "t0k"},
            "cookies": [{"name": "sid", "value": "42", "domain": "127.0.0.1", "httpOnly": True}],
            "proxy": "127.0.0.1:3128",
            "locale": "de-DE",
            "viewport": "390x844",
            "actions": [{"click": "#more"}, {"wait": 100}],
        }
    )
    assert controls.request == RequestControls(
        user_agent="TestBot/2.0",
        headers=(("X-Token", "t0k"),),
        cookies=(Cookie(name="sid", value="42", domain="127.0.0.1", http_only=True),),
        proxy="http://127.0.0.1:3128",
        locale="de-DE",
    )
    assert controls.viewport == (390, 844)
    assert [step.verb for step in controls.actions] == ["click", "wait"]
    assert controls.own_context
    page_only = controls_from_json({"actions": [{"scroll": "bottom"}]})
    assert not page_only.own_context and controls_from_json({}) == Controls()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"user_agent": 5}, "user_agent must be a string"),
        ({"user_agent": "Bot\r\nX-Evil: 1"}, "user_agent must be one line"),
        ({"headers": ["X-A: 1"]}, "headers must be an object"),
        ({"headers": {"Host": "example.com"}}, "Host cannot be set"),
        ({"headers": {"X-A": "1\r\nX-B: 2"}}, "'X-A' must be a header name"),
        ({"headers": {"Bad Name": "1"}}, "'Bad Name' must be a header name"),
        ({"cookies": [{"name": "sid"}]}, "cookies: not Playwright's cookie JSON"),
        ({"cookies": "sid=1"}, "cookies must be a list"),
        ({"proxy": "ftp://proxy:21"}, "proxy: not a proxy URL"),
        ({"locale": "de DE"}, "locale must be a language tag"),
        ({"viewport": "10x10"}, "viewport must be WIDTHxHEIGHT"),
        ({"viewport": [800, 600]}, "viewport must be WIDTHxHEIGHT"),
        ({"actions": [{"fly": "#x"}]}, "actions: step 1 needs exactly one of"),
        ({"actions": [{"click": "#a"}, {"screenshot": "/etc/cron.d/x"}]}, "step 2 (screenshot)"),
    ],
)
def test_a_bad_control_is_a_400_naming_it(body: dict[str, Any], message: str) -> None:
    with pytest.raises(ServiceError) as refused:
        job_from_json({"url": "https://example.com/", **body}, ServeConfig())
    assert refused.value.status == 400 and message in str(refused.value)


def test_controls_change_the_cache_key() -> None:
    plain = job_from_json({"url": "https://example.com/"}, ServeConfig())
    with_cookie = job_from_json(
        {"url": "https://example.com/", "cookies": [{"name": "a", "value": "1", "domain": "x"}]},
        ServeConfig(),
    )
    assert plain.cache_key("post") != with_cookie.cache_key("post")


def _guard(addresses: dict[str, str]) -> AddressGuard:
    """A guard whose resolver knows only ``addresses``; 203.0.113.x counts as public here."""

    def policy(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
        return None if str(ip).startswith("203.0.113.") else is_forbidden_address(ip)

    return AddressGuard(lambda host: [addresses[host]], policy)


def test_a_private_proxy_is_refused_and_a_public_one_pinned_to_its_address() -> None:
    guard = _guard({"inside.example": "10.0.0.7", "proxy.example": "203.0.113.9"})
    for proxy in ("http://127.0.0.1:3128", "http://inside.example:3128", "http://[::1]:8080"):
        with pytest.raises(BlockedAddressError):
            vetted_proxy(RequestControls(proxy=proxy), guard)
    pinned = vetted_proxy(RequestControls(proxy="http://me:pw@proxy.example:3128"), guard)
    assert pinned.proxy == "http://me:pw@203.0.113.9:3128"  # no second lookup can rebind it
    assert vetted_proxy(RequestControls(), guard) == RequestControls()
    tls = RequestControls(proxy="https://proxy.example:443")
    assert vetted_proxy(tls, guard) == tls  # vetted, but its certificate names the host
    with pytest.raises(BlockedAddressError):
        vetted_proxy(RequestControls(proxy="https://inside.example:443"), guard)
