"""Scripted capture (``--actions FILE``): a small JSON list of steps run on the page after it
loaded and before it settles. Parsed here, without Playwright; run by ``scripted.py``.

Each step is an object with one verb::

    [{"click": "#accept-cookies"},
     {"type": "input[name=q]", "text": "ferries"},
     {"press": "Enter"},                      # optionally "selector": "..."
     {"scroll": "bottom"},                    # or a number of pixels
     {"wait_for": "article .results"},
     {"wait": 500},                           # milliseconds, at most MAX_WAIT_MS
     {"screenshot": "after-search.png"}]
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from extractor import Extraction, InputError, InputNotFoundError, PageSnapshot, TraceEntry

ACTION_PREFIX = "action "
"""Timings named so are steps of the script (``scripted.py``); ``with_action_trace`` turns
them into trace entries."""

VERBS = ("click", "type", "press", "scroll", "wait_for", "wait", "screenshot")

MAX_STEPS = 50
"""Steps in one file: a capture script, not a test suite."""

MAX_WAIT_MS = 30_000
"""One ``wait`` step; the capture's budget bounds them all anyway."""


@dataclass(frozen=True, kw_only=True)
class Step:
    """One step: ``verb`` and its argument (``target``: a selector, key, path, pixels or ms);
    ``text`` for ``type``, ``selector`` for ``press``."""

    verb: str
    target: str | int
    text: str | None = None
    selector: str | None = None

    def describe(self) -> str:
        if self.verb == "type":
            return f"type into {self.target}"
        return f"{self.verb} {self.target}".strip()


def parse_steps(data: Any, source: str = "actions") -> tuple[Step, ...]:
    """The steps of a decoded JSON list (InputError naming the bad step)."""
    if not isinstance(data, list) or len(data) > MAX_STEPS:
        raise InputError(f"{source}: a JSON list of at most {MAX_STEPS} steps is expected")
    return tuple(_step(item, number, source) for number, item in enumerate(data, 1))


def _step(item: Any, number: int, source: str) -> Step:
    verbs = [key for key in item if key in VERBS] if isinstance(item, dict) else []
    if len(verbs) != 1:
        raise InputError(f"{source}: step {number} needs exactly one of {', '.join(VERBS)}")
    verb = verbs[0]
    value = item[verb]
    if verb in ("wait", "scroll") and isinstance(value, int | float) and value >= 0:
        return Step(verb=verb, target=int(min(value, MAX_WAIT_MS) if verb == "wait" else value))
    if verb == "scroll" and value in ("top", "bottom"):
        return Step(verb=verb, target=value)
    if verb in ("wait", "scroll") or not isinstance(value, str) or not value:
        raise InputError(f"{source}: step {number} ({verb}) has a bad argument: {value!r}")
    text = item.get("text")
    if verb == "type" and not isinstance(text, str):
        raise InputError(f'{source}: step {number} (type) needs a "text"')
    selector = item.get("selector")
    return Step(verb=verb, target=value, text=text, selector=selector if selector else None)


def load_steps(path: str | Path) -> tuple[Step, ...]:
    """The steps of an actions file."""
    file = Path(path)
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise InputNotFoundError(f"--actions {file}: no such file") from exc
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise InputError(f"--actions {file}: not a JSON file ({exc})") from exc
    return parse_steps(data, f"--actions {file}")


def with_action_trace(extraction: Extraction, snapshot: PageSnapshot) -> Extraction:
    """The scripted capture's steps (``--actions``) as trace entries, in the order they ran."""
    steps = [
        TraceEntry(
            kind="post",
            name="action",
            outcome="accepted",
            reason=name.removeprefix(ACTION_PREFIX),
            ms=round(seconds * 1000, 1),
        )
        for name, seconds in snapshot.timings.items()
        if name.startswith(ACTION_PREFIX)
    ]
    return extraction.revised(trace=(*extraction.trace, *steps)) if steps else extraction
