"""Cross-checking Readability.js's result with readability-lxml's (rendered pages).

When both read the same page and readability-lxml's content lies (almost) wholly inside
Readability.js's, the two agree on the article; what only Readability.js kept is mostly page
chrome (bylines, share lines, related links, footers). The narrower, agreed content is then
the result. Measured on the shared article benchmark's rendered snapshots, this raised the
rendered path's F1 from 0.937 to 0.943 (precision 0.906 to 0.928); see the closing note of
the extraction-quality issue for the command.

On a page made of sections or cards (``WIDER_ON``) the reverse holds too: readability-lxml's
content that is longer and holds Readability.js's is the page, from which Readability.js's
cleaning took sections (``_wider``).

When Readability.js's result stands, readability-lxml's blocks that lie inside it, between
two blocks both kept, are put back (``_filled``): Readability.js's conditional cleaning drops
a code block wrapped in a custom element, a list, an FAQ from the middle of an article. On
the 1,495 wcxb-dev pages rendered offline (a dump of every reading before and after): all
0.8782 -> 0.8789, articles 0.9497 -> 0.9508, services 0.8450 -> 0.8467 (51 pages up, 58
down, 3 by more than 0.02; coryd.dev's git primer 0437 0.59 -> 0.99); the article benchmark's
rendered F1 stayed 0.975.

The containment is read on readability-lxml's prose, its lines that are mostly a link left
out: Readability.js drops link-dense paragraphs by design ("On HoustonChronicle.com: <a>...</a>"
related-story lines inside the article), so such lines say nothing about whether the two read
the same article. Weighed in, they kept Readability.js's result, with a photo gallery whose
captions and controls no class told apart any more (Readability.js strips classes), on a
chron.com page of the script-rendered benchmark: F1 0.859 against 0.953 for readability-lxml's.
"""

from __future__ import annotations

from collections import Counter

import lxml.html

from ._cascade import CascadeResult, Stage, StageInput, attempt
from ._merge import as_content, blocks, interior
from ._postprocess import CleanContent
from ._scores import SHINGLE_SIZE, shingle_counts
from ._text import count_words, text_blocks
from ._types import TraceEntry

CHECKED_STAGE = "readability-js"
CHECKING_STAGE = "readability-lxml"

AGREEMENT_CONTAINMENT = 0.95
"""Share of readability-lxml's prose's word shingles that must also be in Readability.js's
text: at 0.90 to 0.98 the benchmark F1 moved by under 0.002, so the middle was taken."""

AGREEMENT_MIN_WORDS = 50
"""Below this, readability-lxml's content is too short to vouch for an article."""


def cross_check(
    page: StageInput, accepted: CascadeResult, stages: tuple[Stage, ...], *, wider: bool = False
) -> CascadeResult:
    """``accepted``, or readability-lxml's narrower content when the two stages agree, or,
    when ``wider`` (the page's type is made of sections: ``WIDER_ON``), its wider content
    that holds Readability.js's (``_wider``), or ``accepted`` with readability-lxml's blocks
    inside it put back (``_filled``).

    Runs only when Readability.js's result was accepted and readability-lxml is among the
    cascade's stages (so ``--stages readability-js`` alone keeps Readability.js's result).
    """
    checker = next((stage for stage in stages if stage.name == CHECKING_STAGE), None)
    if accepted.stage != CHECKED_STAGE or checker is None:
        return accepted
    _, content, _ = attempt(checker, page)
    if content is None:
        return accepted
    words = count_words(content.text)
    accepted_words = count_words(accepted.content.text)
    if wider and words > accepted_words:
        if (extended := _wider(accepted, content, words - accepted_words)) is not None:
            return extended
    if words < AGREEMENT_MIN_WORDS or words >= accepted_words:
        return _filled(accepted, content)
    shared = prose_inside(content.html, accepted.content.text)
    if shared < AGREEMENT_CONTAINMENT:
        return _filled(accepted, content)
    entry = TraceEntry(
        kind="stage",
        name=CHECKING_STAGE,
        outcome="accepted",
        reason=(
            f"cross-check: {shared:.0%} of its prose is in Readability.js's result, which kept "
            f"{accepted_words - words} more words (page chrome only it kept)"
        ),
        words=words,
    )
    return CascadeResult(stage=CHECKING_STAGE, content=content, trace=[*accepted.trace, entry])


