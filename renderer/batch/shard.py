"""``--shard K/N``: split a list of targets into N parts by host, so that each part can run
anywhere (a Kubernetes job, a Slurm task, GNU parallel) and still keep each host's
politeness: every URL of one host falls in the same shard, and one runner's ``--per-host``,
``--delay`` and robots.txt bound that host exactly. Local files are split by their path."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from renderer.batch.runner import host_of


def shard_of(target: str, count: int) -> int:
    """The shard (0 .. count-1) ``target`` belongs to: a stable hash of its host (``www.``
    ignored, as the site-wide pass does), the same on every machine and every run."""
    host = host_of(target)
    key = host.removeprefix("www.") if host is not None else target
    digest = hashlib.blake2b(key.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") % count


def in_shard(targets: Iterable[str], index: int, count: int) -> list[str]:
    """The targets of shard ``index`` (1-based, as ``--shard 1/4`` says) of ``count``."""
    return [target for target in targets if shard_of(target, count) == index - 1]
