"""Figures for --ray (scripts/bench-ray): pages/s of one list of rendered fixture pages with the
plain batch, with Ray on 1 and 2 actors (a local cluster started here), and the resident memory
of one actor with its Chromium. Pages come from fixtures/sites, served on 127.0.0.1 by one
server per "host" (a port each), so the host partitioning has hosts to split."""

from __future__ import annotations

import argparse
import asyncio
import functools
import http.server
import os
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from renderer.batch.ray_runner import BatchWorker, run_batch_on_ray, start_local_ray  # noqa: E402
from renderer.batch.runner import BatchOptions, run_batch  # noqa: E402
from renderer.browser.options import RenderOptions  # noqa: E402

SITES = REPO / "fixtures" / "sites"


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def serve_hosts(count: int) -> list[str]:
    bases = []
    for _ in range(count):
        handler = functools.partial(Quiet, directory=str(SITES))
        httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        httpd.daemon_threads = True
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        bases.append(f"http://127.0.0.1:{httpd.server_address[1]}")
    return bases


def targets(bases: list[str], pages: int) -> list[str]:
    files = sorted(p.relative_to(SITES).as_posix() for p in SITES.glob("*/page-*.html"))
    return [f"{bases[n % len(bases)]}/{files[n % len(files)]}?n={n}" for n in range(pages)]


def tree_rss_mib(pid: int) -> float:
    """Resident memory of ``pid`` and all its descendants (the actor and its Chromium)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
            children.setdefault(ppid, []).append(int(entry))
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        todo += children.get(current, [])
        try:
            for line in Path(f"/proc/{current}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pages", type=int, default=40)
    parser.add_argument("--hosts", type=int, default=4)
    args = parser.parse_args()
    urls = targets(serve_hosts(args.hosts), args.pages)
    options = BatchOptions(
        jobs=4,
        per_host=2,
        delay=0,
        sitewide=None,
        render_options=RenderOptions(block_private=False),
    )
    print(f"{len(urls)} rendered pages on {args.hosts} hosts (127.0.0.1), jobs 4, per-host 2")
    started = time.perf_counter()
    summary = asyncio.run(run_batch(urls, options, emit=lambda r: None))
    plain = time.perf_counter() - started
    print(f"plain batch:        {summary.ok}/{summary.total} ok, {len(urls) / plain:5.2f} pages/s")

    import ray

    start_local_ray(num_cpus=2)  # on 127.0.0.1 only
    for actors in (1, 2):
        started = time.perf_counter()
        summary = run_batch_on_ray(urls, options, address=None, actors=actors, emit=lambda r: None)
        took = time.perf_counter() - started
        print(
            f"--ray, {actors} actor{'s' if actors > 1 else ' '}:   {summary.ok}/{summary.total} ok, "
            f"{len(urls) / took:5.2f} pages/s (actor start included)"
        )
    worker = ray.remote(BatchWorker).remote()
    ray.get(worker.run.remote(urls[: len(urls) // 2], options))
    usage = ray.get(worker.usage.remote())
    print(
        f"one actor after {len(urls) // 2} pages: {usage['rss_mib']:.0f} MiB itself, "
        f"{tree_rss_mib(int(usage['pid'])):.0f} MiB with its Chromium and Playwright driver"
    )
    ray.get(worker.close.remote())
    ray.shutdown()


if __name__ == "__main__":
    main()
