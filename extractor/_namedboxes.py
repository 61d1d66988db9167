"""The rule families that remove boxes by their names (``_rules``): consent banners, customer
reviews and review widgets, what the site leaves out of print, notices of an outdated
browser, forum signatures and a board's statistics and sidebars, a manual's controls, filter
panels. The names and each family's limits are data in ``_boxnames``; a few families also read
an attribute other than class and id (an ``aria-label``, a ``data-role``), where the platform
names its box only there."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

import lxml.etree
from lxml.html import HtmlElement

from ._boxnames import (
    BOARD_SIDEBARS,
    BOARD_SIDEBARS_MARKERS,
    BOARD_SIDEBARS_MAX_SHARE,
    BROWSER_NOTICES,
    BROWSER_NOTICES_MARKERS,
    BROWSER_NOTICES_MAX_SHARE,
    CONSENT,
    CONSENT_LABEL,
    CONSENT_LABEL_ROLES,
    CONSENT_MARKERS,
    CONSENT_MAX_SHARE,
    DOC_CONTROLS,
    DOC_CONTROLS_MARKERS,
    DOC_CONTROLS_MAX_SHARE,
    FACETS,
    FACETS_LINK_SHARE,
    FACETS_MARKERS,
    FACETS_MAX_SHARE,
    FORUM_STATS,
    FORUM_STATS_MARKERS,
    FORUM_STATS_MAX_SHARE,
    REVIEW_WIDGETS,
    REVIEW_WIDGETS_MARKERS,
    REVIEW_WIDGETS_MAX_SHARE,
    REVIEWS,
    REVIEWS_MARKERS,
    REVIEWS_MAX_SHARE,
    REVIEWS_MIN_WORDS,
    SIGNATURE_MARKS,
    SIGNATURES,
    SIGNATURES_MAX_SHARE,
    UNPRINTED,
    UNPRINTED_MARKERS,
    UNPRINTED_MAX_SHARE,
)
from ._walk import CONTENT_ROOTS, PROTECTED, Walk, class_and_id


def select_consent(walk: Walk) -> Iterable[HtmlElement]:
    share = _under_share(CONSENT_MAX_SHARE)
    labelled = [
        el
        for el in walk.chrome
        if el.get("role") in CONSENT_LABEL_ROLES
        and CONSENT_LABEL.search(_accessible_name(walk, el).lower())
    ]
    named = _named_boxes(walk, CONSENT, CONSENT_MARKERS, share)
    dialogs = [el for el in labelled if el.get("role") != "region"]
    regions = [el for el in labelled if el.get("role") == "region"]
    # A dialog named for cookies is one at any share: a privacy policy is not in a dialog,
    # and a product page with little text of its own can hold a preference centre's pages.
    found = _with_marked(walk, named, regions, share)
    return _with_marked(walk, found, dialogs, lambda text, page_text: True)


def _accessible_name(walk: Walk, element: HtmlElement) -> str:
    """``element``'s ``aria-label``, else the text of the elements its ``aria-labelledby``
    names (a consent manager's dialog titled "Customize Your Cookie Settings" by its heading).
    They are looked up among the walk's elements, which keep their text when a family run
    before has removed them (the title in a ``<header>`` the chrome family took)."""
    label = element.get("aria-label")
    if label or not (ids := set((element.get("aria-labelledby") or "").split())):
        return label or ""
    return " ".join(el.text_content() for el, _, _ in walk.labelled if el.get("id") in ids)


def _with_marked(
    walk: Walk,
    named: Iterable[HtmlElement],
    marked: list[HtmlElement],
    accept: Callable[[str, int], bool],
) -> list[HtmlElement]:
    """The boxes ``_named_boxes`` found, and those of ``marked`` (named by another attribute)
    still in the tree that ``accept`` takes and that are not found already."""
    found = list(named)
    if not marked:
        return found
    page_text = len(walk.root.text_content()) or 1
    return found + [
        el
        for el in walk.live(marked)
        if el not in found and el.tag not in PROTECTED and accept(el.text_content(), page_text)
    ]


def _under_share(share: float) -> Callable[[str, int], bool]:
    """``_named_boxes``' test of a box holding under ``share`` of the page's text."""
    return lambda text, page_text: len(text) < share * page_text


def _by_names(
    names: re.Pattern[str], markers: tuple[str, ...], max_share: float
) -> Callable[[Walk], Iterable[HtmlElement]]:
    """A family that removes the boxes ``names`` finds (``_named_boxes``) holding under
    ``max_share`` of the page's text: most families are no more than that."""
    share = _under_share(max_share)
    return lambda walk: _named_boxes(walk, names, markers, share)


def _named_boxes(
    walk: Walk,
    names: re.Pattern[str],
    markers: tuple[str, ...],
    accept: Callable[[str, int], bool],
) -> Iterable[HtmlElement]:
    """Elements whose class or id ``names`` matches, outside the content roots, that
    ``accept`` takes given their text and the length of the page's text. Every match of
    ``names`` holds one of the ``markers``: a page whose labels hold none is not searched."""
    labels = walk.labels
    if not any(marker in labels for marker in markers):
        return ()
    found = [el for el, _, lowered in walk.labelled if names.search(lowered)]
    if not found:  # a marker without the names around it ("cookie" alone is a recipe's)
        return ()
    page_text = len(walk.root.text_content()) or 1
    return (
        el
        for el in walk.live(found)
        if el.tag not in PROTECTED
        and el.tag not in CONTENT_ROOTS
        and accept(el.text_content(), page_text)
    )


def select_reviews(walk: Walk) -> Iterable[HtmlElement]:
    share = _under_share(REVIEWS_MAX_SHARE)
    return (
        el
        for el in _named_boxes(walk, REVIEWS, REVIEWS_MARKERS, share)
        if len(el.text_content().split()) >= REVIEWS_MIN_WORDS
        or _REVIEW_ITEM(el)
        or "product-comment" in class_and_id(el).lower()  # PrestaShop's reviews, never a summary
    )


_REVIEW_ITEM = lxml.etree.XPath(
    "boolean(.//*[@itemprop='review' or @itemprop='reviews'"
    " or substring(@itemtype, string-length(@itemtype) - 5) = 'Review'"
    " or contains(concat(' ', normalize-space(@class), ' '), ' review-item ')])"
)
"""Whether a box holds a review itself (schema.org microdata, or an item named so): then it
is other buyers' words however short, not a rating's summary (Magento's "block review-list"
of two reviews, Best Buy's "review-item")."""


select_review_widgets = _by_names(REVIEW_WIDGETS, REVIEW_WIDGETS_MARKERS, REVIEW_WIDGETS_MAX_SHARE)


select_unprinted = _by_names(UNPRINTED, UNPRINTED_MARKERS, UNPRINTED_MAX_SHARE)


select_browser_notices = _by_names(
    BROWSER_NOTICES, BROWSER_NOTICES_MARKERS, BROWSER_NOTICES_MAX_SHARE
)


def select_signatures(walk: Walk) -> Iterable[HtmlElement]:
    share = _under_share(SIGNATURES_MAX_SHARE)
    marked = [
        el
        for el in walk.components
        if any(el.get(name) == value for name, value in SIGNATURE_MARKS)
    ]
    return _with_marked(walk, _named_boxes(walk, SIGNATURES, ("signature",), share), marked, share)


select_forum_stats = _by_names(FORUM_STATS, FORUM_STATS_MARKERS, FORUM_STATS_MAX_SHARE)


select_doc_controls = _by_names(DOC_CONTROLS, DOC_CONTROLS_MARKERS, DOC_CONTROLS_MAX_SHARE)


select_board_sidebars = _by_names(BOARD_SIDEBARS, BOARD_SIDEBARS_MARKERS, BOARD_SIDEBARS_MAX_SHARE)


_CONTROLS = ("input", "select", "button", "label")


def select_facets(walk: Walk) -> Iterable[HtmlElement]:
    return (
        el
        for el in _named_boxes(walk, FACETS, FACETS_MARKERS, _under_share(FACETS_MAX_SHARE))
        if _is_control_panel(el)
    )


def _is_control_panel(element: HtmlElement) -> bool:
    """Whether ``element`` is made of form controls or links: Tailwind's "filter" utility on a
    picture or a card is neither."""
    if next(element.iter(*_CONTROLS), None) is not None:
        return True
    text = len(element.text_content().strip())
    linked = sum(len(a.text_content().strip()) for a in element.iter("a"))
    return bool(text) and linked >= FACETS_LINK_SHARE * text
