"""Combining the cascade's reading with trafilatura's, as the page's type says.

The cascade (Readability.js, readability-lxml widened to the run of records, our scorer)
reads articles best; trafilatura reads product and listing pages better; on forums,
collections, documentation, service pages and pages that show no type the union of the two,
merged block by block in the page's order (``_merge``), beats either alone. What each type
gets is ``POLICY``; each entry was chosen on one half of wcxb-dev (split by a hash of the
page id) and held on the other half; the figures are in docs/benchmark-losses.md.

The combination runs only with the default stages (``ExtractOptions.stages`` unset): a
caller who chose stages gets those stages' reading.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from enum import Enum

from ._blockvote import BlockVoteStage
from ._cascade import Candidate, CascadeResult, Skip, StageInput, attempt
from ._merge import as_content, blocks, merge, restyle
from ._options import MIN_WORDS
from ._pagetype import DEFAULT_TYPE, PageType
from ._postprocess import CleanContent
from ._records import reads_a_run
from ._stages import STAGES_BY_NAME
from ._text import count_words, folded_words
from ._trafilatura import TrafilaturaStage
from ._typed import typed_rules, vote_rules
from ._types import TraceEntry, TraceOutcome


class Policy(Enum):
    OURS = "ours"
    """The cascade's reading alone."""
    THEIRS = "theirs"
    """trafilatura's choice of blocks, in the cascade's markup where both hold a block (code
    and its language, figures); the cascade's reading when trafilatura has none."""
    UNION = "union"
    """Both readings merged block by block."""


POLICY: dict[str, Policy] = {
    "article": Policy.OURS,
    "forum": Policy.UNION,
    "product": Policy.THEIRS,
    "collection": Policy.UNION,
    "listing": Policy.THEIRS,
    "documentation": Policy.UNION,
    "service": Policy.UNION,
}
"""What each detected type gets. Documentation moved from ``THEIRS`` to ``UNION`` when the
page-type model began typing documentation the rules had called articles (React's, Flask's,
PostgreSQL's guides): on the pages typed documentation, split by a hash of the id, the union
read 0.913 and 0.924 against trafilatura's choice's 0.896 and 0.918, on both halves, and held
the pages the rules type (0.896/0.937 against 0.898/0.933). An article that showed its
type (schema, og:type, bylines) gets the cascade's reading: there it leads trafilatura (0.940
against 0.934 on the held half). A page that showed no type at all gets ``UNSHOWN_POLICY``."""

UNSHOWN_POLICY = Policy.UNION
"""For a page that showed no type: most are not articles (on wcxb-dev the union read them at
0.792, the cascade at 0.731, trafilatura at 0.776, on both halves)."""

JUDGE_SKIPS_REFINEMENTS = frozenset({"link-farms"})
"""Refinements trafilatura's reading is spared: it prunes link-heavy blocks itself, and what
it keeps of them (a documentation page's index, a listing's entries) is content."""

COMBINED_STAGE = "combined"
"""The stage name of a merged reading."""

RESULT_STAGES = frozenset(
    {*STAGES_BY_NAME, TrafilaturaStage.name, COMBINED_STAGE, BlockVoteStage.name}
)
"""Every name ``Extraction.stage`` can hold: a cascade stage, trafilatura's, or the merge."""


VOTED_TYPES = frozenset({"forum", "collection", "listing", "service"})
"""Types the block vote reads (``_blockvote``): on wcxb-dev, held out two-fold (the page types
too, ``train-block-model --held-out-types``), the reading without the vote -> with it: forum
0.783 -> 0.787, collection 0.578 -> 0.630, listing 0.605 -> 0.660, service 0.814 -> 0.817;
figures in docs/benchmark-losses.md. Products read better with trafilatura's choice of
blocks, documentation with the union (the vote read it 0.917 against 0.921), articles with
the cascade's; on pages that show no type the vote gained 0.002 of mean F1 on wcxb-dev but lost structure (nested lists, figures) and
words on the hand-made article fixtures, so they keep the union."""


VOTE_MIN_SHARE = 0.2
"""On the types in ``VOTE_GUARDED_TYPES``, a vote that keeps fewer words than this share of
what the page reads without it is rejected. The trees sometimes read a listing's or a
collection's records as chrome and keep a heading or two (4354, 2923, 2920: 5 to 15 words
where the page reads 0.8 to 0.97 F1 without the vote). On wcxb-dev (all pages of the voted
types, one run each) 0 -> 0.2 moved collection 0.634 -> 0.659, listing 0.687 -> 0.708 and
service 0.830 -> 0.833, forum unchanged, the gain on both halves of a split by a hash of the
id; 0.1 gained a little less. The block model was grown on these pages, so the figures are
in-sample for the trees, not for the share."""

