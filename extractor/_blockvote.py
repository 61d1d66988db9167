"""The block vote: every block of the cleaned page judged on its own, with the cascade's reading
and trafilatura's as two of the voices.

Picking one reading per page cannot beat the better of the two; a grid of product cards that
neither reading kept, or the filters both kept, are lost or kept whole. Here the page is cut
into blocks (``_segment``), each block gets its features (``_blockfeatures``: both readings'
votes, its shape, its context) and the block model (``_blockmodel``) keeps the blocks it rates
at or above its threshold, in page order, as one candidate that is refined and post-processed
like any stage's. The trace counts what was kept and dropped by how the two readings voted.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from lxml.html import HtmlElement

from ._blockfeatures import FEATURES, Reading, block_matrix
from ._blockmodel import block_model
from ._cascade import Candidate, Skip, StageInput
from ._furniture import holds_author_name
from ._merge import Block, detached, list_tag, paragraph_of, to_element
from ._pagetype import PageType
from ._segment import PageBlock, segment

VOTE_STAGE = "block-vote"
AS_PARAGRAPH = frozenset(
    {"td", "th", "button", "label", "option", "summary", "caption", "figcaption", "dt", "dd"}
)
"""Blocks that make no sense outside their parent element: written as paragraphs."""
HELD = 0.5
"""A reading holds a block when its vote is at least this (for the trace's counts)."""
POST_HEADER_MAX_WORDS = 20
"""The most words of a post's header line: a name, a score, a date, a reply count."""
VOTE_OURS, VOTE_THEIRS = FEATURES.index("vote_ours"), FEATURES.index("vote_theirs")


@dataclass
class BlockVoteStage:
    """The blocks the model keeps, as a stage the cascade's runner can refine and post-process;
    ``ours`` and ``theirs`` are the two readings' text."""

    ours: str
    theirs: str
    page_type: PageType
    name: str = VOTE_STAGE

    def __call__(self, page: StageInput) -> Candidate | Skip:
        model = block_model()
        if model is None:
            return Skip("no block model in this installation")
        body = page.document.find("body")
        blocks = segment(body if body is not None else page.document)
        if not blocks:
            return Skip("no blocks with words")
        rows = block_matrix(blocks, Reading(self.ours), Reading(self.theirs), self.page_type)
        kept = kept_blocks(rows, model.probabilities(rows), model.keep_at)
        if self.page_type.kind == "forum":
            kept = with_post_authors(blocks, kept)
        if not kept.any():
            return Skip(f"the model kept none of {len(blocks)} blocks")
        root = _assemble([block for block, keep in zip(blocks, kept, strict=True) if keep])
        return Candidate(root, _tally(blocks, rows, kept))


def kept_blocks(
    rows: npt.NDArray[np.float64], probabilities: npt.NDArray[np.float64], keep_at: float
) -> npt.NDArray[np.bool_]:
    """The blocks kept: rated ``keep_at`` or above, or held by both judges whatever the trees
    say (they arbitrate the rest). The second keeps the end of a list longer than any the
    trees were grown on, whose place on the page reads like a footer's."""
    agreed = (rows[:, VOTE_OURS] >= HELD) & (rows[:, VOTE_THEIRS] >= HELD)
    kept: npt.NDArray[np.bool_] = (probabilities >= keep_at) | agreed
    return kept


def with_post_authors(
    blocks: list[PageBlock], kept: npt.NDArray[np.bool_]
) -> npt.NDArray[np.bool_]:
    """``kept``, and on a thread each short line naming an author just before a block the model
    kept: a post's header ("[–] Ragnar_Dragonfyre 189 points 17 hours ago") over its text.
    The trees drop such lines, mostly links and dates; the ``bylines`` refinement then keeps
    the name alone, as a thread keeps its posts with their authors. Only the line next to a
    kept block: a members list above the thread, a line each, is not pulled in after it."""
    with_authors = kept.copy()
    for index, block in enumerate(blocks[:-1]):
        if (
            kept[index + 1]
            and not kept[index]
            and len(block.tokens) <= POST_HEADER_MAX_WORDS
            and block.run is None
            and holds_author_name(block.element)
        ):
            with_authors[index] = True
    return with_authors


def _tally(
    blocks: list[PageBlock], rows: npt.NDArray[np.float64], kept: npt.NDArray[np.bool_]
) -> str:
    """The trace's account: blocks kept and dropped, by which readings held them."""
    votes = rows[:, [VOTE_OURS, VOTE_THEIRS]] >= HELD
    counts: Counter[tuple[bool, str]] = Counter()
    for (ours, theirs), keep in zip(votes, kept, strict=True):
        held = "both" if ours and theirs else "ours" if ours else "theirs" if theirs else "neither"
        counts[(bool(keep), held)] += 1

    def listed(keep: bool) -> str:
        return ", ".join(
            f"{counts[(keep, held)]} {label}"
            for held, label in (
                ("both", "both readings held"),
                ("ours", "only the cascade's"),
                ("theirs", "only trafilatura's"),
                ("neither", "neither"),
            )
            if counts[(keep, held)]
        )

    total_kept = sum(n for (keep, _), n in counts.items() if keep)
    return (
        f"block model kept {total_kept} of {len(blocks)} blocks ({listed(True)}); "
        f"dropped {listed(False) or 'none'}"
    )


def _assemble(kept: list[PageBlock]) -> HtmlElement:
    """The kept blocks in order under one ``<div>``: list items inside a list of their kind
    again (``_merge.to_element``), cells and labels as paragraphs, a run of loose content as a
    paragraph of its inline content."""
    return to_element([_as_block(block) for block in kept])


def _as_block(block: PageBlock) -> Block:
    if block.run is not None:
        return Block(paragraph_of(block.run), "")
    element = detached(block.element)
    if element.tag in AS_PARAGRAPH:
        element.tag = "p"
    return Block(element, "", list_tag(block.element) if element.tag == "li" else None)
