"""The private-network guard: refuse loopback, private, link-local and metadata addresses.

A service that renders URLs its users give it must not become a way into its own network
(server-side request forgery): ``http://169.254.169.254/`` reads cloud credentials, a public
page can redirect to ``http://127.0.0.1:8080/admin``, a name can resolve to ``10.0.0.5``.

Three layers, one policy:

- ``is_forbidden_address`` says why an IP address is off limits (or None);
- ``AddressGuard`` applies it to a URL: http(s) only, the host resolved once (numeric hosts in
  every form the C library accepts, ``localhost`` and ``*.localhost`` names), and every address
  it resolves to vetted. The static path (``fetch.http``) then connects to the vetted address
  itself;
- ``BrowserGuard`` (``renderer.browser.guard``) applies it inside a Playwright browser
  context. It lives there so that this module, and the static path (``--no-render``) with it,
  never loads Playwright.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from extractor import BlockedAddressError, FetchError

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str], Sequence[str]]
"""host -> the IP addresses it resolves to (as strings); raises OSError when it does not."""
AddressPolicy = Callable[[IPAddress], str | None]
"""IP address -> why it is forbidden, or None when it may be reached."""

ALLOW_HINT = "allow private networks with --allow-private, or block_private=False in Python"
FETCH_SCHEMES = ("http", "https")

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
    return list(dict.fromkeys(str(info[4][0]) for info in infos))  # typeshed: str | int


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