RUN_MIN_COVER = 0.3
"""On collections and listings whose cascade reading is the page's run of sibling records (its
items, each with a link and text: ``_records``), a vote that keeps under this share of that
reading's words is rejected: the trees read a shop's cards as chrome (a BigCommerce category's
six products, each "only the cascade's", all dropped). On wcxb-dev one collection moved (4852
+0.004); at 0.5 an NPR section front lost its stories to the union (3011 0.84 -> 0.07)."""
RUN_GUARDED_TYPES = frozenset({"collection", "listing"})

VOTE_GUARDED_TYPES = frozenset({"collection", "listing", "service"})
"""The detected types ``VOTE_MIN_SHARE`` applies to. On pages typed forum it lost (wcxb-dev
forums 0.765 -> 0.757: a thread whose vote keeps the posts where the union keeps chrome)."""


def voted(page_type: PageType) -> bool:
    """Whether the block vote reads a page of this type."""
    return page_type.kind in VOTED_TYPES


def policy_for(page_type: PageType) -> Policy:
    """The policy for a page of this type."""
    if page_type.kind == DEFAULT_TYPE and not page_type.shown:
        return UNSHOWN_POLICY
    return POLICY.get(page_type.kind, Policy.OURS)


SMALL_READING = 0.1
"""On a page whose policy is ``OURS``, a cascade reading with under this share of the page's
words (after the pre-clean rules) is a wrong container, not the article: readability-lxml
picking a newsletter box or a table of contents. Such a page gets the ``UNION`` policy.
Measured: wcxb-dev articles 0.932 -> 0.934 at 0.1 (0.935 at 0.2, 0.938 at 0.3), the article
benchmark unchanged at 0.1 but 0.972 -> 0.971 at 0.2 and 0.970 at 0.3 (under its floor)."""

PARTIAL_READING = 0.5
FULLER_READING = 1.5
"""On a page whose policy is ``OURS``, a cascade reading with under ``PARTIAL_READING`` of
the page's words is merged with trafilatura's when that holds at least ``FULLER_READING``
times as many words: readability-lxml kept one section of a long guide or list article (the
intro before its first heading, one product's part of a buyer's guide) and trafilatura the
whole. Where trafilatura reads about as much, the cascade's reading stands: there the extra
is more often boilerplate. Forcing the merge on every such page, measured per page on the
wcxb-dev articles and the article benchmark (a throwaway script reading each page both
ways): wcxb-dev articles 0.9404 -> 0.9449 (0.9300 -> 0.9336 and 0.9500 -> 0.9553 on the
halves of a split by a hash of the id), article benchmark mean shingle F1 0.9691 unchanged;
at 1.0 times the benchmark fell to 0.9664, at 0.6 of the page's words to 0.9687."""

PROSE_BEYOND = 1.2
"""... and only when the page's paragraphs (``<p>``, after the pre-clean rules) hold this
many times the reading's words: a reading of half a news page whose rest is menus and link
lists leaves trafilatura nothing to add. On the article benchmark trafilatura was asked on
29% of the pages for nothing (the merge never moved one); with this guard on 10%, and the
wcxb-dev articles read the same (0.9449; at 1.5 times, 0.9443)."""


