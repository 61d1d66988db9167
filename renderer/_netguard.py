"""The private-network guard: refuse loopback, private, link-local and metadata addresses.

A service that renders URLs its users give it must not become a way into its own network
(server-side request forgery): ``http://169.254.169.254/`` reads cloud credentials, a public
page can redirect to ``http://127.0.0.1:8080/admin``, a name can resolve to ``10.0.0.5``.

Three layers, one policy:

- ``is_forbidden_address`` says why an IP address is off limits (or None);
- ``AddressGuard`` applies it to a URL: http(s) only, the host resolved once (numeric hosts in
  every form the C library accepts, ``localhost`` and ``*.localhost`` names), and every address
  it resolves to vetted. The static path (``_fetch``) then connects to the vetted address itself;
- ``BrowserGuard`` (``install_guard``) applies it inside a Playwright browser context.

What the browser guard can and cannot stop, measured with Playwright 1.65 and Chromium 156
(tests/browser/test_netguard.py): ``context.route`` sees navigations and subresources, so those
are refused before any byte leaves; it does *not* see redirect hops (Playwright continues them
itself), and Chromium resolves a host again after our check (DNS rebinding). Those two are
caught afterwards, from the ``request`` event (``redirected_from``) and from every response's
``server_addr``; the request has then reached the address, so ``BrowserGuard.verify`` fails
the whole capture with ``BlockedAddressError`` rather than return what came back.
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urldefrag, urlsplit

from playwright.async_api import BrowserContext, Request, Response, Route, WebSocketRoute
from playwright.async_api import Error as PlaywrightError

from extractor import BlockedAddressError, FetchError, ReadermodeError

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str], Sequence[str]]
"""host -> the IP addresses it resolves to (as strings); raises OSError when it does not."""
AddressPolicy = Callable[[IPAddress], str | None]
"""IP address -> why it is forbidden, or None when it may be reached."""

ALLOW_HINT = "allow private networks with --allow-private, or block_private=False in Python"
FETCH_SCHEMES = ("http", "https")
WEBSOCKET_SCHEMES = ("ws", "wss")
LOCAL_SCHEMES = ("data", "blob", "about")
"""Never reach the network: a page's own data: images and blob: workers stay allowed."""
BROWSER_CHECK_TIMEOUT_S = 2.0
"""Cap on one after-the-fact check (``server_addr`` is a round trip to the browser)."""
VERIFY_TIMEOUT_S = 5.0
"""How long ``verify`` waits for pending checks (DNS of redirect hops) before refusing."""

