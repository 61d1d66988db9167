"""The static path: a file, stdin or a URL fetched without a browser, turned into a snapshot."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import BinaryIO
from urllib.parse import unquote, urlsplit

from extractor import (
    InputError,
    InputNotFoundError,
    InputTooLargeError,
    PageSnapshot,
    snapshot_from_bytes,
)
from renderer.fetch.addresses import AddressGuard
from renderer.fetch.controls import RequestControls
from renderer.fetch.http import DEFAULT_TIMEOUT_S, MAX_REDIRECTS, fetch_url

STDIN_TARGET = "-"


def is_url(target: str) -> bool:
    return urlsplit(target).scheme.lower() in ("http", "https")


def read_capped(stream: BinaryIO, max_bytes: int, what: str) -> bytes:
    """Read at most ``max_bytes`` (+1 to notice more) so a huge input is refused, not loaded."""
    data = stream.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise InputTooLargeError(len(data), max_bytes, what)
    return data


def _local_path(target: str) -> Path:
    parts = urlsplit(target)
    if parts.scheme.lower() == "file":
        return Path(unquote(parts.path))
    return Path(target).expanduser()


def read_target_bytes(target: str, *, max_bytes: int) -> bytes:
    """Bytes of a local file or of stdin (``-``), refusing missing, unreadable and huge ones."""
    if target == STDIN_TARGET:
        return read_capped(sys.stdin.buffer, max_bytes, "standard input")
    path = _local_path(target)
    if not path.exists():
        raise InputNotFoundError(f"no such file: {path}")
    if not path.is_file():
        raise InputNotFoundError(f"not a regular file: {path}")
    try:
        with path.open("rb") as stream:
            return read_capped(stream, max_bytes, str(path))
    except PermissionError as exc:
        raise InputError(f"cannot read {path}: permission denied") from exc
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from exc


def static_snapshot(
    target: str,
    *,
    url: str | None = None,
    timeout: float = DEFAULT_TIMEOUT_S,
    max_bytes: int = 5_000_000,
    max_redirects: int = MAX_REDIRECTS,
    block_private: bool = True,
    guard: AddressGuard | None = None,
    controls: RequestControls | None = None,
) -> PageSnapshot:
    """A snapshot of ``target`` without running any of its scripts.

    ``target`` is an http(s) URL, a path (or file: URL) or ``-`` for stdin; ``url`` is the
    address a file or stdin was saved from, so its relative links resolve.

    ``block_private`` (on by default, as for ``RenderOptions``; the CLI turns it off unless
    ``--block-private``) puts a default ``AddressGuard`` in place; ``guard`` supplies a
    configured one. With a guard, a URL and its redirects must lead to public
    addresses, and a ``file:`` URL is refused: a service that forwards its users' URLs must not
    read its own disk. A plain path and ``-`` stay allowed: they are not URLs but the caller's
    own input (the CLI's files), so a service must hand over URLs only. ``controls``: the
    User-Agent, headers, cookies, proxy and locale of the request.
    """
    if guard is None and block_private:
        guard = AddressGuard()
    if guard is not None and urlsplit(target).scheme.lower() == "file":
        guard.refuse_scheme(target)
    if is_url(target):
        page = fetch_url(
            target,
            timeout=timeout,
            max_bytes=max_bytes,
            max_redirects=max_redirects,
            guard=guard,
            controls=controls,
        )
        return snapshot_from_bytes(
            page.body,
            url=page.final_url,
            declared_encoding=page.charset,
            max_bytes=max_bytes,
            status=page.status,
        )
    data = read_target_bytes(target, max_bytes=max_bytes)
    # Without --url, relative links of a local file stay relative: a file: URL would only be
    # stripped by the sanitiser, which allows http(s) and mailto links alone.
    return snapshot_from_bytes(data, url=url, max_bytes=max_bytes)
