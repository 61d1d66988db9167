"""Runs of sibling records: a forum thread's posts, a listing's entries, a collection's products.

Readability-style scoring picks the one block with the most prose, which on these pages is a
single post or a single card; their content is the whole run. ``find_run`` reads the cleaned
page for the run of siblings sharing a signature (tag and first class) whose text weighs most,
and ``RecordsStage`` offers the run's container as the main content on pages of those types.
"""

from __future__ import annotations

import copy
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

import lxml.etree
from lxml.html import HtmlElement

from ._cascade import Candidate, Skip, Stage, StageInput
from ._options import MIN_WORDS
from ._stages import ReadabilityLxmlStage
from ._text import folded_words
from ._types import TraceEntry

MIN_RECORDS = 3
"""Siblings needed for a run: a thread of three posts is a thread (two could be a question
and its one answer, which readability-lxml already keeps together)."""
RECORD_MIN_CHARS = 20
"""Text a sibling needs to count as a record rather than a menu entry or a spacer."""
RUN_MIN_SHARE = 0.3
"""The run's records must hold at least this share of the page's text, else the run is a
sidebar or a footer list, not the content."""
CONTAINMENT = 0.5
"""Share of readability-lxml's words the run's container must hold to replace its pick."""
SMALL_PICK = 0.3
"""A pick with fewer words than this share of the run's container is a fragment (a card, a
teaser, a caption): the run replaces it wherever it lies. On wcxb-dev's articles 0.2 to 0.4
raised F1 (0.910 to 0.928, 0.930, 0.931) with the article benchmark unchanged (0.9732); at 0.5
the article benchmark fell to 0.9693. 0.3 keeps a margin from that edge."""
MAX_RECORD_SHARE = 0.8
"""No record may hold more than this share of the run's text: records are peers, and a long
article beside two notices is not a run (the divsoup fixture's article holds 0.84 of its run).
On wcxb-dev 0.8 cost 0.001 of mean F1 against no limit, 0.6 cost 0.003."""
MAX_LINK_SHARE = 0.8
"""A run whose text is nearly all link text is a menu, even on a listing."""


RUN_NOTE = "sibling records"
"""What the trace says of a reading that is a run of records (``reads_a_run``)."""


def reads_a_run(trace: Iterable[TraceEntry]) -> bool:
    """Whether the stage a trace accepted read the page's run of sibling records."""
    return any(
        entry.kind == "stage" and entry.outcome == "accepted" and RUN_NOTE in (entry.reason or "")
        for entry in trace
    )


@dataclass(frozen=True)
class Run:
    parent: HtmlElement
    records: tuple[HtmlElement, ...]
    chars: int
    share: float


def _signature(element: HtmlElement) -> tuple[str, str]:
    classes = (element.get("class") or "").split()
    return str(element.tag), classes[0] if classes else ""


def _text_chars(element: HtmlElement) -> tuple[int, int]:
    """(text characters, link text characters) of ``element``, whitespace not counted."""
    total = len("".join(element.text_content().split()))
    links = sum(len("".join(a.text_content().split())) for a in element.iter("a"))
    return total, links


def find_run(root: HtmlElement, max_link_share: float = MAX_LINK_SHARE) -> Run | None:
    """The run of sibling records holding the most text, if it holds ``RUN_MIN_SHARE``; a
    run with more than ``max_link_share`` of its text in links is left out (a menu)."""
    page_chars = len("".join(root.text_content().split())) or 1
    best: Run | None = None
    for parent in root.iter(lxml.etree.Element):
        if len(parent) < MIN_RECORDS:
            continue
        groups: dict[tuple[str, str], list[HtmlElement]] = defaultdict(list)
        for child in parent:
            if isinstance(child.tag, str):
                groups[_signature(child)].append(child)
        for members in groups.values():
            if len(members) < MIN_RECORDS:
                continue
            run = _measure(parent, members, page_chars, max_link_share)
            if run is not None and (best is None or run.chars > best.chars):
                if not _in_consent_dialog(parent):
                    best = run
    return best if best is not None and best.share >= RUN_MIN_SHARE else None