def combine(page: StageInput, accepted: CascadeResult, page_type: PageType) -> CascadeResult:
    """The block vote's reading on the types it serves (``voted``); else, or when the vote
    keeps nothing, ``accepted``, trafilatura's reading, or the two merged, as ``policy_for``
    says; every step in the trace."""
    policy = policy_for(page_type)
    vote = voted(page_type)
    partial = False  # the cascade read part of the page: merged only if trafilatura read more
    if policy is Policy.OURS and not vote:
        share = _share(accepted, page)
        if share >= PARTIAL_READING:
            return accepted
        partial = share >= SMALL_READING
        if partial and not _prose_beyond(accepted, page):
            return accepted
        policy = Policy.UNION
    judge = TrafilaturaStage(comments=page_type.kind == "forum")
    outcome, theirs, refinements = attempt(judge, _judge_input(page, page_type))
    if theirs is None or not count_words(theirs.text):
        reason = getattr(outcome, "reason", "no content")
        entry = _entry(judge.name, "skipped", f"{policy.value} policy: {reason}")
        return _with(accepted, accepted.stage, accepted.content, [*refinements, entry])
    if partial and not _fuller(theirs, accepted):
        entry = _entry(
            judge.name,
            "rejected",
            f"{page_type.kind} page: {accepted.stage}'s reading holds under {PARTIAL_READING:g} "
            f"of the page's words, but trafilatura's is not {FULLER_READING:g} times as long",
            count_words(theirs.text),
        )
        return _with(accepted, accepted.stage, accepted.content, [*refinements, entry])
    if vote:
        return _vote(page, page_type, policy, accepted, theirs, refinements)
    return _by_policy(policy, page_type, accepted, theirs, refinements)


def _vote(
    page: StageInput,
    page_type: PageType,
    policy: Policy,
    accepted: CascadeResult,
    theirs: CleanContent,
    refinements: list[TraceEntry],
) -> CascadeResult:
    """The block vote's reading, unless it keeps too few words, or (on ``VOTE_GUARDED_TYPES``)
    under ``VOTE_MIN_SHARE`` of what the page reads without it: then that reading, the vote's
    rejection in its trace."""
    theirs_words = count_words(theirs.text)
    judged = _entry(
        TrafilaturaStage.name,
        "accepted",
        f"a judge of the block vote beside {accepted.stage}: its reading is one of the votes",
        theirs_words,
    )
    stage = BlockVoteStage(accepted.content.text, theirs.text, page_type)
    page = replace(page, rules=vote_rules(page_type, page.rules))
    found, content, vote_refinements = attempt(stage, page)
    words = count_words(content.text) if content is not None else 0
    # What the page reads without the vote (a merge) is computed only when it is needed: a
    # merge of the two readings holds no more words than both together.
    doubtful = (
        VOTE_MIN_SHARE > 0
        and page_type.kind in VOTE_GUARDED_TYPES
        and words < VOTE_MIN_SHARE * (count_words(accepted.content.text) + theirs_words)
    )
    without = _without_vote(policy, page, page_type, accepted, theirs) if doubtful else None
    if isinstance(found, Candidate) and content is not None and _drops_the_run(
        page_type, accepted, content
    ):
        found = Skip(f"kept under {RUN_MIN_COVER:g} of the run of records the cascade read")
    if isinstance(found, Candidate) and content is not None and words >= MIN_WORDS:
        without_words = count_words(without.content.text) if without is not None else 0
        if words >= VOTE_MIN_SHARE * without_words:
            entry = _entry(stage.name, "accepted", f"{page_type.kind} page: {found.note}", words)
            entries = [*refinements, judged, *vote_refinements, entry]
            return _with(accepted, stage.name, content, entries)
        why = f"kept {words} words, under {VOTE_MIN_SHARE:g} of the {without_words} read without it"
    else:
        why = found.reason if isinstance(found, Skip) else "too few words kept"
    if without is None:
        without = _without_vote(policy, page, page_type, accepted, theirs)
    rejected = _entry(stage.name, "rejected", why)
    after = without.trace[len(accepted.trace) :]
    return _with(accepted, without.stage, without.content, [*refinements, rejected, *after])


def _drops_the_run(page_type: PageType, accepted: CascadeResult, vote: CleanContent) -> bool:
    """Whether the vote keeps under ``RUN_MIN_COVER`` of a run of records the cascade read."""
    if page_type.kind not in RUN_GUARDED_TYPES or not reads_a_run(accepted.trace):
        return False
    ours = Counter(folded_words(accepted.content.text))
    kept = sum((ours & Counter(folded_words(vote.text))).values())
    return kept < RUN_MIN_COVER * max(1, sum(ours.values()))


def _without_vote(
    policy: Policy,
    page: StageInput,
    page_type: PageType,
    accepted: CascadeResult,
    theirs: CleanContent,
) -> CascadeResult:
    """What the page reads when the vote does not: its type's policy (a sliver of the page
    that the cascade read as an article is merged with trafilatura's reading)."""
    if policy is Policy.OURS and not _small(accepted, page):
        return accepted
    policy = Policy.UNION if policy is Policy.OURS else policy
    return _by_policy(policy, page_type, accepted, theirs, [])


