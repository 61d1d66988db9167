"""The private-network guard's policy: which addresses, hosts and URLs are refused, and why."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import pytest

from extractor import BlockedAddressError, FetchError, RenderError
from renderer.browser.guard import BrowserGuard, Refusal
from renderer.fetch.addresses import (
    ALLOW_HINT,
    AddressGuard,
    check_url,
    is_forbidden_address,
    literal_address,
    normalise_host,
)

PUBLIC_IP = "93.184.215.14"


def fake_resolver(table: dict[str, Sequence[str]]):
    """A resolver that knows only ``table`` and records what it was asked."""
    asked: list[str] = []

    def resolve(host: str) -> list[str]:
        asked.append(host)
        if host not in table:
            raise OSError(f"unknown test host {host}")
        return list(table[host])

    resolve.asked = asked  # type: ignore[attr-defined]
    return resolve


def no_dns(host: str) -> list[str]:
    raise AssertionError(f"numeric or localhost host {host!r} must not reach the resolver")


@pytest.mark.parametrize(
    ("address", "reason"),
    [
        ("127.0.0.1", "loopback"),
        ("127.255.255.254", "loopback"),
        ("::1", "loopback"),
        ("10.0.0.1", "RFC 1918"),
        ("172.16.5.4", "RFC 1918"),
        ("172.31.255.255", "RFC 1918"),
        ("192.168.1.1", "RFC 1918"),
        ("169.254.169.254", "cloud metadata"),
        ("fd00:ec2::254", "cloud metadata"),
        ("169.254.1.1", "link-local"),
        ("fe80::1", "link-local"),
        ("fe80::1%eth0", "link-local"),
        ("fc00::1", "unique-local"),
        ("fd12:3456::1", "unique-local"),
        ("fec0::1", "site-local"),
        ("0.0.0.0", "unspecified"),
        ("0.1.2.3", "unspecified"),
        ("::", "unspecified"),
        ("100.64.0.1", "carrier-grade NAT"),
        ("100.127.255.254", "carrier-grade NAT"),
        ("224.0.0.251", "multicast"),
        ("ff02::1", "multicast"),
        ("255.255.255.255", "broadcast"),
        ("240.0.0.1", "reserved"),
        ("192.0.2.1", "special-purpose"),  # documentation (TEST-NET-1)
        ("198.18.0.1", "special-purpose"),  # benchmarking
        ("2001:db8::1", "special-purpose"),  # documentation
        # IPv6 spellings of forbidden IPv4 addresses
        ("::ffff:127.0.0.1", "loopback"),
        ("::ffff:169.254.169.254", "cloud metadata"),
        ("::127.0.0.1", "loopback"),  # IPv4-compatible (deprecated)
        ("64:ff9b::10.0.0.1", "RFC 1918"),  # NAT64 well-known prefix
        ("64:ff9b::169.254.169.254", "cloud metadata"),
        ("2002:c0a8:101::1", "RFC 1918"),  # 6to4 of 192.168.1.1
    ],
)
def test_forbidden_addresses_say_why(address: str, reason: str) -> None:
    found = is_forbidden_address(address)
    assert found is not None and reason in found


@pytest.mark.parametrize(
    "address",
    [
        "8.8.8.8",
        "1.1.1.1",
        PUBLIC_IP,
        "100.128.0.1",  # just past carrier-grade NAT
        "172.32.0.1",  # just past 172.16/12
        "2606:4700:4700::1111",
        "::ffff:8.8.8.8",
        "64:ff9b::8.8.8.8",
        "2002:808:808::1",
    ],
)
def test_public_addresses_pass(address: str) -> None:
    assert is_forbidden_address(address) is None


def test_embedded_address_is_named() -> None:
    assert is_forbidden_address("::ffff:127.0.0.1") == "a loopback address (127.0.0.1 inside IPv6)"


@pytest.mark.parametrize(
    ("host", "address"),
    [
        ("2130706433", "127.0.0.1"),  # one decimal number
        ("0177.0.0.1", "127.0.0.1"),  # octal
        ("0x7f.0.0.1", "127.0.0.1"),  # hex
        ("0x7F000001", "127.0.0.1"),
        ("127.1", "127.0.0.1"),  # short form
        ("0", "0.0.0.0"),
        ("::1", "::1"),
        ("169.254.169.254", "169.254.169.254"),
    ],
)
def test_numeric_hosts_in_odd_forms(host: str, address: str) -> None:
    assert str(literal_address(host)) == address


@pytest.mark.parametrize("host", ["example.com", "1.2.3.4.5", "08.1.1.1", "0x7g.1"])
def test_names_are_not_literals(host: str) -> None:
    assert literal_address(host) is None


@pytest.mark.parametrize(
    ("host", "normal"), [("[::1]", "::1"), ("Example.COM.", "example.com"), ("a.b", "a.b")]
)
def test_hosts_are_normalised(host: str, normal: str) -> None:
    assert normalise_host(host) == normal


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/",
        "http://127.0.0.1:8080/admin",
        "https://2130706433/",
        "http://0177.0.0.1/",
        "http://0x7f.1/",
        "http://[::1]:9000/",
        "http://[::ffff:127.0.0.1]/",
        "http://[::ffff:a9fe:a9fe]/latest/meta-data/",
        "http://169.254.169.254/latest/meta-data/",
        "http://[fd00:ec2::254]/",
        "http://localhost/",
        "http://LOCALHOST./",
        "http://app.localhost:3000/",
        "http://0.0.0.0:8000/",
        "http://10.0.0.1/",
    ],
)
def test_literal_and_localhost_targets_are_refused_without_dns(url: str) -> None:
    with pytest.raises(BlockedAddressError) as caught:
        AddressGuard(resolver=no_dns).check_url(url)
    message = str(caught.value)
    assert url in message and ALLOW_HINT in message and "\n" not in message
    assert caught.value.exit_code == 16 and isinstance(caught.value, RenderError)


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "FILE:///etc/passwd",
        "ftp://example.com/",
        "gopher://example.com/",
        "javascript:alert(1)",
        "//example.com/",
    ],
)
def test_only_http_and_https_pass(url: str) -> None:
    with pytest.raises(BlockedAddressError, match="only http/https"):
        AddressGuard(resolver=no_dns).check_url(url)


def test_file_urls_are_named_as_such() -> None:
    with pytest.raises(BlockedAddressError, match="file: URLs read local files"):
        check_url("file:///etc/passwd")


def test_names_are_resolved_once_and_public_addresses_returned() -> None:
    resolve = fake_resolver({"news.test": [PUBLIC_IP, "2606:4700:4700::1111"]})
    guard = AddressGuard(resolver=resolve)
    assert guard.check_url("https://News.Test./a?b#c") == [PUBLIC_IP, "2606:4700:4700::1111"]
    assert resolve.asked == ["news.test"]


@pytest.mark.parametrize(
    ("addresses", "refused"),
    [
        (["10.1.2.3"], "10.1.2.3"),
        ([PUBLIC_IP, "192.168.0.7"], "192.168.0.7"),  # any forbidden address refuses the host
        (["fd00:ec2::254", PUBLIC_IP], "fd00:ec2::254"),
    ],
)
def test_a_name_with_any_forbidden_address_is_refused(addresses: list[str], refused: str) -> None:
    guard = AddressGuard(resolver=fake_resolver({"intranet.test": addresses}))
    with pytest.raises(BlockedAddressError) as caught:
        guard.check_url("http://intranet.test/wiki")
    message = str(caught.value)
    assert message.startswith("refused http://intranet.test/wiki: ")
    assert f"{refused} is " in message and "(intranet.test resolves to it)" in message


def test_unresolvable_host_is_a_fetch_error() -> None:
    with pytest.raises(FetchError, match="cannot resolve nowhere.test"):
        AddressGuard(resolver=fake_resolver({})).check_url("http://nowhere.test/")


def test_policy_is_injectable() -> None:
    # Tests elsewhere let 127.0.0.2 play a public server; the default policy must not.
    def policy(ip):
        return None if str(ip) == "127.0.0.2" else is_forbidden_address(ip)

    guard = AddressGuard(resolver=fake_resolver({"public.test": ["127.0.0.2"]}), policy=policy)
    assert guard.check_url("http://public.test/") == ["127.0.0.2"]
    with pytest.raises(BlockedAddressError):
        AddressGuard(resolver=guard.resolver).check_url("http://public.test/")


def run_async(coroutine_function, *args):
    """Run on a loop of a worker thread: pytest-playwright owns the main thread's loop."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine_function(*args)).result(timeout=30)


