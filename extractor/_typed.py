"""How the page's type (``_pagetype``) changes the extraction: which rules run, which stages.

On every page readability-lxml's pick is replaced by the page's run of sibling records when
the pick is a fragment of it (``_records.SMALL_PICK``). On a page that does not show itself
as an article it is also widened to the run when the run holds it (``_records.RecordsStage``):
a thread's posts, a listing's entries, a collection's cards, a service page's feature
blocks, a documentation page's sections. On forums the ``comments``
rule is off: there the posts are the content, and their class often says "comment". The
block vote's reading of a collection or listing is spared the refinements that would undo
what the block model kept (``vote_rules``).
Each change was kept for raising its types' F1 on wcxb-dev without lowering the others' or
the article benchmark's (the figures are in the commits that made them).
"""

from __future__ import annotations

from ._cascade import Stage
from ._counters import POST_COUNTERS
from ._pagetype import DEFAULT_TYPE, PageType
from ._quotes import REPEATED_QUOTES
from ._records import CONTAINMENT, RecordsStage
from ._repeats import DISTANT_REPEATS, REPEATED_BLOCKS
from ._types import TraceEntry

WIDENED_STAGE = "readability-lxml"
"""The stage whose pick ``RecordsStage`` widens on pages that are not articles."""
WIDENED_IN_PAGE = "readability-js"
"""Widened the same way on rendered pages, where it runs first: Readability.js also picks
one post of a thread (its pick is read by its words, as readability-lxml's is)."""
KEEP_COMMENTS_ON = frozenset({"forum"})
"""Types whose posts the ``comments`` rule would throw away."""
KEEP_AUTHORS_ON = frozenset({"forum", "collection"})
"""Types whose posts and entries keep their authors' names through the ``bylines`` refinement
(which still takes the dates and the members' cards around them): a thread keeps its posts
with their authors. On the 113 wcxb-dev forums: 0.7869 -> 0.7867 mean F1, ``without`` 23 ->
22 (the ground truths keep some names and some dates); with bylines off on forums altogether,
0.7819. A collection's entries keep theirs too (a news topic page's "By Harriet Okonjo"
under each story, the date gone): the 117 collections 0.7083 -> 0.7084 (0956 +0.02),
listings spare the whole line in the vote (``VOTE_SPARES``)."""
KEEP_TEASERS_ON = frozenset({"listing", "collection", "product"})
"""Types whose records the ``teasers`` refinement would throw away: a listing's headlines and
a collection's categories are lines that are a link alone, in runs (on all 1,497 wcxb-dev
pages the refinement everywhere cost listings 0.714 -> 0.703 and collections 0.658 -> 0.655
mean F1, while articles, services and forums gained)."""
KEEP_OUTSIDE_ARTICLE_ON = frozenset({"listing", "collection", "product"})
"""Types whose content the ``article-boundary`` refinement would cut: on a shop's or a
listing's page the one ``<article>`` is a card or the product's own box, not the edge of the
content, and the feature bullets or entries beside it went (Supernatural Kitchen's "Colors from
plants & spices", 0611: 0.805 -> 0.962). On all 1,497 wcxb-dev pages: products 0.6644 ->
0.6655, listings 0.7575 -> 0.7592, collections unchanged, all 0.8702 -> 0.8704 (4263 -0.07,
0259 -0.01). Services and documentation lost by it (0135 -0.14)."""
KEEP_CAPTIONS_ON = frozenset({"collection"})
"""Types whose records the ``captions`` refinement would throw away: a product grid's card is
a picture with the product's name and price beside it (on all 1,497 wcxb-dev pages, keeping
them on collections moved those 0.663 -> 0.673 mean F1; on listings and products, where a
figure's text is more often a caption, they lost)."""


REVIEWS_ONLY_ON = frozenset({"product"})
"""Types whose customer reviews the ``reviews`` rule removes: on a product page they are
what buyers say of it, not the product's description; elsewhere a "review" box is more
often the content (a product review, a buying guide)."""