def _by_policy(
    policy: Policy,
    page_type: PageType,
    accepted: CascadeResult,
    theirs: CleanContent,
    refinements: list[TraceEntry],
) -> CascadeResult:
    """trafilatura's choice of blocks, or the two readings merged (``THEIRS``, ``UNION``)."""
    judge_name = TrafilaturaStage.name
    ours_blocks, theirs_blocks = blocks(accepted.content.html), blocks(theirs.html)
    if policy is Policy.THEIRS:
        selected, counts = restyle(ours_blocks, theirs_blocks)
        content = as_content(selected)
        entry = _entry(
            judge_name,
            "accepted",
            f"{policy.value} policy, {page_type.kind} page: trafilatura's choice of "
            f"blocks in place of {accepted.stage}'s ({counts.both} in both, "
            f"{counts.first_only} only in {accepted.stage}'s)",
            count_words(content.text),
        )
        return _with(accepted, judge_name, content, [*refinements, entry])
    merged, counts = merge(ours_blocks, theirs_blocks)
    if not counts.second_only:  # our reading stands as it was, markup and all
        entry = _entry(
            judge_name,
            "rejected",
            f"{policy.value} policy, {page_type.kind} page: nothing beyond "
            f"{accepted.stage}'s reading ({counts.both} blocks in both)",
            count_words(theirs.text),
        )
        return _with(accepted, accepted.stage, accepted.content, [*refinements, entry])
    content = as_content(merged)
    entry = _entry(
        COMBINED_STAGE,
        "accepted",
        f"{policy.value} policy, {page_type.kind} page: {accepted.stage}'s reading and "
        f"trafilatura's merged: {counts.both} blocks in both, {counts.first_only} only in "
        f"{accepted.stage}'s, {counts.second_only} only in trafilatura's",
        count_words(content.text),
    )
    return _with(accepted, COMBINED_STAGE, content, [*refinements, entry])


def fallback(page: StageInput, page_type: PageType, min_words: int) -> CascadeResult | None:
    """trafilatura's reading when every stage of the cascade came back empty, or None when it
    has fewer than ``min_words`` words too (then the page has no main content)."""
    judge = TrafilaturaStage(comments=page_type.kind == "forum")
    outcome, content, refinements = attempt(judge, _judge_input(page, page_type))
    words = count_words(content.text) if content is not None else 0
    if content is None or words < min_words:
        return None
    entry = _entry(judge.name, "accepted", "every stage of the cascade came back empty", words)
    return CascadeResult(stage=judge.name, content=content, trace=[*refinements, entry])


def _small(accepted: CascadeResult, page: StageInput) -> bool:
    return _share(accepted, page) < SMALL_READING


def _share(accepted: CascadeResult, page: StageInput) -> float:
    """The share of the page's words (after the pre-clean rules) the reading holds."""
    return count_words(accepted.content.text) / max(1, count_words(page.document.text_content()))


def _prose_beyond(accepted: CascadeResult, page: StageInput) -> bool:
    """Whether the page's paragraphs hold ``PROSE_BEYOND`` times the reading's words: else
    there is no prose left for trafilatura to add, and it is not asked."""
    prose = sum(count_words(paragraph.text_content()) for paragraph in page.document.iter("p"))
    return prose >= PROSE_BEYOND * count_words(accepted.content.text)


def _fuller(theirs: CleanContent, accepted: CascadeResult) -> bool:
    return count_words(theirs.text) >= FULLER_READING * count_words(accepted.content.text)


def _judge_input(page: StageInput, page_type: PageType) -> StageInput:
    # The type's rules (a forum keeps its "comments"), less the refinements trafilatura is
    # spared; on a forum also "bylines": a post's author line is part of the post (the gate's
    # forum pages fell from 0.743 to 0.727 F1 with it).
    rules = typed_rules(page_type, page.rules) - JUDGE_SKIPS_REFINEMENTS
    if page_type.kind == "forum":
        rules -= {"bylines"}
    return replace(page, rules=rules)


def _entry(name: str, outcome: TraceOutcome, reason: str, words: int | None = None) -> TraceEntry:
    return TraceEntry(kind="stage", name=name, outcome=outcome, reason=reason, words=words)


def _with(
    accepted: CascadeResult, stage: str, content: CleanContent, entries: list[TraceEntry]
) -> CascadeResult:
    return CascadeResult(stage=stage, content=content, trace=[*accepted.trace, *entries])
