"""Writing a command's result: one extraction in the requested format, to stdout or ``-o``."""

from __future__ import annotations

import sys
from pathlib import Path

from extractor import OutputError

# The formats moved to renderer.formats (the service writes them too); named here for callers.
from renderer.formats import headline as headline
from renderer.formats import render_output as render_output


def write_file(path: str | Path, text: str) -> None:
    """Write ``text`` to a file the user named; OutputError (exit 19) when that fails."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from exc


def write_result(text: str, output: str | None) -> None:
    """``text`` to ``-o FILE`` when given, else to stdout."""
    if output:
        write_file(output, text)
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