_NETWORKS: tuple[tuple[str, str], ...] = (
    # Most specific first: the metadata endpoints sit inside link-local and unique-local.
    ("169.254.169.254/32", "the cloud metadata endpoint"),
    ("fd00:ec2::254/128", "the cloud metadata endpoint (AWS, IPv6)"),
    ("0.0.0.0/8", "an unspecified ('this network') address"),
    ("::/128", "the unspecified address"),
    ("127.0.0.0/8", "a loopback address"),
    ("::1/128", "a loopback address"),
    ("10.0.0.0/8", "a private (RFC 1918) address"),
    ("172.16.0.0/12", "a private (RFC 1918) address"),
    ("192.168.0.0/16", "a private (RFC 1918) address"),
    ("100.64.0.0/10", "a carrier-grade NAT (RFC 6598) address"),
    ("169.254.0.0/16", "a link-local address"),
    ("fe80::/10", "a link-local address"),
    ("fc00::/7", "a unique-local (private IPv6) address"),
    ("fec0::/10", "a site-local IPv6 address"),
    ("224.0.0.0/4", "a multicast address"),
    ("ff00::/8", "a multicast address"),
    ("255.255.255.255/32", "the broadcast address"),
    ("240.0.0.0/4", "a reserved address"),
)
FORBIDDEN_NETWORKS: tuple[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, str], ...] = tuple(
    (ipaddress.ip_network(network), reason) for network, reason in _NETWORKS
)
NAT64_PREFIX = ipaddress.IPv6Network("64:ff9b::/96")
"""RFC 6052's well-known prefix: the last 32 bits are the IPv4 address a NAT64 gateway reaches."""
IPV4_COMPATIBLE = ipaddress.IPv6Network("::/96")
"""Deprecated IPv4-compatible IPv6 (``::127.0.0.1``); some stacks still route it to IPv4."""
_NUMERIC_IPV4 = re.compile(r"^(0x[0-9a-f]*|[0-9]+)(\.(0x[0-9a-f]*|[0-9]+)){0,3}$", re.IGNORECASE)


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address stands for (mapped, NAT64, 6to4, compatible, Teredo)."""
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip in NAT64_PREFIX or (ip in IPV4_COMPATIBLE and int(ip) > 1):
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip.teredo is not None:
        return ip.teredo[1]
    return None


def is_forbidden_address(ip: str | IPAddress) -> str | None:
    """Why ``ip`` may not be reached (``"a loopback address"`` ...), or None for a public one.

    IPv6 forms that carry an IPv4 address (``::ffff:127.0.0.1``, NAT64 ``64:ff9b::7f00:1``,
    6to4, IPv4-compatible, Teredo) are judged by that address too. Anything the ``ipaddress``
    module does not call globally routable (documentation, benchmarking ranges ...) is refused.
    """
    address = ipaddress.ip_address(ip) if isinstance(ip, str) else ip
    if isinstance(address, ipaddress.IPv6Address):
        address = address.__class__(str(address).split("%")[0])  # a zone id changes nothing
        embedded = _embedded_ipv4(address)
        if embedded is not None:
            reason = is_forbidden_address(embedded)
            if reason is not None:
                return f"{reason} ({embedded} inside IPv6)"
    for network, reason in FORBIDDEN_NETWORKS:
        if address.version == network.version and address in network:
            return reason
    if address.version == 6 and _embedded_ipv4(address) is not None:
        return None  # ::ffff:8.8.8.8 and friends: the embedded address decided
    if not address.is_global:
        return "a special-purpose address (not globally routable)"
    return None


def system_resolver(host: str) -> list[str]:
    """Every address ``host`` resolves to, as the C library's getaddrinfo sees it."""
    infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    return list(dict.fromkeys(info[4][0] for info in infos))


def normalise_host(host: str) -> str:
    """``[::1]`` -> ``::1``, ``Example.COM.`` -> ``example.com``: the form resolvers compare."""
    return host.strip("[]").rstrip(".").lower()


def is_localhost_name(host: str) -> bool:
    """``localhost`` and ``*.localhost`` are loopback by definition (RFC 6761); Chromium
    answers them itself without asking DNS, so no resolver may say otherwise."""
    return host == "localhost" or host.endswith(".localhost")


def literal_address(host: str) -> IPAddress | None:
    """The IP address a numeric host stands for, in every form getaddrinfo and the WHATWG URL
    parser accept: ``::1``, ``2130706433``, ``0177.0.0.1``, ``0x7f.1`` -> 127.0.0.1."""
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    if _NUMERIC_IPV4.match(host):
        try:
            return ipaddress.IPv4Address(socket.inet_aton(host))
        except OSError:
            return None
    return None


