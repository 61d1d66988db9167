"""The cascade's stages, in their default order.

1. ``readability-js``: Mozilla's Readability.js, run by the renderer inside the page (the same
   code as Firefox Reader View); skipped when the snapshot carries no result.
2. ``readability-lxml``: the Python port, on our pre-cleaned copy of the page.
3. ``scorer``: our own linear scorer (see ``_scorer``), the last resort.
"""

from __future__ import annotations

import copy
import logging
import re
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

import lxml.etree
import lxml.html
from readability import Document

from ._cascade import Candidate, Skip, Stage, StageInput
from ._classnames import clear_builder_classes
from ._parse import parse_fragment
from ._readability_paragraphs import transform_misused_divs
from ._readability_parse import prepare
from ._scorer import MAX_ELEMENTS as SCORER_MAX_ELEMENTS
from ._scorer import TooManyElements, best_block

READABILITY_LOGGER = logging.getLogger("readability.readability")


class _QuietFailures(logging.Filter):
    """Drops readability-lxml's error records logged by the threads now running our stage.

    Its only record above INFO is the ``log.exception`` traceback of a page it cannot parse,
    which the cascade records in the trace as the stage's Skip; printed (by the host's handlers
    or Python's last-resort one) it is duplicate noise on stderr. Scoped to our call and thread
    rather than set at import: the host's own use of readability-lxml, and its DEBUG and INFO
    records, stay the host's to see."""

    def __init__(self) -> None:
        super().__init__()
        self.lock = threading.Lock()
        self.threads: Counter[int] = Counter()

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno < logging.ERROR or threading.get_ident() not in self.threads


_QUIET_FAILURES = _QuietFailures()


@contextmanager
def quiet_readability_failures() -> Iterator[None]:
    """While inside, readability-lxml's error records from this thread are dropped."""
    ident = threading.get_ident()
    with _QUIET_FAILURES.lock:
        if not _QUIET_FAILURES.threads:
            READABILITY_LOGGER.addFilter(_QUIET_FAILURES)
        _QUIET_FAILURES.threads[ident] += 1
    try:
        yield
    finally:
        with _QUIET_FAILURES.lock:
            _QUIET_FAILURES.threads[ident] -= 1
            if not _QUIET_FAILURES.threads[ident]:
                del _QUIET_FAILURES.threads[ident]
            if not _QUIET_FAILURES.threads:
                READABILITY_LOGGER.removeFilter(_QUIET_FAILURES)


READABILITY_LXML_MAX_DEPTH = 512
"""readability-lxml recomputes link density and text length over a candidate's whole subtree
for every candidate, so nesting makes it explode: 1.9 s at depth 512 but 15.7 s at 1,024 on
nested links and quotes (found by tests/property/test_fuzz.py). Chromium's HTML parser nests
no deeper than 512 either, so no rendered page is skipped."""

READABILITY_LXML_MAX_NESTING = 1_000_000
"""The same cost on shallower trees: the number of (ancestor, element) pairs. 10,000 links under
260 nested quotes (2.3 million pairs, from the fuzzer) took 10 s; the largest page of the shared
corpora has 120,000 pairs."""


def nesting(root: lxml.html.HtmlElement, max_depth: int) -> tuple[int, int]:
    """(depth, ancestor-descendant pairs) of ``root``'s tree, counted up to ``max_depth + 1``
    levels (iterative: the tree may be far deeper than Python's recursion limit)."""
    # Level by level: one list comprehension a level costs half a (node, depth) stack.
    deepest = pairs = 0
    level = [root]
    while True:
        pairs += deepest * len(level)
        if deepest > max_depth:
            break
        level = [child for element in level for child in element]
        if not level:
            break
        deepest += 1
    return deepest, pairs


class ReadabilityJsStage:
    """Accept the in-page Readability.js result the renderer stored in the snapshot."""

    name = "readability-js"

    def __call__(self, page: StageInput) -> Candidate | Skip:
        result = page.snapshot.readability
        if result is None:
            return Skip("snapshot carries no Readability.js result (static input or disabled)")
        if not result.content or not result.content.strip():
            return Skip("Readability.js returned no content")
        # Its title stays out of the content, as the headline refinement keeps it out of every
        # stage's: the title is the metadata's.
        return Candidate(parse_fragment(result.content), note="Readability.js result from the page")


