"""``readermode serve`` with one test address made public: for the redirect test only.

A redirect from a public page to a private address needs a public page, and these tests may
not leave the machine. As in tests/browser/test_netguard.py, 127.0.0.2 plays the public web
server: Chromium maps ``*.test`` to it, and the guard (its resolver and policy, nothing else)
is told that ``public.test`` resolves to it and that it is public. 127.0.0.1 stays private,
so everything else the guard does is the real thing. Run as
``python -m tests.serve.public_launcher serve ARGS``.
"""

from __future__ import annotations

import ipaddress
import sys

from renderer.browser import launch
from renderer.cli import main
from renderer.fetch import addresses

PUBLIC = "127.0.0.2"


def resolve(host: str) -> list[str]:
    return [PUBLIC] if host.endswith(".test") else addresses.system_resolver(host)


def policy(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
    return None if str(ip) == PUBLIC else addresses.is_forbidden_address(ip)


def patch() -> None:
    addresses.AddressGuard.__init__.__defaults__ = (resolve, policy)  # type: ignore[misc]
    launch.CHROMIUM_FLAGS = (
        *launch.CHROMIUM_FLAGS,
        f"--host-resolver-rules=MAP *.test {PUBLIC}",
        # Chromium's own Local Network Access checks would refuse some of these first: off,
        # so the refusal seen is the guard's.
        "--disable-features=LocalNetworkAccessChecks",
    )


if __name__ == "__main__":
    patch()
    sys.exit(main(sys.argv[1:]))
