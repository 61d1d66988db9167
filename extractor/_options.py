"""Options of an extraction: keyword-only, immutable, with defaults that suit most pages."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ._counters import POST_COUNTERS
from ._decode import DEFAULT_MAX_BYTES
from ._quotes import REPEATED_QUOTES
from ._refine import REFINEMENT_NAMES
from ._repeats import DISTANT_REPEATS, REPEATED_BLOCKS
from ._rules import PRECLEAN_RULES

if TYPE_CHECKING:
    from ._cascade import Stage

CROSS_CHECK = "cross-check"
"""The switch of Readability.js's cross-check by readability-lxml (``_agreement.py``)."""

NO_CONTENT = "no-content"
"""The switch of the judgement that a page has no main content (``_emptiness.py``)."""

ALL_RULES: frozenset[str] = (
    PRECLEAN_RULES
    | REFINEMENT_NAMES
    | {CROSS_CHECK, NO_CONTENT, POST_COUNTERS, REPEATED_QUOTES, REPEATED_BLOCKS, DISTANT_REPEATS}
)
"""Every switchable removal: the pre-clean families, the refinements of candidates and of the
final reading (``post-counters``, ``repeated-quotes``, ``distant-repeats``,
``repeated-blocks``), and the two judgements."""

MIN_WORDS = 2
"""A stage's result with fewer words than this (empty, or a single word) is rejected."""


@dataclass(frozen=True, kw_only=True)
class ExtractOptions:
    """How to extract. ``stages=None`` means the default cascade (see ``DEFAULT_STAGES``).

    Content options (the CLI's --no-links, --no-tables, --no-images, --include-comments,
    --min-length) apply to every output form alike:

    - ``links=False``: link text is kept, link targets are dropped.
    - ``tables=False`` / ``images=False``: tables / images are removed.
    - ``include_comments=True``: the page's comment section is read into
      ``Extraction.comments``; the main content never holds it (the ``comments`` rule then
      runs even if ``rules`` leaves it out).
    - ``min_length=N``: a result of fewer than N words raises ``ContentTooShortError``.
    """

    max_bytes: int = DEFAULT_MAX_BYTES
    rules: frozenset[str] = field(default=ALL_RULES)
    stages: tuple[Stage, ...] | None = None
    min_words: int = MIN_WORDS
    links: bool = True
    tables: bool = True
    images: bool = True
    include_comments: bool = False
    min_length: int = 0

    def __post_init__(self) -> None:
        if self.min_length < 0:
            raise ValueError(f"min_length must be 0 or more, not {self.min_length}")
