"""Pre-clean rule families: what is removed before any stage scores the page.

One family per kind of non-content, each with one switch (its name in ``ExtractOptions.rules``)
and that same name in the trace when it removes something. Rules select elements; the runner
removes them (keeping their tail text, which belongs to the parent) on the caller's copy.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from lxml.html import HtmlElement

from ._forms import select_forms
from ._namedboxes import (
    select_board_sidebars,
    select_browser_notices,
    select_consent,
    select_doc_controls,
    select_facets,
    select_forum_stats,
    select_review_widgets,
    select_reviews,
    select_signatures,
    select_unprinted,
)
from ._placeholders import select_placeholders
from ._promobars import select_promo_bars
from ._shelves import select_shelves
from ._signups import select_signups
from ._spoken import A11Y_LABEL, is_shown_twin_or_separator
from ._text import excerpt as readable_excerpt
from ._toggled import is_toggled_answer
from ._types import TraceEntry, TraceKind
from ._walk import CHROME_TAGS, CONTENT_ROOTS, PROTECTED, Walk
from ._walk import FEED_MARK as FEED_MARK
from ._walk import HIDDEN_MARK as HIDDEN_MARK
from ._walk import VISIBLE_MARK as VISIBLE_MARK

CHROME_MAX_SHARE = 0.5
"""Never drop a header/footer/nav holding at least half the page's text: then it is the page."""
FOOTER_MAX_SHARE = 0.9
"""A footer's limit: a footer is the page only when it wraps it. Apple's and Samsung-style
global footers carry pages of legal footnotes, often more text than the page's own sections."""


_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
WEBFLOW_HIDDEN = frozenset({"w-condition-invisible", "w-form-done", "w-form-fail"})
"""Classes every Webflow style sheet hides: what a CMS condition hides (a post's gated copy,
an empty field's placeholder) and a form's answers, shown once it is sent ("Thank you! Your
submission has been received!"): on wcxb-dev all 0.8767 -> 0.8768, 3 pages up, none down."""
WEBFLOW_PREFIXES = ("w-condition-invisible", "w-form-")  # substrings of those names
_EXECUTABLE_TAGS = (
    "script",
    "style",
    "template",
    "noscript",
    "object",
    "embed",
    "applet",
    "link",
    "iframe",
    "frame",
    "frameset",
    "dialog",
)
_CHROME_ROLES = ("banner", "contentinfo", "navigation")
_DIALOG_ROLES = ("dialog", "alertdialog")
_BOOTSTRAP_HIDDEN = re.compile(r"(?:^|\s)d-none(?:$|\s)")
"""Bootstrap's display:none class: Stack Overflow prints each user's name twice, once in a
``d-none`` span (for a layout it switches to by script)."""
_BOOTSTRAP_SHOWN = re.compile(r"(?:^|\s)d-(?:sm|md|lg|xl|xxl|print)-(?!none)")


@dataclass(frozen=True)
class RuleFamily:
    """A named family of removals with the function that picks its elements from a walk."""

    name: str
    description: str
    pick: Callable[[Walk], Iterable[HtmlElement]]

    def select(self, root: HtmlElement) -> Iterable[HtmlElement]:
        """The elements of ``root`` this family removes (nested ones included)."""
        return self.pick(Walk(root))


_SCRIPT_DATA = "section-metadata"
"""The class of the key-value tables Adobe's Edge Delivery pages serve for their own scripts
("style | text-center", "source | insurance_lp_hero"): aem.js reads each into its section's
attributes and removes it, so a reader never sees one."""


def _select_executable(walk: Walk) -> Iterable[HtmlElement]:
    yield from walk.root.iter(*_EXECUTABLE_TAGS)
    if _SCRIPT_DATA in walk.labels:  # a substring search first: most pages have none
        for el, _, _ in walk.labelled:
            if el.tag == "div" and _SCRIPT_DATA in el.get("class", "").split():
                yield el


