"""``--ray -o DIR``: the batch as JSON Lines shards, one per finished partition, plus one
``index.jsonl``, and ``--resume`` across those shards.

Exactly once, by construction. The driver writes; a partition's records reach it once, when
the whole partition is done (a worker that died mid-partition returned nothing, and Ray runs
the partition again elsewhere). The driver writes them to ``shards/NAME.jsonl.tmp``, flushes
and fsyncs it, renames it to ``shards/NAME.jsonl`` (atomic on one file system), and only then
appends their index lines. So a shard is either whole or absent, never half there, and no
record is in two shards. The shards are the truth: ``--resume`` reads them (leftover ``.tmp``
files of an interrupted run deleted), drops the failure lines of the targets it will try
again, and writes ``index.jsonl`` again from what is left, so a run cut off between a rename
and its index lines loses nothing either.

Each run names its shards after a run id, so the shards of a resumed run never replace
earlier ones. A shard's lines are the plain batch's JSON Lines records (``-o FILE.jsonl``);
an index line is the plain folder output's (``-o DIR``), ``file`` naming the shard.
"""

from __future__ import annotations

import json
import os
import secrets
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from renderer.batch.runner import PageRecord

SHARDS_DIR = "shards"
"""The subfolder of ``-o DIR`` the shards are written in."""

INDEX_NAME = "index.jsonl"
"""The index beside the shards: the plain folder output's name, so tools read both alike."""

TEMPORARY_SUFFIX = ".tmp"
"""A shard being written; renamed into place once it is whole (a leftover one is deleted)."""


def _json_line(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"


def _index_data(record: PageRecord, shard: str) -> dict[str, Any]:
    """An index line: the record without its content; ``file`` is the shard that holds it
    (a failure, as in the plain folder output, has no file)."""
    data = record.to_dict(content=False)
    if record.ok:
        data["file"] = shard
    return data


def _write_atomically(path: Path, lines: Iterable[str]) -> None:
    """``path`` holds exactly ``lines`` or is untouched: written beside it, fsynced, renamed."""
    temporary = path.with_name(path.name + TEMPORARY_SUFFIX)
    with temporary.open("w", encoding="utf-8") as stream:
        stream.writelines(lines)
        stream.flush()
        os.fsync(stream.fileno())
    os.replace(temporary, path)


def _read_lines(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each JSON object line of ``path`` with its text (an unreadable line is skipped)."""
    with path.open(encoding="utf-8", errors="replace") as stream:
        for line in stream:
            try:
                data = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(data, dict) and "target" in data:
                yield (line if line.endswith("\n") else line + "\n"), data


def resume_shards(folder: Path) -> set[str]:
    """Targets already captured in ``folder``'s shards. Shards are rewritten without their
    failure lines (those targets run again), and ``index.jsonl`` from what is kept."""
    shards = folder / SHARDS_DIR
    if not shards.is_dir():
        return set()
    for leftover in shards.glob("*" + TEMPORARY_SUFFIX):
        leftover.unlink()  # a shard that was never renamed into place: never counted
    done: set[str] = set()
    index: list[str] = []
    for path in sorted(shards.glob("*.jsonl")):
        kept = []
        for line, data in _read_lines(path):
            target = str(data["target"])
            if data.get("ok") and target not in done:
                done.add(target)
                kept.append(line)
                data = {k: v for k, v in data.items() if k not in ("text", "html", "markdown")}
                index.append(_json_line({**data, "file": f"{SHARDS_DIR}/{path.name}"}))
        if not kept:
            path.unlink()
        else:
            _write_atomically(path, kept)
    _write_atomically(folder / INDEX_NAME, index)
    return done


class ShardSink:
    """Writes each finished partition as one shard in ``folder/shards`` and its index lines in
    ``folder/index.jsonl`` (appended to on ``--resume``)."""

    def __init__(self, folder: Path, *, append: bool, run_id: str | None = None) -> None:
        (folder / SHARDS_DIR).mkdir(parents=True, exist_ok=True)
        if not append:
            for old in (folder / SHARDS_DIR).glob("*.jsonl*"):
                old.unlink()  # a fresh run replaces the whole output, as -o FILE does
        self.folder = folder
        self.run_id = run_id or f"{time.strftime('%Y%m%dT%H%M%S')}-{secrets.token_hex(3)}"
        self._count = 0
        self._index: IO[str] = (folder / INDEX_NAME).open("a" if append else "w", encoding="utf-8")

    def write_partition(self, records: list[PageRecord]) -> Path | None:
        """One partition's records as a new shard (whole, or not at all); its path."""
        if not records:
            return None
        self._count += 1
        name = f"part-{self.run_id}-{self._count:05d}.jsonl"
        path = self.folder / SHARDS_DIR / name
        _write_atomically(path, (_json_line(record.to_dict()) for record in records))
        for record in records:
            self._index.write(_json_line(_index_data(record, f"{SHARDS_DIR}/{name}")))
        self._index.flush()
        return path

    def write(self, record: PageRecord) -> None:
        """A single record is a shard of its own (the sink's interface for one record)."""
        self.write_partition([record])

    def close(self) -> None:
        self._index.close()
