"""The targets of a list-taking mode (batch, compare): the command line's, then ``-i LIST``'s."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from extractor import EmptyInputError, InputNotFoundError
from renderer.cli.invocation import Invocation


def all_targets(invocation: Invocation, discovered: Sequence[str] = ()) -> list[str]:
    """Every target, in order (the command line's, the list's, then what discovery found);
    EmptyInputError when there is none."""
    targets = list(invocation.targets)
    list_file = invocation.options.input_list
    if list_file:
        targets += read_target_list(list_file)
    targets += discovered
    if not targets:
        what = f"{list_file}: the list holds" if list_file else "discovery found"
        raise EmptyInputError(f"{what} no targets")
    return targets


def read_target_list(path: str) -> list[str]:
    """Targets from a list file: one per line; blank lines and # comments are skipped."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise InputNotFoundError(f"{path}: no such list file") from exc
    except (OSError, UnicodeDecodeError) as exc:  # a folder, no permission, not text
        raise InputNotFoundError(f"{path}: not a readable text file") from exc
    lines = (line.strip() for line in text.splitlines())
    return [line for line in lines if line and not line.startswith("#")]