def is_hidden(element: HtmlElement) -> bool:
    """Whether the markup (or the renderer's marks) hides ``element`` from a reader."""
    if is_toggled_answer(element):
        return False  # an FAQ's answer a script toggles: a click away (``_toggled``)
    if element.get("role") == "tabpanel" and element.get(HIDDEN_MARK) is None:
        # a tab's panel is a click away: its hidden attribute or style says which tab is
        # showing, not that a reader never sees it (what the renderer saw hidden still goes)
        return False
    hidden = element.get("hidden")
    if hidden is not None and hidden.lower() != "until-found":  # until-found is revealable
        return True
    if element.get("aria-hidden", "").lower() == "true":
        if element.tag == "a" and element.get("tabindex") == "-1":
            # a card's second link to the same story, kept from screen readers and the tab
            # order so it is announced once: on screen, it is the card's teaser
            return False
        if element.get(HIDDEN_MARK) is None and is_shown_twin_or_separator(element):
            return False  # hidden from screen readers only, and a reader needs it (``_spoken``)
        # Readability.js keeps aria-hidden fallback images (lazy-loading libraries use them).
        return "fallback-image" not in element.get("class", "")
    if element.get(FEED_MARK) is not None or element.get(HIDDEN_MARK) is not None:
        return marked_by_renderer(element)
    if element.get("aria-modal", "").lower() == "true" and element.get("role") in _DIALOG_ROLES:
        return True  # a modal dialog: shown over the page, on demand (terms, sign-in, consent)
    if element.get("v-cloak") is not None or element.get("x-cloak") is not None:
        return True  # hidden by the page's style sheet until Vue or Alpine starts
    if element.tag == "input" and element.get("type", "").lower() == "hidden":
        return True
    if "d-none" in (classes := element.get("class", "")) and _BOOTSTRAP_HIDDEN.search(classes):
        return _BOOTSTRAP_SHOWN.search(classes) is None  # d-none d-md-block shows on desktops
    style = element.get("style")
    return bool(style and _HIDDEN_STYLE.search(style))


def marked_by_renderer(element: HtmlElement) -> bool:
    """Whether the renderer saw ``element`` hidden from a reader, or marked it as an endless
    feed it scrolled."""
    if element.get(FEED_MARK) is not None:
        return True
    mark = element.get(HIDDEN_MARK)
    if mark is None:
        return False
    # visibility:hidden can be undone below (the renderer marks such children visible):
    # then the subtree is not hidden as a whole.
    return not (mark == "visibility" and element.find(f".//*[@{VISIBLE_MARK}]") is not None)


def _select_hidden(walk: Walk) -> Iterable[HtmlElement]:
    hidden, panels = _hidden_and_panels(walk)
    found = [el for el in hidden if el not in panels]
    # a substring search first: most pages are not Webflow's
    if any(prefix in walk.labels for prefix in WEBFLOW_PREFIXES):
        webflow = [
            el
            for el, _, lowered in walk.labelled
            if not WEBFLOW_HIDDEN.isdisjoint(lowered.split()) and el.tag not in PROTECTED
        ]
        found.extend(walk.live(webflow))
    return found


def _is_answer(element: HtmlElement, walk: Walk) -> bool:
    """An FAQ's answer its question's button opens, unless the renderer saw it hidden."""
    return element.get(HIDDEN_MARK) is None and element.get("id") in walk.answer_ids


def _select_collapsed(walk: Walk) -> Iterable[HtmlElement]:
    return _hidden_and_panels(walk)[1]


def _hidden_and_panels(walk: Walk) -> tuple[list[HtmlElement], set[HtmlElement]]:
    """The hidden elements still in the tree, and those of them that are a collapsed
    accordion's panel (``collapsed_panel_ids``) hidden by the markup, not by the renderer."""
    hidden = [
        el
        for el in walk.live(walk.hiding)
        if el.tag not in PROTECTED and is_hidden(el) and not _is_answer(el, walk)
    ]
    named = [el for el in hidden if el.get("id") and el.get(HIDDEN_MARK) is None]
    if not named:
        return hidden, set()
    ids = walk.collapsed_panel_ids
    return hidden, {el for el in named if el.get("id") in ids}


