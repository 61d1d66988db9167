"""Results by URL and options, kept ``ttl`` seconds, in one SQLite file (``--cache DIR``).

SQLite from the standard library: one file, safe across restarts, transactions for free, no
dependency to keep. Each entry is the finished answer (media type and body), so a hit costs
one indexed read and no browser; expired entries are dropped when met and, in bulk, at start.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

FILE_NAME = "readermode-cache.sqlite3"
SCHEMA = """
CREATE TABLE IF NOT EXISTS answers (
    key TEXT PRIMARY KEY,
    media_type TEXT NOT NULL,
    body BLOB NOT NULL,
    stored REAL NOT NULL,
    expires REAL NOT NULL
)
"""


@dataclass(frozen=True)
class Cached:
    media_type: str
    body: bytes
    age: float
    """Seconds since it was stored (the ``Age`` header)."""


class ResultCache:
    """A SQLite table of answers by key; every call runs off the event loop."""

    def __init__(self, folder: Path, ttl: float) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / FILE_NAME
        self.ttl = ttl
        self._lock = threading.Lock()  # one connection, used from worker threads in turn
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(SCHEMA)
        self._db.execute("DELETE FROM answers WHERE expires < ?", (time.time(),))

    def _get(self, key: str) -> Cached | None:
        now = time.time()
        with self._lock:
            row = self._db.execute(
                "SELECT media_type, body, stored FROM answers WHERE key = ? AND expires >= ?",
                (key, now),
            ).fetchone()
        if row is None:
            return None
        return Cached(media_type=row[0], body=bytes(row[1]), age=max(0.0, now - row[2]))

    def _put(self, key: str, media_type: str, body: bytes) -> None:
        now = time.time()
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO answers VALUES (?, ?, ?, ?, ?)",
                (key, media_type, body, now, now + self.ttl),
            )

    async def get(self, key: str) -> Cached | None:
        return await asyncio.to_thread(self._get, key)

    async def put(self, key: str, media_type: str, body: bytes) -> None:
        await asyncio.to_thread(self._put, key, media_type, body)

    def close(self) -> None:
        with self._lock:
            self._db.close()
