"""``--seen DB``: a memory of what was captured (newspaper's ``memoize_articles``), in SQLite.

A target captured successfully within ``max_age`` seconds is skipped by the next run; a
failure is never remembered, so it is tried again. One row per target (the last success),
written as each page is written, so a run stopped half-way remembers its first half.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from types import TracebackType

from extractor import OutputError

Clock = Callable[[], float]

_SCHEMA = """CREATE TABLE IF NOT EXISTS seen (
    target TEXT PRIMARY KEY,
    url TEXT,
    captured_at REAL NOT NULL
)"""


class SeenStore:
    """The targets captured before, with when. ``clock`` is injectable for tests."""

    def __init__(self, path: Path, *, clock: Clock = time.time) -> None:
        self._clock = clock
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # autocommit: each success is on disk once written (a crash keeps it)
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self._db.execute(_SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise OutputError(f"--seen {path}: cannot open the database ({exc})") from exc

    def recent(self, targets: Iterable[str], max_age: float | None) -> set[str]:
        """Those of ``targets`` captured within ``max_age`` seconds (None: ever)."""
        oldest = -float("inf") if max_age is None else self._clock() - max_age
        wanted = list(dict.fromkeys(targets))
        found: set[str] = set()
        for start in range(0, len(wanted), 500):  # SQLite's bound on parameters per query
            chunk = wanted[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows = self._db.execute(
                f"SELECT target FROM seen WHERE captured_at >= ? AND target IN ({marks})",
                (oldest, *chunk),
            )
            found.update(row[0] for row in rows)
        return found

    def remember(self, target: str, url: str | None) -> None:
        """``target`` was captured (as ``url``) now."""
        try:
            self._db.execute(
                "INSERT INTO seen (target, url, captured_at) VALUES (?, ?, ?) "
                "ON CONFLICT(target) DO UPDATE SET url = excluded.url, "
                "captured_at = excluded.captured_at",
                (target, url, self._clock()),
            )
        except sqlite3.Error as exc:
            raise OutputError(f"--seen: cannot record {target} ({exc})") from exc

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> SeenStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
