"""The cascade: stages tried in order until one gives readable content.

A stage is any callable with a ``name`` that takes a ``StageInput`` and returns a ``Candidate``
(an element the cascade now owns) or a ``Skip`` saying why it has nothing. The runner
post-processes each candidate, rejects it when it is empty or a single word, records every
attempt in the trace and stops at the first accepted one. Reordering or replacing stages is
passing another tuple in ``ExtractOptions.stages``.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from lxml.html import HtmlElement

from ._errors import NoContentError, ReadermodeError
from ._postprocess import CleanContent, postprocess
from ._refine import RefineContext, refine
from ._text import count_words
from ._types import PageSnapshot, TraceEntry


@dataclass(frozen=True)
class StageInput:
    """What every stage sees. ``document`` is shared: a stage must not mutate it."""

    snapshot: PageSnapshot
    document: HtmlElement
    base_url: str | None
    refine_context: RefineContext = RefineContext(boundary=None)
    rules: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Candidate:
    """A stage's proposed main content: an element the stage made for the cascade to own."""

    element: HtmlElement
    note: str = ""


@dataclass(frozen=True)
class Skip:
    """A stage had nothing to offer, and why."""

    reason: str


class Stage(Protocol):
    name: str

    def __call__(self, page: StageInput) -> Candidate | Skip: ...


@dataclass(frozen=True)
class CascadeResult:
    """The accepted stage's clean content and the trace of every attempt."""

    stage: str
    content: CleanContent
    trace: list[TraceEntry]


def attempt(
    stage: Stage, page: StageInput
) -> tuple[Candidate | Skip, CleanContent | None, list[TraceEntry]]:
    """Run one stage: its outcome, its refined and post-processed content (None when it had
    none) and the refinements' trace entries.

    Only the stage's own call is guarded: a stage (a third-party parser) that raises anything
    but a ``ReadermodeError`` is a Skip, not the end of the extraction. Our refinements and
    post-processing run outside the guard, so a bug there raises instead of quietly handing
    the page to the next stage."""
    outcome = _outcome(stage, page)
    if not isinstance(outcome, Candidate):
        return outcome, None, []
    refinements = refine(outcome.element, page.refine_context, page.rules)
    content = postprocess(outcome.element, base_url=page.base_url)
    return outcome, content, refinements


def _outcome(stage: Stage, page: StageInput) -> Candidate | Skip:
    """The stage's own call, guarded: anything but a ``ReadermodeError`` is a Skip."""
    try:
        return stage(page)
    except ReadermodeError:
        raise
    except Exception as exc:  # a third-party stage failing must not end the cascade
        return Skip(f"failed: {type(exc).__name__}: {str(exc)[:200]}")


@dataclass
class ReadAhead:
    """A stage already run on this page (``read_ahead``): its outcome once more, with a fresh
    copy of its element each time, as whoever attempts a stage owns what it gets."""

    name: str
    outcome: Candidate | Skip

    def __call__(self, page: StageInput) -> Candidate | Skip:
        if isinstance(self.outcome, Skip):
            return self.outcome
        return Candidate(copy.deepcopy(self.outcome.element), note=self.outcome.note)


def read_ahead(
    stages: tuple[Stage, ...], page: StageInput, names: frozenset[str]
) -> tuple[Stage, ...]:
    """``stages`` with those named in ``names`` run on ``page`` now and replaced by their
    outcome (``ReadAhead``); only for stages that read ``page.document`` alone, since the
    page's Readability.js result and title are not in ``page`` yet. One that raises a
    ``ReadermodeError`` is left to raise in its turn."""
    ahead: list[Stage] = []
    for stage in stages:
        if stage.name in names:
            try:
                stage = ReadAhead(stage.name, _outcome(stage, page))
            except ReadermodeError:
                pass
        ahead.append(stage)
    return tuple(ahead)


def run_cascade(
    page: StageInput,
    stages: tuple[Stage, ...],
    *,
    min_words: int,
    clock: Callable[[], float] = time.perf_counter,
) -> CascadeResult:
    """Try each stage in order; raise NoContentError when none gives ``min_words`` words."""
    trace: list[TraceEntry] = []
    for stage in stages:
        started = clock()
        outcome, content, refinements = attempt(stage, page)
        ms = round((clock() - started) * 1000, 2)
        trace.extend(refinements)

        if isinstance(outcome, Skip) or content is None:
            reason = outcome.reason if isinstance(outcome, Skip) else "no content"
            trace.append(
                TraceEntry(kind="stage", name=stage.name, outcome="skipped", reason=reason, ms=ms)
            )
            continue
        words = count_words(content.text)
        if words < min_words:
            why = "empty" if words == 0 else f"only {words} word{'s' if words != 1 else ''}"
            trace.append(
                TraceEntry(
                    kind="stage",
                    name=stage.name,
                    outcome="rejected",
                    reason=f"{why} (minimum {min_words})",
                    words=words,
                    ms=ms,
                )
            )
            continue
        trace.append(
            TraceEntry(
                kind="stage",
                name=stage.name,
                outcome="accepted",
                reason=outcome.note,
                words=words,
                ms=ms,
            )
        )
        return CascadeResult(stage=stage.name, content=content, trace=trace)

    reasons = "; ".join(f"{entry.name}: {entry.reason}" for entry in trace)
    raise NoContentError(f"no readable content found ({reasons or 'no stages'})")