SHELVES_ONLY_ON = frozenset({"product"})
"""Types whose shelves of other products ("Similar items", "You may also like") the
``shelves`` rule removes: on a collection or a listing such a row is more of the same records,
on an article a "Related products" box is rarer than a related-stories one, which the
``teasers`` refinement reads."""


FACETS_ONLY_ON = frozenset({"collection", "listing"})
"""Types whose filter and sort panels the ``facets`` rule removes: elsewhere a box named
"filter" is more often what the page is about (a water filter, a photo filter's settings)."""
COUNTERS_ONLY_ON = frozenset({"forum"})
"""Types whose lines that are a bare number or a count ("#3", "Posts: 1,234") the
``post-counters`` refinement (``_counters``) removes: on a thread they are each post's
furniture; elsewhere a bare number is a price, a step or a table's figure."""

QUOTES_ONLY_ON = frozenset({"forum"})
"""Types whose quotes of what the page already said the ``repeated-quotes`` refinement
(``_quotes``) removes: a reply's quote of the opening post; elsewhere a repeated quote is an
article's pull quote: of the 38 on wcxb-dev's articles as served, the ground truths hold 10
twice, 10 once and 18 not at all."""


KEEP_COLLAPSED_ON = frozenset({"service", "product"})
"""Types whose collapsed accordion panels the ``collapsed`` rule would throw away: a service
page's FAQ answers and plan details, a product's specification sections, hidden as served
until their button is clicked (the renderer clicks them open, and ``_unhide`` keeps a rendered
product's hidden tabs). On all 1,497 wcxb-dev pages, keeping them on services moved those
0.8390 -> 0.8447 mean F1 (4911 +0.26, 0374 +0.23, 1056 +0.21; 4873 -0.03), no product page
moved. Kept everywhere, they also cost articles (PMC's author and licence notes, 4055 -0.08)
and swung collections by 0.4 a page either way (REI's buying guides: kept by some ground
truths, not by others; the grid's reading changes with them): 0.6794 -> 0.6782."""


KEEP_REPEATS_ON = frozenset({"documentation"})
"""Types whose passages repeated word for word the ``repeated-blocks`` refinement
(``_repeats``) would thin: a documentation page repeats a command or a code sample in each
section or tab that needs it."""


DISTANT_REPEATS_ONLY_ON = frozenset({"forum", "product", "collection", "listing"})
"""Types whose readings lose a copy of a paragraph however far from its first (``_repeats``):
a thread's reply quoting an earlier post without naming it, a story card shown again in
another shelf of a news front page, a shop's buying guide served twice. On all 1,497 wcxb-dev
pages 0.8761 -> 0.8766 (forums 0.8083 -> 0.8099, listings 0.7619 -> 0.7657, collections
0.7350 -> 0.7373, products 0.6748 -> 0.6758; 14 pages up, 3 down: 0148, a vacation offers
page read as a collection whose offers share their fine print, -0.08; 0544 -0.06, a thread
whose ground truth keeps a quote). An article keeps its distant repeats (a meal plan's weeks
share their supplements), and so does a service page (each offer's terms share clauses:
services -0.0008 in a text-level trial with them too). Its reach holds the near copies too, so
``repeated-blocks`` is off where it runs: a second pass over the reading found nothing on the
401 such wcxb-dev pages that reached it, at 0.9 ms a page (median)."""


KEEP_UNPRINTED_ON = frozenset({"forum"})
"""Types whose parts the site's print style leaves out the ``unprinted`` rule would throw
away: Wall Street Oasis prints a thread without its replies (``hidden-print`` on them, 2201:
0.975 -> 0.356 F1 with the rule on)."""


BOARD_SIDEBARS_ONLY_ON = frozenset({"forum"})
"""Types whose sidebar named "side" the ``board-sidebars`` rule removes (``_boxnames``)."""


DOC_CONTROLS_ONLY_ON = frozenset({"documentation"})
"""Types whose version pickers and item controls the ``doc-controls`` rule removes: a
"version" box elsewhere is as often a product's or a release's content."""


