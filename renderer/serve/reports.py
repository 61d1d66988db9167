"""Results kept for the client that asked for them, under an id nobody else can guess.

A report or a batch is readable by its id alone, so the id is the capability:
``secrets.token_urlsafe`` (128 bits), never a counter. The store is bounded: past ``limit``
entries the oldest goes, so a client cannot fill the server's memory with them."""

from __future__ import annotations

import secrets
from collections import OrderedDict
from typing import Generic, TypeVar

V = TypeVar("V")

ID_BYTES = 16
"""128 bits: as a session token, not to be guessed or enumerated."""
MAX_REPORTS = 100
"""Reader View reports kept (each a self-contained HTML page with a screenshot, ~0.1-1 MB)."""


def new_id() -> str:
    return secrets.token_urlsafe(ID_BYTES)


class BoundedStore(Generic[V]):
    """Values by id, the oldest dropped past ``limit``."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._items: OrderedDict[str, V] = OrderedDict()

    def add(self, value: V) -> str:
        key = new_id()
        self._items[key] = value
        while len(self._items) > self.limit:
            self._items.popitem(last=False)
        return key

    def get(self, key: str) -> V | None:
        return self._items.get(key)

    def values(self) -> list[V]:
        return list(self._items.values())