@dataclass(frozen=True)
class AddressGuard:
    """The policy applied to URLs: which schemes, which resolver, which addresses.

    ``resolver`` and ``policy`` are injectable so tests can make a test host look public (or
    private) without any real DNS.
    """

    resolver: Resolver = system_resolver
    policy: AddressPolicy = is_forbidden_address

    def refuse_scheme(self, url: str, allowed: Sequence[str] = FETCH_SCHEMES) -> None:
        """BlockedAddressError unless ``url``'s scheme is one of ``allowed``."""
        scheme = urlsplit(url).scheme.lower()
        if scheme not in allowed:
            what = "file: URLs read local files" if scheme == "file" else f"{scheme or 'no'} scheme"
            raise BlockedAddressError(
                f"refused {url}: only {'/'.join(allowed)} may be fetched while private networks "
                f"are blocked ({what}); {ALLOW_HINT}"
            )

    def addresses(self, host: str) -> list[str]:
        """The addresses ``host`` stands for: a literal's own, or what the resolver says."""
        host = normalise_host(host)
        if is_localhost_name(host):
            return ["127.0.0.1"]
        literal = literal_address(host)
        if literal is not None:
            return [str(literal)]
        try:
            found = list(self.resolver(host))
        except (OSError, UnicodeError) as exc:
            raise FetchError(f"cannot resolve {host}: {exc}") from exc
        if not found:
            raise FetchError(f"cannot resolve {host}: no address")
        return found

    def vet_addresses(
        self, url: str, host: str, addresses: Sequence[str], note: str = ""
    ) -> list[str]:
        """``addresses`` unchanged when none is forbidden; otherwise BlockedAddressError."""
        host = normalise_host(host)
        for address in addresses:
            reason = self.policy(ipaddress.ip_address(address.split("%")[0]))
            if reason is not None:
                raise BlockedAddressError(blocked_message(url, host, address, reason, note))
        return list(addresses)

    def vet_host(self, url: str, host: str) -> list[str]:
        """Resolve ``host`` once and vet every address: the list a connection may use."""
        return self.vet_addresses(url, host, self.addresses(host))

    def check_url(self, url: str) -> list[str]:
        """Refuse ``url`` unless it is http(s) and its host resolves only to public addresses;
        return those addresses (connect to them, not to a second lookup that could rebind)."""
        self.refuse_scheme(url)
        host = urlsplit(url).hostname
        if not host:
            raise BlockedAddressError(f"refused {url}: no host to check; {ALLOW_HINT}")
        return self.vet_host(url, host)


def check_url(url: str, *, guard: AddressGuard | None = None) -> list[str]:
    """``AddressGuard().check_url(url)``: the vetted addresses of ``url``, or BlockedAddressError
    (a forbidden address or scheme) or FetchError (the host does not resolve)."""
    return (guard or AddressGuard()).check_url(url)


def blocked_message(url: str, host: str, address: str, reason: str, note: str = "") -> str:
    """One line: the URL (and ``note`` on how it was met), the address, why, how to allow it."""
    via = "" if normalise_host(host) == address else f" ({host} resolves to it)"
    context = f" ({note})" if note else ""
    return f"refused {url}{context}: {address} is {reason}{via}; {ALLOW_HINT}"


@dataclass(frozen=True)
class Refusal:
    """One request the browser guard refused or caught.

    ``prevented`` is False when the request had already reached the address (a redirect hop,
    a host that resolved differently for the browser): the capture must then fail.
    """

    url: str
    message: str
    navigation: bool = False
    prevented: bool = True


