"""Load a real ``readermode serve`` on loopback and print what it did (``./scripts/loadtest``).

Bounded in count (``--requests``) and time (``--max-seconds``: no request starts after it).
Pages are fixtures/spa's script-rendered pages, served by a thread here on 127.0.0.1; the
server is started with ``--allow-private`` for that reason only. Printed, never asserted as
timings; the exit code is 1 when a response other than 200 or a deliberate 429 came back, the
server's RSS grew past ``--rss-bound-mib``, or a Chromium outlived the server.
"""

from __future__ import annotations

import argparse
import http.client
import http.server
import os
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SPA = REPO / "fixtures" / "spa"
PAGES = ("demo/", "hydration/", "json-render/", "shadow-closed/", "iframes/", "lazy-io/")
"""Script-rendered fixture pages (their article exists only after JavaScript ran)."""
RSS_BOUND_MIB = 150.0
"""The server process's RSS may grow this much over the run: its caches are bounded (reports,
batches, the page pool's spares); what grows past it with the request count is a leak."""
START_S = 120.0


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def fixture_server() -> http.server.ThreadingHTTPServer:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(SPA)))
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def tagged_chromium(tag: str) -> list[int]:
    """Chromium processes carrying READERMODE_TEST_TAG=tag (the server's browser)."""
    found = []
    marker = f"READERMODE_TEST_TAG={tag}".encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            name = Path(f"/proc/{entry}/comm").read_text()
            environ = Path(f"/proc/{entry}/environ").read_bytes()
        except OSError:
            continue
        if "chrom" in name.lower() and marker in environ.split(b"\0"):
            found.append(int(entry))
    return found


def start_server(args: argparse.Namespace, tag: str, log: Path) -> tuple[subprocess.Popen[bytes], int]:
    command = [sys.executable, "-m", "renderer.cli", "serve", "--port", "0", "--allow-private",
               "--max-concurrent", str(args.max_concurrent), "--queue", str(args.queue)]
    process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL,
                               stderr=log.open("wb"), env={**os.environ, "READERMODE_TEST_TAG": tag})
    end = time.monotonic() + START_S
    while time.monotonic() < end:
        found = re.search(r"listening on http://127\.0\.0\.1:(\d+)", log.read_text())
        if found:
            return process, int(found.group(1))
        if process.poll() is not None:
            break
        time.sleep(0.1)
    process.kill()
    raise SystemExit(f"readermode serve did not start: {log.read_text()}")


def one(port: int, path: str) -> tuple[int, float]:
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status, time.monotonic() - started
    except OSError:
        return 0, time.monotonic() - started
    finally:
        connection.close()


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def load(args: argparse.Namespace, port: int, base: str) -> tuple[list[tuple[int, float]], float]:
    deadline = time.monotonic() + args.max_seconds
    paths = [f"/{base}/{PAGES[i % len(PAGES)]}" for i in range(args.requests)]

    def bounded(path: str) -> tuple[int, float] | None:
        return one(port, path) if time.monotonic() < deadline else None

    started = time.monotonic()
    with ThreadPoolExecutor(args.concurrency) as pool:
        results = [r for r in pool.map(bounded, paths) if r is not None]
    return results, time.monotonic() - started


def report(results: list[tuple[int, float]], wall: float, rss: tuple[float, float],
           left: list[int], args: argparse.Namespace) -> int:
    statuses = Counter(status for status, _ in results)
    ok = [seconds for status, seconds in results if status == 200]
    print(f"requests: {len(results)} of {args.requests} at concurrency {args.concurrency}, "
          f"--max-concurrent {args.max_concurrent} --queue {args.queue}, {wall:.1f} s")
    print("statuses: " + ", ".join(f"{s}: {n}" for s, n in sorted(statuses.items())))
    print(f"latency of 200s (s): p50 {percentile(ok, 0.5):.3f}  p95 {percentile(ok, 0.95):.3f}  "
          f"p99 {percentile(ok, 0.99):.3f}  mean {statistics.fmean(ok) if ok else float('nan'):.3f}")
    print(f"pages/s: {len(ok) / wall:.2f}")
    growth = rss[1] - rss[0]
    print(f"server RSS: {rss[0]:.0f} MiB before, {rss[1]:.0f} MiB after "
          f"(+{growth:.0f} MiB; bound {args.rss_bound_mib:.0f} MiB)")
    print(f"Chromium processes left after shutdown: {len(left)}")
    unexpected = sum(n for s, n in statuses.items() if s not in (200, 429))
    return 1 if unexpected or growth > args.rss_bound_mib or left else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--max-concurrent", type=int, default=4)
    parser.add_argument("--queue", type=int, default=16)  # the server's default
    parser.add_argument("--max-seconds", type=float, default=600.0)
    parser.add_argument("--rss-bound-mib", type=float, default=RSS_BOUND_MIB)
    args = parser.parse_args()
    fixtures = fixture_server()
    base = f"http://127.0.0.1:{fixtures.server_address[1]}"
    tag = uuid.uuid4().hex
    log = Path(f"/tmp/readermode-loadtest-{tag[:8]}.log")
    process, port = start_server(args, tag, log)
    try:
        one(port, f"/{base}/{PAGES[0]}")  # warm: the first page loads Readability.js and friends
        before = rss_mib(process.pid)
        browser_before = sum(rss_mib(pid) for pid in tagged_chromium(tag))
        results, wall = load(args, port, base)
        after = rss_mib(process.pid)
        browser_after = sum(rss_mib(pid) for pid in tagged_chromium(tag))
    finally:
        process.send_signal(signal.SIGTERM)
        code = process.wait(START_S)
        fixtures.shutdown()
    end = time.monotonic() + 30  # Chromium exits a moment after its driver
    while tagged_chromium(tag) and time.monotonic() < end:
        time.sleep(0.1)
    print(f"server exit code: {code}")
    print(f"Chromium RSS (all its processes, shared pages counted in each): "
          f"{browser_before:.0f} MiB before, {browser_after:.0f} MiB after")
    return report(results, wall, (before, after), tagged_chromium(tag), args) or (code != 0)


if __name__ == "__main__":
    sys.exit(main())