_CONSENT = re.compile(r"cookie|consent|gdpr|onetrust|didomi|privacy-?center", re.IGNORECASE)


def _in_consent_dialog(element: HtmlElement) -> bool:
    """Whether ``element`` sits in a cookie-consent dialog (its sections are sibling records
    with text: OneTrust's took the place of two wcxb-dev forum threads). ``<body>`` and
    ``<html>`` are not read: themes mark their state there ("cookies-not-set")."""
    return any(
        _CONSENT.search(f"{node.get('class', '')} {node.get('id', '')}")
        for node in (element, *element.iterancestors())
        if node.tag not in ("body", "html")
    )


def _measure(
    parent: HtmlElement, members: list[HtmlElement], page_chars: int, max_link_share: float
) -> Run | None:
    records, chars, links, largest = [], 0, 0, 0
    for member in members:
        total, linked = _text_chars(member)
        if total >= RECORD_MIN_CHARS:
            records.append(member)
            chars, links, largest = chars + total, links + linked, max(largest, total)
    if len(records) < MIN_RECORDS or links > max_link_share * chars:
        return None
    if largest > MAX_RECORD_SHARE * chars:
        return None  # one block and its small neighbours: an article among asides
    return Run(parent, tuple(records), chars, chars / page_chars)


class RecordsStage:
    """readability-lxml's pick, widened to the page's run of records when the run holds it.

    On pages that are not articles readability-lxml's candidate is often one post or one
    card inside the run: the run's container replaces it when it has more words and holds at
    least ``containment`` of the candidate's words (so a run beside the content, a filter
    list or a footer, never replaces it; None: never). On every page, a pick under
    ``small_pick`` of the run's words is replaced by the run wherever it lies. It goes by the
    inner stage's name (the cross-check finds readability-lxml by name); its note says when
    it widened."""

    def __init__(
        self,
        inner: Stage | None = None,
        *,
        max_link_share: float = MAX_LINK_SHARE,
        small_pick: float = SMALL_PICK,
        containment: float | None = CONTAINMENT,
        run_when_skipped: bool = True,
    ) -> None:
        self.inner = inner if inner is not None else ReadabilityLxmlStage()
        self.run_when_skipped = run_when_skipped
        """Whether the run stands in for an inner stage that had nothing or an empty pick
        (readability-js has nothing on every static page: the next stage reads those)."""
        self.name = self.inner.name
        self.max_link_share = max_link_share
        self.small_pick = small_pick
        self.containment = containment

    def __call__(self, page: StageInput) -> Candidate | Skip:
        picked = self.inner(page)
        if isinstance(picked, Skip) and not self.run_when_skipped:
            return picked
        run = find_run(page.document, self.max_link_share)
        if run is None:
            return picked
        note = f"{len(run.records)} {RUN_NOTE}, {run.share:.0%} of the page's text"
        if isinstance(picked, Skip):
            return Candidate(
                copy.deepcopy(run.parent), note=f"{note} ({self.name}: {picked.reason})"
            )
        ours, theirs = (
            folded_words(run.parent.text_content()),
            folded_words(picked.element.text_content()),
        )
        if len(ours) <= len(theirs) or not self.run_when_skipped and len(theirs) < MIN_WORDS:
            return picked  # (an empty pick is the cascade's to reject, as a Skip is)
        if len(theirs) < self.small_pick * len(ours):
            return Candidate(
                copy.deepcopy(run.parent),
                note=f"{note}, in place of {self.name}'s pick of {len(theirs)} words",
            )
        held = sum((Counter(ours) & Counter(theirs)).values()) / (len(theirs) or 1)
        if self.containment is None or held < self.containment:
            return picked
        return Candidate(
            copy.deepcopy(run.parent),
            note=f"widened to {note}, holding {held:.0%} of {self.name}'s pick",
        )
