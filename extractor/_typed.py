"""How the page's type (``_pagetype``) changes the extraction: which rules run, which stages.

Articles keep the default cascade, which the article benchmark tuned. On every other type
readability-lxml's pick is widened to the page's run of sibling records when the run holds it
(``_records.RecordsStage``): a thread's posts, a listing's entries, a collection's cards, a
service page's feature blocks, a documentation page's sections. On forums the ``comments``
rule is off: there the posts are the content, and their class often says "comment".
Each change was kept for raising its types' F1 on wcxb-dev without lowering the others' or
the article benchmark's (the figures are in the commits that made them).
"""

from __future__ import annotations

from ._cascade import Stage
from ._pagetype import DEFAULT_TYPE, PageType
from ._records import RecordsStage
from ._types import TraceEntry

WIDENED_STAGE = "readability-lxml"
"""The stage whose pick ``RecordsStage`` widens on pages that are not articles."""
KEEP_COMMENTS_ON = frozenset({"forum"})
"""Types whose posts the ``comments`` rule would throw away."""


def typed_rules(page_type: PageType, rules: frozenset[str]) -> frozenset[str]:
    """``rules`` less those that remove the content of a page of this type."""
    if page_type.kind in KEEP_COMMENTS_ON:
        return rules - {"comments"}
    return rules


def typed_stages(page_type: PageType, stages: tuple[Stage, ...]) -> tuple[Stage, ...]:
    """``stages`` with readability-lxml widened to the run of records, except on pages that
    show themselves as articles."""
    if page_type.kind == DEFAULT_TYPE and page_type.shown:
        return stages
    return tuple(RecordsStage(stage) if stage.name == WIDENED_STAGE else stage for stage in stages)


def page_type_entry(page_type: PageType) -> TraceEntry:
    """The trace's record of the page type and its evidence."""
    evidence = "; ".join(page_type.evidence) or "no evidence: the default"
    return TraceEntry(kind="page-type", name=page_type.kind, outcome="accepted", reason=evidence)