def _select_a11y_labels(walk: Walk) -> Iterable[HtmlElement]:
    # The substring tests are a cheap first pass (a regex search per element cost more): an
    # A11Y_LABEL match holds "hidden", "sr-only" or "screen" in ASCII, or one of the four
    # non-ASCII letters IGNORECASE also reads as i, s or k (Python's re documentation).
    found = [
        el
        for el, names, lowered in walk.labelled
        if (
            "hidden" in lowered
            or "sr-only" in lowered
            or "screen" in lowered
            or not lowered.isascii()
        )
        and A11Y_LABEL.search(names)
    ]
    return (el for el in walk.live(found) if el.tag not in PROTECTED)


def _article_body_holders(walk: Walk) -> set[HtmlElement]:
    """The ancestors of the elements that name themselves the article's body (``postContent``,
    ``entry-content``, ``itemprop="articleBody"``), a comment's own body left out."""
    bodies = [
        el
        for el, _, lowered in walk.labelled
        if "comment" not in lowered and _ARTICLE_BODY.search(lowered)
    ]
    bodies.extend(walk.root.iterfind(".//*[@itemprop='articleBody']"))
    return {ancestor for body in bodies for ancestor in body.iterancestors()}


def _select_comments(walk: Walk) -> Iterable[HtmlElement]:
    # Structural containers are spared: themes put "comments-open" on <body> or <article>.
    found = [el for el, _, lowered in walk.labelled if "comment" in lowered]
    if not found:
        return ()
    # and so is what wraps the article's own body: a "select text to comment on" layer
    # (LessWrong's ``commentOnSelection``) or a "comments-enabled" wrapper
    holders = _article_body_holders(walk)
    return (
        el
        for el in walk.live(found)
        if el.tag not in PROTECTED
        and el.tag not in CONTENT_ROOTS
        and el not in holders
        and not _in_code(el)
    )


def comment_sections(root: HtmlElement) -> list[HtmlElement]:
    """The outermost elements of ``root`` the ``comments`` rule would remove, in document order."""
    chosen = list(_select_comments(Walk(root)))
    covered: set[HtmlElement] = set()
    outermost = []
    for el in chosen:  # in document order: an outer element comes before what it holds
        if el not in covered:
            outermost.append(el)
            covered.update(el.iter())
    return outermost


def _in_code(element: HtmlElement) -> bool:
    """Whether ``element`` is part of a code listing: a highlighter's ``comment`` token is the
    code's own comment ("# initialize git"), not a reader's."""
    return element.tag == "code" or any(
        ancestor.tag in ("pre", "code") for ancestor in element.iterancestors()
    )


_ARTICLE_BODY = re.compile(r"(?:post|entry|article|story)[-_]?(?:content|body)\b|articlebody")
"""Class or id names (lower-cased) of the element holding an article's own text."""


def _inside_content_root(element: HtmlElement) -> bool:
    return any(
        ancestor.tag in CONTENT_ROOTS or ancestor.get("role") in ("main", "article")
        for ancestor in element.iterancestors()
    )


def _holds_content_root(element: HtmlElement) -> bool:
    return any(True for _ in element.iter("article", "main"))


def _max_share(chrome: HtmlElement) -> float:
    footer = chrome.tag == "footer" or chrome.get("role") == "contentinfo"
    return FOOTER_MAX_SHARE if footer else CHROME_MAX_SHARE


def _select_chrome(walk: Walk) -> Iterable[HtmlElement]:
    page_text = 0  # the page's text length, read once and only if a candidate needs it
    for el in walk.live(walk.chrome):
        if not (el.tag in CHROME_TAGS or el.get("role") in _CHROME_ROLES):
            continue
        if el.tag in PROTECTED or _inside_content_root(el) or _holds_content_root(el):
            continue
        if not page_text:
            root = walk.root
            body = root.find("body")
            page_text = len((body if body is not None else root).text_content().strip()) or 1
        if len(el.text_content().strip()) / page_text >= _max_share(el):
            continue
        yield el


