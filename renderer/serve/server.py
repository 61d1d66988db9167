"""uvicorn, with a drain: on SIGTERM (or Ctrl-C) new work is refused with 503 while the
requests in flight finish, up to their budget; then uvicorn stops and the lifespan closes the
browser, so no Chromium is left. A second signal stops at once."""

from __future__ import annotations

import logging
import signal
import sys
import time
from collections.abc import Generator
from contextlib import contextmanager
from types import FrameType

import uvicorn

from renderer.browser.page import HARD_STOP_GRACE_S
from renderer.serve.app import build_app
from renderer.serve.config import ServeConfig
from renderer.serve.service import Service

LOG = logging.getLogger("readermode.serve")
DRAIN_MARGIN_S = 5.0
"""Past the longest a request may take (its budget and the renderer's hard stop), for writing
the answer out."""
SIGNALS = (signal.SIGINT, signal.SIGTERM)


class DrainingServer(uvicorn.Server):
    """``uvicorn.Server`` whose first signal drains instead of stopping."""

    def __init__(self, config: uvicorn.Config, service: Service) -> None:
        super().__init__(config)
        self.service = service
        self.drain_s = service.config.max_timeout + HARD_STOP_GRACE_S + DRAIN_MARGIN_S
        self._drain_end: float | None = None

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self._drain_end is not None:
            self.should_exit = True  # a second signal: stop now
            self.force_exit = sig == signal.SIGINT
            return
        self._drain_end = time.monotonic() + self.drain_s
        self.service.admission.draining = True
        LOG.warning("draining: %d request(s) in flight", self.service.metrics.active_requests)

    async def on_tick(self, counter: int) -> bool:
        if self._drain_end is not None and not self.should_exit:
            idle = self.service.metrics.active_requests == 0
            self.should_exit = idle or time.monotonic() > self._drain_end
        return await super().on_tick(counter)

    @contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        """Our handlers while serving; unlike uvicorn's, the signal is not raised again after
        the drain, so a drained server exits 0."""
        previous = {sig: signal.signal(sig, self.handle_exit) for sig in SIGNALS}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    async def startup(self, sockets: list[object] | None = None) -> None:  # type: ignore[override]
        await super().startup(sockets)  # type: ignore[arg-type]
        for server in self.servers:
            for sock in server.sockets:
                host, port = sock.getsockname()[:2]
                print(f"readermode serve: listening on http://{host}:{port}", file=sys.stderr)
                sys.stderr.flush()


def serve(config: ServeConfig, *, log_level: str = "warning") -> int:
    """Run the service until drained; the exit code (0, or 1 when it could not start)."""
    app = build_app(config)
    uv_config = uvicorn.Config(
        app,
        host=config.host,
        port=config.port,
        log_level=log_level,
        lifespan="on",
        access_log=log_level in ("info", "debug"),
        server_header=False,
    )
    server = DrainingServer(uv_config, app.state.service)
    server.run()
    return 0 if server.started else 1
