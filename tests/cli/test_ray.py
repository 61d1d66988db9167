"""``--ray``: the batch on a real local Ray cluster (a head and one more worker node, both on
127.0.0.1, started once for this module), and a worker node killed mid-run: every page is in
the output exactly once. Pages are static (--no-render): no browser is needed to test the
distribution. Several fixture servers stand for several hosts (one per port)."""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path

import pytest

from renderer.batch.ray_runner import DEFAULT_ACTORS, PARTITIONS_PER_ACTOR, partitions
from renderer.batch.runner import host_of
from tests.cli.conftest import RunCli
from tests.sites_server import Site, article, html, serve

ray = pytest.importorskip("ray", reason="the ray extra is not installed (pip install '.[ray]')")
from ray.cluster_utils import Cluster  # noqa: E402

HOSTS = 4
PAGES = 3
WAIT_S = 120.0
"""Backstop of every wait on an event below: a cluster on a busy machine is slow to start."""


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[Cluster, object]]:
    """A head node (2 CPUs) and one worker node (1 CPU); yields the cluster and the worker."""
    local = Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": 2, "include_dashboard": False},
    )
    worker = local.add_node(num_cpus=1)
    local.wait_for_nodes()
    ray.init(address=local.address, log_to_driver=False)
    try:
        yield local, worker
    finally:
        ray.shutdown()
        local.shutdown()


class Gate:
    """Holds every page request until opened; tells when requests from enough hosts came."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.arrived = threading.Condition()
        self.hosts: set[str] = set()

    def route(self, site: Site, path: str):  # noqa: ANN201 - a sites_server route
        def answer(_: str) -> tuple[int, str, bytes]:
            with self.arrived:
                self.hosts.add(site.base)
                self.arrived.notify_all()
            self.open.wait(WAIT_S)
            return html(article(f"Page {path} of {site.base}"))

        return answer


def _serve_hosts(stack: ExitStack, gate: Gate | None) -> list[Site]:
    """HOSTS sites of PAGES pages each; with a gate, every page waits for it."""
    sites = []
    for _ in range(HOSTS):
        site = stack.enter_context(serve(Site()))
        for n in range(PAGES):
            path = f"/page-{n}"
            site.routes[path] = gate.route(site, path) if gate else html(article(f"P{n}"))
        sites.append(site)
    return sites


def _targets(sites: list[Site]) -> list[str]:
    return [site.base + f"/page-{n}" for site in sites for n in range(PAGES)]


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_ray_batch_matches_the_plain_batch(cluster, run_cli: RunCli, tmp_path: Path) -> None:  # noqa: ANN001
    with ExitStack() as stack:
        targets = _targets(_serve_hosts(stack, None))
        listing = tmp_path / "urls.txt"
        listing.write_text("\n".join(targets))
        common = ("-i", str(listing), "--no-render", "--delay", "0", "--no-sitewide")
        plain = run_cli(*common, "-o", str(tmp_path / "plain.jsonl"))
        on_ray = run_cli(*common, "--ray", "-o", str(tmp_path / "ray.jsonl"))
    assert plain.returncode == on_ray.returncode == 0, on_ray.stderr
    by_target = {r["target"]: r for r in _records(tmp_path / "ray.jsonl")}
    assert sorted(by_target) == sorted(targets)
    for record in _records(tmp_path / "plain.jsonl"):
        assert by_target[record["target"]]["markdown"] == record["markdown"]


def test_a_worker_node_killed_mid_run_loses_no_page(
    cluster,
    run_cli: RunCli,
    tmp_path: Path,  # noqa: ANN001
) -> None:
    local, worker = cluster
    gate = Gate()
    with ExitStack() as stack:
        sites = _serve_hosts(stack, gate)
        targets = _targets(sites)
        listing = tmp_path / "urls.txt"
        listing.write_text("\n".join(targets))
        # Which partition each host is in: once requests from two partitions are held, both
        # actors (one on each node, SPREAD) are inside a partition.
        parts = partitions(targets, DEFAULT_ACTORS * PARTITIONS_PER_ACTOR)
        part_of = {host_of(t): i for i, part in enumerate(parts) for t in part}

        def busy_partitions() -> int:
            return len({part_of[host_of(base + "/")] for base in gate.hosts})

        out = tmp_path / "pages.jsonl"
        with ThreadPoolExecutor(max_workers=1) as pool:
            run = pool.submit(
                run_cli, "-i", str(listing), "--no-render", "--delay", "0", "--ray", "-o", str(out)
            )
            with gate.arrived:
                assert gate.arrived.wait_for(lambda: busy_partitions() >= 2, WAIT_S)
            local.remove_node(worker)  # its actor dies holding a partition
            gate.open.set()
            result = run.result(timeout=600)
        fetched = sum(len(site.requests) for site in sites)
    assert result.returncode == 0, result.stderr
    counts = Counter(record["target"] for record in _records(out))
    assert counts == Counter(targets)  # every page once: none lost, none written twice
    assert all(record["ok"] for record in _records(out))
    assert fetched > len(targets)  # the lost actor's partition really ran again
