"""The targets of a list-taking mode (batch, compare): the command line's, then ``-i LIST``'s."""

from __future__ import annotations

import sys
from pathlib import Path

from extractor import EmptyInputError, InputNotFoundError
from renderer.cli.invocation import Invocation


def all_targets(invocation: Invocation) -> list[str]:
    """Every target, in order; EmptyInputError when a list file holds none and no other was
    given."""
    targets = list(invocation.targets)
    list_file = invocation.options.input_list
    if list_file:
        targets += read_target_list(list_file)
    if not targets:
        raise EmptyInputError(f"{list_file}: the list holds no targets")
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