READABILITY_LXML_MAX_ELEMENTS = 20_000
"""Above this readability-lxml costs seconds (measured: 2.1 s at 50,000 elements, against 1.3 s
for the whole scorer path) without reading huge pages any better, so the scorer takes them, up
to its own cap; beyond that readability-lxml runs after all (16 s at 100,000 elements)."""


class _TreeDocument(Document):
    """readability-lxml's Document on our parsed tree, copied afresh for each of its passes.

    Document mutates the tree it parses and parses again on its lenient retry; given our tree,
    it skips a serialise-and-reparse and keeps what libxml2 drops past depth 255 without
    ``huge_tree`` (its own parser has none). Made without ``url``, which ``prepare`` relies on;
    ``prepare`` skips the cleaner's work our rules already did (see ``_readability_parse``).
    The copy loses the class names that would mislead its class weights (``_classnames``)."""

    def _parse(self, input: lxml.html.HtmlElement) -> lxml.html.HtmlElement:  # noqa: A002
        self.encoding = "utf-8"
        tree = clear_builder_classes(unmark_embedded_posts(copy.deepcopy(input)))
        return prepare(tree, self.handle_failures)

    def transform_misused_divs_into_paragraphs(self) -> None:
        transform_misused_divs(self.html)


EMBEDDED_POST = re.compile(r"tweet|twitter", re.IGNORECASE)
"""readability-lxml drops every element whose class or id says "tweet" or "twitter" as an
unlikely candidate; Readability.js does not. 12 pages of the article benchmark quote tweets,
and their ground truth keeps them."""


def unmark_embedded_posts(tree: lxml.html.HtmlElement) -> lxml.html.HtmlElement:
    """Clear the class and id of quoted posts (``<blockquote class="twitter-tweet">``) in a
    copy readability-lxml is about to read, so that it judges them by their text."""
    for quote in tree.iter("blockquote"):
        for name in ("class", "id"):
            if EMBEDDED_POST.search(quote.get(name, "")):
                del quote.attrib[name]
    return tree


class ReadabilityLxmlStage:
    """readability-lxml 0.9 on the pre-cleaned page."""

    name = "readability-lxml"

    def __call__(self, page: StageInput) -> Candidate | Skip:
        elements = sum(1 for _ in page.document.iter())
        # Over the scorer's own cap nothing else would read the page: slow beats empty.
        if READABILITY_LXML_MAX_ELEMENTS < elements <= SCORER_MAX_ELEMENTS:
            return Skip(f"page has {elements:,} elements (over {READABILITY_LXML_MAX_ELEMENTS:,})")
        # Whatever the element count: the scorer is linear in depth, readability-lxml is not.
        depth, pairs = nesting(page.document, READABILITY_LXML_MAX_DEPTH)
        if depth > READABILITY_LXML_MAX_DEPTH:
            return Skip(f"page is nested deeper than {READABILITY_LXML_MAX_DEPTH} levels")
        if pairs > READABILITY_LXML_MAX_NESTING:
            return Skip(
                f"page nests too much ({pairs:,} ancestor-element pairs, over "
                f"{READABILITY_LXML_MAX_NESTING:,})"
            )
        with quiet_readability_failures():
            summary = _TreeDocument(page.document).summary(html_partial=True)
        if not summary or not summary.strip():
            return Skip("readability-lxml returned nothing")
        return Candidate(parse_fragment(summary), note="readability-lxml summary")


class ScorerStage:
    """Our fallback scorer: always considers the root, so flat pages still give content."""

    name = "scorer"

    def __call__(self, page: StageInput) -> Candidate | Skip:
        try:
            block = best_block(page.document)
        except TooManyElements as exc:
            return Skip(f"gave up: {exc}")
        if block is None:
            return Skip("no block with text")
        return Candidate(
            block.element,
            note=f"best of {block.candidates} blocks: {block.path} (score {block.score})",
        )


READ_AHEAD_STAGES = frozenset({ReadabilityLxmlStage.name})
"""The stages a rendered snapshot's extraction runs while its Readability.js result is on its
way (``_cascade.read_ahead``): readability-lxml reads the cleaned document alone, and the
cross-check runs it on every page whose Readability.js result is accepted (12.6 ms median of
40 rendered article-benchmark snapshots, a third of their extraction)."""

DEFAULT_STAGES: tuple[Stage, ...] = (ReadabilityJsStage(), ReadabilityLxmlStage(), ScorerStage())
STAGES_BY_NAME: dict[str, Stage] = {stage.name: stage for stage in DEFAULT_STAGES}