def test_browser_guard_resolves_each_host_once_per_capture() -> None:
    resolve = fake_resolver({"news.test": [PUBLIC_IP], "intranet.test": ["10.0.0.1"]})
    browser_guard = BrowserGuard(AddressGuard(resolver=resolve))

    async def many_requests() -> int:
        urls = [f"https://news.test/{n}.png" for n in range(20)]
        await asyncio.gather(*(browser_guard.vet(url) for url in urls))
        refused = 0
        for _ in range(3):
            try:
                await browser_guard.vet("http://intranet.test/")
            except BlockedAddressError:
                refused += 1
        return refused

    assert run_async(many_requests) == 3
    assert sorted(resolve.asked) == ["intranet.test", "news.test"]


def test_browser_guard_verify_refuses_what_it_could_not_check_in_time() -> None:
    browser_guard = BrowserGuard(AddressGuard(resolver=no_dns))

    async def slow_check() -> None:
        browser_guard._watch(asyncio.sleep(5))
        await browser_guard.verify(timeout=0.05)

    with pytest.raises(BlockedAddressError, match="could not check 1"):
        run_async(slow_check)


def test_only_the_refused_target_is_reported_as_blocked() -> None:
    browser_guard = BrowserGuard()
    browser_guard.refusals.append(Refusal("http://10.0.0.1/img.png", "refused img"))
    browser_guard.raise_if_target_blocked("http://10.0.0.1/img.png")  # not a navigation
    browser_guard.refusals.append(Refusal("http://10.0.0.1/#top", "refused page", navigation=True))
    browser_guard.raise_if_target_blocked("http://example.com/")
    with pytest.raises(BlockedAddressError, match="refused page"):
        browser_guard.raise_if_target_blocked("http://10.0.0.1/")
    with pytest.raises(BlockedAddressError, match="refused page"):
        run_async(browser_guard.verify)


