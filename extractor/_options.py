"""Options of an extraction: keyword-only, immutable, with defaults that suit most pages."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ._decode import DEFAULT_MAX_BYTES
from ._refine import REFINEMENT_NAMES
from ._rules import PRECLEAN_RULES

if TYPE_CHECKING:
    from ._cascade import Stage

ALL_RULES: frozenset[str] = PRECLEAN_RULES | REFINEMENT_NAMES
"""Every switchable removal: the pre-clean families and the refinements of candidates."""

MIN_WORDS = 2
"""A stage's result with fewer words than this (empty, or a single word) is rejected."""


@dataclass(frozen=True, kw_only=True)
class ExtractOptions:
    """How to extract. ``stages=None`` means the default cascade (see ``DEFAULT_STAGES``)."""

    max_bytes: int = DEFAULT_MAX_BYTES
    rules: frozenset[str] = field(default=ALL_RULES)
    stages: tuple[Stage, ...] | None = None
    min_words: int = MIN_WORDS
