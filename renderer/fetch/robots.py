"""robots.txt politeness (RFC 9309), parsed by protego: one fetch per host, then answers.

``RobotsPolicy.check(url)`` says whether our token may fetch ``url`` and the host's
``Crawl-delay``. What the RFC says happens when robots.txt cannot be read, with one line on
stderr (``notes``) so a run says why its pages were skipped:

- 4xx (no robots.txt): everything is allowed.
- 5xx, a timeout, a refused connection: the host is treated as disallowed (RFC 9309 2.3.1.4,
  "unreachable"); ``--ignore-robots`` overrides.
- A body that is not text, or that holds no rule protego can read: everything is allowed, and
  the line says the file was unreadable.

Every fetch goes through ``fetch_url`` with the caller's private-network guard.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from protego import Protego

from extractor import HTTPStatusError, ReadermodeError
from renderer.fetch.addresses import AddressGuard
from renderer.fetch.controls import RequestControls
from renderer.fetch.http import USER_AGENT, fetch_url

ROBOTS_TOKEN = "readermode"
"""The product token robots.txt groups are matched against (``User-agent: readermode``)."""

ROBOTS_TIMEOUT_S = 10.0
"""One robots.txt fetch: a host that cannot answer that in 10 s is treated as unreachable."""

ROBOTS_MAX_BYTES = 500 * 1024
"""RFC 9309 2.5: crawlers must parse at least 500 KiB; Google stops there too."""

MAX_CRAWL_DELAY_S = 60.0
"""A Crawl-delay above a minute is capped: one page a minute is already very slow, and a
value of hours (seen in the wild as a way of saying "go away") would stall the run."""

Note = Callable[[str], None]


@dataclass(frozen=True)
class RobotsAnswer:
    """May the URL be fetched, and the host's Crawl-delay (None when it sets none)."""

    allowed: bool
    crawl_delay: float | None = None
    reason: str = ""


@dataclass(frozen=True)
class _HostRules:
    parser: Protego | None  # None: the host is unreachable, everything disallowed
    reason: str = ""


class RobotsPolicy:
    """robots.txt of every host seen, fetched once (thread-safe: the batch asks from its worker
    threads). ``notes`` receives one line per host whose robots.txt could not be used."""

    def __init__(
        self,
        *,
        guard: AddressGuard | None,
        token: str = ROBOTS_TOKEN,
        user_agent: str = USER_AGENT,
        timeout: float = ROBOTS_TIMEOUT_S,
        notes: Note | None = None,
        controls: RequestControls | None = None,
    ) -> None:
        self._guard = guard
        self._controls = controls
        self._token = token
        self._user_agent = user_agent
        self._timeout = timeout
        self._notes = notes
        self._hosts: dict[str, _HostRules] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._lock = threading.Lock()

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without its cache and locks (a Ray actor reads robots.txt itself: it owns
        whole hosts, so each host's rules are still read once per run of its pages)."""
        state = dict(self.__dict__)
        for name in ("_hosts", "_locks", "_lock"):
            state.pop(name)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._hosts, self._locks, self._lock = {}, {}, threading.Lock()

    def check(self, url: str) -> RobotsAnswer:
        """Whether ``url`` may be fetched; fetches the host's robots.txt on first use."""
        rules = self._rules(url)
        if rules.parser is None:
            return RobotsAnswer(False, None, rules.reason)
        allowed = rules.parser.can_fetch(url, self._token)
        delay = rules.parser.crawl_delay(self._token)
        capped = None if delay is None else min(float(delay), MAX_CRAWL_DELAY_S)
        reason = "" if allowed else f"robots.txt disallows {url} for {self._token}"
        return RobotsAnswer(bool(allowed), capped, reason)

    def sitemaps(self, url: str) -> list[str]:
        """The ``Sitemap:`` lines of the host's robots.txt."""
        parser = self._rules(url).parser
        return list(parser.sitemaps) if parser is not None else []

    def _rules(self, url: str) -> _HostRules:
        parts = urlsplit(url)
        origin = f"{parts.scheme.lower()}://{parts.netloc.lower()}"
        with self._lock:
            lock = self._locks.setdefault(origin, threading.Lock())
        with lock:  # one fetch per host, whoever asks first; the others wait for it
            if origin not in self._hosts:
                self._hosts[origin] = self._fetch(origin)
            return self._hosts[origin]

    def _fetch(self, origin: str) -> _HostRules:
        robots_url = origin + "/robots.txt"
        try:
            page = fetch_url(
                robots_url,
                timeout=self._timeout,
                max_bytes=ROBOTS_MAX_BYTES,
                guard=self._guard,
                content_types=None,
                user_agent=self._user_agent,
                accept="text/plain,*/*;q=0.5",
                controls=self._controls,
            )
        except HTTPStatusError as exc:
            if exc.status < 500:
                return _HostRules(Protego.parse(""))  # no robots.txt: all allowed
            return self._unreachable(robots_url, f"it answered {exc.status}")
        except ReadermodeError as exc:  # timeout, refused, too large, blocked address
            return self._unreachable(robots_url, str(exc))
        return _HostRules(self._parse(robots_url, page.body))

    def _unreachable(self, robots_url: str, why: str) -> _HostRules:
        reason = f"{robots_url} unreachable ({why}): host treated as disallowed (RFC 9309)"
        self._note(reason + "; --ignore-robots overrides")
        return _HostRules(None, reason)

    def _parse(self, robots_url: str, body: bytes) -> Protego:
        text = body.decode("utf-8", errors="replace")
        if b"\0" in body or not _has_directive(text):
            if text.strip():
                self._note(f"{robots_url} holds no robots.txt rules: read as allowing everything")
            return Protego.parse("")
        try:
            return Protego.parse(text)
        except Exception:  # protego is lenient; a parser bug must not stop the run
            self._note(f"{robots_url} could not be parsed: read as allowing everything")
            return Protego.parse("")

    def _note(self, line: str) -> None:
        if self._notes is not None:
            self._notes(line)


def _has_directive(text: str) -> bool:
    directives = ("user-agent", "allow", "disallow", "sitemap", "crawl-delay", "request-rate")
    for line in text.splitlines():
        key = line.split("#", 1)[0].split(":", 1)[0].strip().lower()
        if key in directives and ":" in line:
            return True
    return False