def test_verify_names_the_refusal_of_the_earlier_event() -> None:
    """A redirect hop to a loopback address fails two checks: the hop's (a DNS lookup, slow)
    and its response's server (answered at once). ``verify`` names the hop, whichever
    finished first."""

    async def scenario() -> list[str]:
        guard = BrowserGuard()
        hop_checked = asyncio.Event()

        async def redirect_check() -> Refusal | None:
            await hop_checked.wait()
            return Refusal("http://127.0.0.1/secret", "a redirect from /to-loopback", True, False)

        async def server_check() -> Refusal | None:
            return Refusal("http://127.0.0.1/secret", "connected after its own lookup", True, False)

        guard._watch(redirect_check())  # the hop's request event comes first
        guard._watch(server_check())
        await asyncio.sleep(0)  # the server check finishes first
        finished_first = [refusal.message for refusal in guard.refusals]
        hop_checked.set()
        with pytest.raises(BlockedAddressError, match="a redirect from /to-loopback"):
            await guard.verify()
        return finished_first

    assert run_async(scenario) == ["connected after its own lookup"]


def test_verify_passes_when_no_check_refused() -> None:
    async def scenario() -> list[Refusal]:
        guard = BrowserGuard()

        async def clean() -> Refusal | None:
            return None

        guard._watch(clean())
        await guard.verify()
        return guard.refusals

    assert run_async(scenario) == []
