"""A response the test holds: a server route that answers only once the test releases it.

Why: a page that "answers after N seconds" races the renderer's budget and whatever else the
test waits for, and who wins depends on how busy the machine is. A held response has no clock
in it: the handler says when the request arrived (``arrived``) and then waits until the test
calls ``release()``. The only clock left is ``SAFETY_S``, a backstop so that a broken test
cannot hang the session; no test may need it to pass.
"""

from __future__ import annotations

import threading

SAFETY_S = 300.0
"""Longest a handler waits for its release: far past any test's own safety timeout."""


class HeldResponse:
    """One held route's events: ``arrived`` is set by the handler, ``release()`` by the test."""

    def __init__(self) -> None:
        self.arrived = threading.Event()
        self._released = threading.Event()

    def hold(self) -> bool:
        """Called by the handler: report the request, then wait for the release. False when
        the safety backstop ran out instead (the handler then answers nothing)."""
        self.arrived.set()
        return self._released.wait(SAFETY_S)

    def release(self) -> None:
        """Let every held handler answer (or, when the test is over, give up)."""
        self._released.set()

    def wait_arrived(self, timeout: float = 120.0) -> bool:
        """Block until the held route was requested; ``timeout`` is a safety backstop only."""
        return self.arrived.wait(timeout)