RULE_FAMILIES: tuple[RuleFamily, ...] = (
    RuleFamily(
        "executable", "script, style, template, noscript, embeds and frames", _select_executable
    ),
    RuleFamily(
        "hidden",
        "hidden attribute, aria-hidden, inline display:none/visibility:hidden, renderer marks",
        _select_hidden,
    ),
    RuleFamily(
        "collapsed",
        "collapsed accordion panels hidden as served (not on service and product pages)",
        _select_collapsed,
    ),
    RuleFamily(
        "a11y-labels",
        "visually hidden screen-reader labels (VisuallyHidden, sr-only ...)",
        _select_a11y_labels,
    ),
    RuleFamily("unprinted", "what the site's print style leaves out", select_unprinted),
    RuleFamily("comments", "subtrees whose class or id contains 'comment'", _select_comments),
    RuleFamily("chrome", "header, footer and nav outside article/main", _select_chrome),
    RuleFamily("consent", "cookie and consent banners", select_consent),
    RuleFamily(
        "browser-notices",
        "notices that the reader's browser is out of date or unsupported",
        select_browser_notices,
    ),
    RuleFamily("reviews", "customer reviews (on product pages only)", select_reviews),
    RuleFamily("review-widgets", "widgets of a business's Google reviews", select_review_widgets),
    RuleFamily(
        "shelves",
        "shelves of other products (on product pages only)",
        lambda walk: select_shelves(walk.root),
    ),
    RuleFamily("signatures", "forum members' signatures under their posts", select_signatures),
    RuleFamily("forum-stats", "a board's who-is-online and statistics boxes", select_forum_stats),
    RuleFamily("doc-controls", "a manual's version pickers and item controls", select_doc_controls),
    RuleFamily(
        "board-sidebars",
        "a board's sidebar beside a thread (on forums only)",
        select_board_sidebars,
    ),
    RuleFamily(
        "signups",
        "newsletter and mailing-list sign-up boxes",
        lambda walk: select_signups(walk.root),
    ),
    RuleFamily(
        "promo-bars",
        "site-wide promotion bars (announcement-bar, promo-bar)",
        lambda walk: [
            bar
            for bar in walk.live(
                select_promo_bars(((e, low) for e, _, low in walk.labelled), walk.labels)
            )
            if not _inside_content_root(bar)
        ],
    ),
    RuleFamily(
        "placeholders",
        "template filler never replaced (lorem ipsum)",
        lambda walk: select_placeholders(walk.root, walk.markup),
    ),
    RuleFamily(
        "forms",
        "data-entry forms: contact, quote and comment forms' fields and labels",
        lambda walk: select_forms(walk.root),
    ),
    RuleFamily(
        "facets", "filter and sort panels (on collections and listings only)", select_facets
    ),
)
PRECLEAN_RULES: frozenset[str] = frozenset(family.name for family in RULE_FAMILIES)


def apply_rules(
    root: HtmlElement, enabled: frozenset[str], markup: str | None = None
) -> list[TraceEntry]:
    """Remove every enabled family's elements from ``root`` (a copy the caller owns), parsed
    from ``markup`` when the caller passes it (a family may then skip a page's search)."""
    trace: list[TraceEntry] = []
    walk = Walk(root, markup)
    for family in RULE_FAMILIES:
        if family.name in enabled:
            chosen = list(family.pick(walk))
            walk.removed.update(chosen)
            entry = remove_and_record(chosen, "rule", family.name, family.description)
            if entry is not None:
                trace.append(entry)
    return trace


def remove_and_record(
    elements: list[HtmlElement], kind: TraceKind, name: str, reason: str
) -> TraceEntry | None:
    """Drop the outermost of ``elements``; a trace entry for them, or None if there were none."""
    count, excerpt = _remove_outermost(elements)
    if not count:
        return None
    return TraceEntry(
        kind=kind, name=name, outcome="removed", reason=reason, count=count, excerpt=excerpt
    )


def _remove_outermost(elements: list[HtmlElement]) -> tuple[int, str | None]:
    """Drop each element not already inside a dropped one; return how many, and the text
    excerpt of the first one that had text (only that one is read: text_content of every
    removed subtree cost a fifth of the rules' time)."""
    chosen = set(elements)
    count, excerpt = 0, None
    for el in elements:
        if el.getparent() is None or any(ancestor in chosen for ancestor in el.iterancestors()):
            continue  # the root, or already gone with an element named twice
        if excerpt is None:
            excerpt = readable_excerpt(el)
        el.drop_tree()
        count += 1
    return count, excerpt