WIDER_ON = frozenset({"service", "collection", "listing"})
"""Page types made of sections or cards, where readability-lxml's reading that holds all of
Readability.js's and more is the page, and Readability.js's conditional cleaning took
sections or cards out of it. On the 1,495 wcxb-dev pages rendered offline: all 0.8790 ->
0.8792, collections 0.7373 -> 0.7398 (2925 0.80 -> 0.95, 0648 0.76 -> 0.84; 7 pages up, one
service page down by 0.002). On every type, articles, forums and documentation lost (0.9508
-> 0.9502, 0.8104 -> 0.8086, 0.9355 -> 0.9352): there the wider reading adds comments,
related stories, a reply's quote. Product pages take trafilatura's choice of blocks, so
the cascade's reading does not reach them."""


def _wider(
    accepted: CascadeResult, checking: CleanContent, more_words: int
) -> CascadeResult | None:
    """readability-lxml's reading, ``more_words`` longer, when it holds Readability.js's prose
    (``prose_inside`` at ``AGREEMENT_CONTAINMENT``): the same content, with what
    Readability.js's conditional cleaning dropped from around and inside it."""
    held = prose_inside(accepted.content.html, checking.text)
    if held < AGREEMENT_CONTAINMENT:
        return None
    entry = TraceEntry(
        kind="stage",
        name=CHECKING_STAGE,
        outcome="accepted",
        reason=(
            f"cross-check: it holds {held:.0%} of Readability.js's prose and {more_words} words "
            "more (sections its cleaning dropped)"
        ),
        words=count_words(checking.text),
    )
    return CascadeResult(stage=CHECKING_STAGE, content=checking, trace=[*accepted.trace, entry])


def _filled(accepted: CascadeResult, checking: CleanContent) -> CascadeResult:
    """Readability.js's result with the blocks readability-lxml read inside it that it
    dropped (``_merge.interior``): its conditional cleaning takes a code block wrapped in a
    custom element, a list or an FAQ from the middle of an article, and what lies between
    two blocks both stages kept is the article's."""
    filled, added = interior(blocks(accepted.content.html), blocks(checking.html))
    if not added:
        return accepted
    content = as_content(filled)
    entry = TraceEntry(
        kind="stage",
        name=CHECKED_STAGE,
        outcome="accepted",
        reason=f"cross-check: {added} blocks of readability-lxml's put back inside its result",
        words=count_words(content.text),
    )
    return CascadeResult(stage=CHECKED_STAGE, content=content, trace=[*accepted.trace, entry])


LINKED_LINE_SHARE = 0.5
"""A line (paragraph, item, heading, cell) whose link text is more than this share of its
text is a link line, not prose. Readability.js's ``_cleanConditionally`` removes a block
whose link density is over 0.5 (0.2 for one its class names weigh down): the same mark,
chosen, not tuned."""
_LINES = ("p", "li", "dd", "dt", "h1", "h2", "h3", "h4", "h5", "h6", "td", "figcaption")


def prose_inside(html: str, accepted_text: str) -> float:
    """Share of the word shingles of ``html``'s prose (without its link lines) that are also in
    ``accepted_text``; 0.0 when it has no prose. Each block's shingles are taken apart: a
    shingle across the gap a dropped line left would be in neither reading."""
    root = lxml.html.fragment_fromstring(html, create_parent="div")
    for line in list(root.iter(*_LINES)):
        if line.getparent() is None:
            continue
        text = len(" ".join(line.text_content().split()))
        linked = sum(len(" ".join(a.text_content().split())) for a in line.iter("a"))
        if text and linked / text > LINKED_LINE_SHARE:
            line.drop_tree()
    accepted = shingle_counts(accepted_text, SHINGLE_SIZE)
    prose: Counter[str] = Counter()
    for block in text_blocks(root):
        prose.update(shingle_counts(block, SHINGLE_SIZE))
    total = sum(prose.values())
    return sum((prose & accepted).values()) / total if total else 0.0