ONLY_ON: dict[str, frozenset[str]] = {
    "board-sidebars": BOARD_SIDEBARS_ONLY_ON,
    "doc-controls": DOC_CONTROLS_ONLY_ON,
    "reviews": REVIEWS_ONLY_ON,
    "shelves": SHELVES_ONLY_ON,
    "facets": FACETS_ONLY_ON,
    POST_COUNTERS: COUNTERS_ONLY_ON,
    REPEATED_QUOTES: QUOTES_ONLY_ON,
    DISTANT_REPEATS: DISTANT_REPEATS_ONLY_ON,
}
"""Rules that run on these types only."""
OFF_ON: dict[str, frozenset[str]] = {
    "comments": KEEP_COMMENTS_ON,
    "unprinted": KEEP_UNPRINTED_ON,
    "teasers": KEEP_TEASERS_ON,
    "captions": KEEP_CAPTIONS_ON,
    "collapsed": KEEP_COLLAPSED_ON,
    "article-boundary": KEEP_OUTSIDE_ARTICLE_ON,
    REPEATED_BLOCKS: KEEP_REPEATS_ON | DISTANT_REPEATS_ONLY_ON,
}
"""Rules that run on every type but these."""


def typed_rules(page_type: PageType, rules: frozenset[str]) -> frozenset[str]:
    """``rules`` less those that remove the content of a page of this type."""
    kind = page_type.kind
    off = {rule for rule, kinds in ONLY_ON.items() if kind not in kinds}
    off.update(rule for rule, kinds in OFF_ON.items() if kind in kinds)
    return rules - off


VOTE_SPARES: dict[str, frozenset[str]] = {
    "collection": frozenset({"link-farms"}),
    "listing": frozenset({"link-farms", "bylines"}),
}
"""Refinements the block vote's reading of a page of these types is spared: the block model
judged its blocks. A product grid's cards and a listing's entries are mostly links, and
``link-farms`` dropped whole grids the model had kept (chessbazaar's 20 products, 4139: 0.61
-> 0.99 F1); a listing's entries carry their author and date lines, which ``bylines`` took.
On all 1,497 wcxb-dev pages, ``link-farms`` spared: collections 0.6794 -> 0.7017, listings
0.7299 -> 0.7497 (spared on forums and services too, those lost 0.003 and 0.001). Each other
refinement spared on every voted type, one at a time (summed F1 over the pages typed so):
only ``bylines`` on listings paid, +0.56; spared on listings alone, listings 0.7497 ->
0.7552."""


def vote_rules(page_type: PageType, rules: frozenset[str]) -> frozenset[str]:
    """``rules`` for the block vote's reading of a page of this type (``VOTE_SPARES``)."""
    return rules - VOTE_SPARES.get(page_type.kind, frozenset())


def typed_stages(page_type: PageType, stages: tuple[Stage, ...]) -> tuple[Stage, ...]:
    """``stages`` with readability-lxml's pick (and Readability.js's, on a rendered page)
    replaced by the run of records when it is a fragment of the run, and widened to the run
    when the run holds it, except on pages that show themselves as articles (the article
    benchmark lost by the widening there)."""
    article = page_type.kind == DEFAULT_TYPE and page_type.shown
    containment = None if article else CONTAINMENT
    # Readability.js's pick is what Reader View shows: on any article, shown or not, only a
    # fragment of the run gives way to it, and it is widened only on pages of another type.
    in_page = None if page_type.kind == DEFAULT_TYPE else containment
    return tuple(_typed_stage(stage, containment, in_page) for stage in stages)


def _typed_stage(stage: Stage, containment: float | None, in_page: float | None) -> Stage:
    if stage.name == WIDENED_STAGE:
        return RecordsStage(stage, containment=containment)
    if stage.name == WIDENED_IN_PAGE:
        return RecordsStage(stage, containment=in_page, run_when_skipped=False)
    return stage


def page_type_entry(page_type: PageType) -> TraceEntry:
    """The trace's record of the page type and its evidence."""
    evidence = "; ".join(page_type.evidence) or "no evidence: the default"
    return TraceEntry(kind="page-type", name=page_type.kind, outcome="accepted", reason=evidence)