@dataclass
class BrowserGuard:
    """The guard of one browser context (one capture): refusals, and a per-host DNS cache."""

    guard: AddressGuard = field(default_factory=AddressGuard)
    refusals: list[Refusal] = field(default_factory=list)
    _verdicts: dict[str, asyncio.Task[list[str]]] = field(default_factory=dict)
    _pending: set[asyncio.Task[None]] = field(default_factory=set)

    async def install(self, context: BrowserContext) -> None:
        """Refuse forbidden requests of ``context`` and watch what routes cannot see."""
        await context.route("**/*", self._handle_route)
        if hasattr(context, "route_web_socket"):  # Playwright >= 1.48
            await context.route_web_socket(lambda _url: True, self._handle_web_socket)
        context.on("request", self._on_request)
        context.on("response", self._on_response)

    async def vet(self, url: str, schemes: Sequence[str] = FETCH_SCHEMES, note: str = "") -> None:
        """BlockedAddressError/FetchError unless ``url`` may be requested; DNS is resolved off
        the event loop, once per host for the whole capture."""
        self.guard.refuse_scheme(url, schemes)
        host = normalise_host(urlsplit(url).hostname or "")
        if not host:
            raise BlockedAddressError(f"refused {url}: no host to check; {ALLOW_HINT}")
        verdict = self._verdicts.get(host)
        if verdict is None:
            loop = asyncio.get_running_loop()
            verdict = loop.create_task(asyncio.to_thread(self.guard.addresses, host))
            self._verdicts[host] = verdict
        self.guard.vet_addresses(url, host, await asyncio.shield(verdict), note)

    async def _handle_route(self, route: Route) -> None:
        request = route.request
        if urlsplit(request.url).scheme.lower() in LOCAL_SCHEMES:
            await route.fallback()
            return
        try:
            await self.vet(request.url)
        except BlockedAddressError as exc:
            self.refusals.append(Refusal(request.url, str(exc), _is_main_navigation(request)))
            await route.abort("blockedbyclient")
            return
        except FetchError:
            await route.abort("namenotresolved")  # the browser's own lookup would fail alike
            return
        await route.fallback()  # other handlers (pages served from memory) still run

    async def _handle_web_socket(self, socket_route: WebSocketRoute) -> None:
        try:
            await self.vet(socket_route.url, WEBSOCKET_SCHEMES)
        except ReadermodeError as exc:
            self.refusals.append(Refusal(socket_route.url, str(exc)))
            await socket_route.close(code=1008, reason="blocked by the private-network guard")
            return
        socket_route.connect_to_server()

    def _on_request(self, request: Request) -> None:
        previous = request.redirected_from
        if previous is not None:  # a redirect hop: routes never see it
            self._watch(self._check_redirect(request, previous.url))

    def _on_response(self, response: Response) -> None:
        self._watch(self._check_server(response))

    def _watch(self, check: Any) -> None:
        task = asyncio.get_running_loop().create_task(check)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _check_redirect(self, request: Request, origin: str) -> None:
        if urlsplit(request.url).scheme.lower() in LOCAL_SCHEMES:
            return
        note = f"a redirect from {origin} the browser followed itself"
        try:
            await self.vet(request.url, note=note)
        except BlockedAddressError as exc:
            self.refusals.append(
                Refusal(request.url, str(exc), _is_main_navigation(request), prevented=False)
            )
        except FetchError:
            pass  # the hop's own request fails the same way

    async def _check_server(self, response: Response) -> None:
        """The address the browser really connected to (it resolved the host again)."""
        try:
            server = await asyncio.wait_for(response.server_addr(), BROWSER_CHECK_TIMEOUT_S)
        except (TimeoutError, PlaywrightError):
            return
        if not server or not server.get("ipAddress"):
            return  # fulfilled by a route, a cache or a data: URL: no connection was made
        address = str(server["ipAddress"]).strip("[]")
        reason = self.guard.policy(ipaddress.ip_address(address.split("%")[0]))
        if reason is not None:
            host = urlsplit(response.url).hostname or address
            note = "the browser connected there after its own DNS lookup"
            message = blocked_message(response.url, host, address, reason, note)
            navigation = _is_main_navigation(response.request)
            self.refusals.append(Refusal(response.url, message, navigation, prevented=False))

    def raise_if_target_blocked(self, url: str | None = None) -> None:
        """BlockedAddressError if the guard refused the main document (``url``, or any
        top-level navigation when None). Call it when navigation failed."""
        wanted = urldefrag(url).url if url else None
        for refusal in self.refusals:
            if refusal.navigation and (wanted is None or urldefrag(refusal.url).url == wanted):
                raise BlockedAddressError(refusal.message)

    async def verify(self, timeout: float = VERIFY_TIMEOUT_S) -> None:
        """Wait for the after-the-fact checks, then BlockedAddressError if any request reached
        a forbidden address (call after navigation and before returning a capture)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self._pending and loop.time() < end:
            await asyncio.wait(set(self._pending), timeout=end - loop.time())
        if self._pending:  # a hop whose host would not resolve in time: unknown is not safe
            raise BlockedAddressError(
                f"could not check {len(self._pending)} redirected or answered request(s) "
                f"within {timeout:g} s; {ALLOW_HINT}"
            )
        for refusal in self.refusals:
            if not refusal.prevented:
                raise BlockedAddressError(refusal.message)
        self.raise_if_target_blocked()


def _is_main_navigation(request: Request) -> bool:
    try:
        return request.is_navigation_request() and request.frame.parent_frame is None
    except PlaywrightError:  # a service worker's request has no frame
        return False


async def install_guard(context: BrowserContext, guard: AddressGuard | None = None) -> BrowserGuard:
    """Guard every request of ``context`` (navigations, subresources, WebSockets, redirect
    hops); install it *before* other ``context.route`` handlers so theirs run first."""
    browser_guard = BrowserGuard(guard or AddressGuard())
    await browser_guard.install(context)
    return browser_guard
