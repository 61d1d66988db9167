"""One pass over a page's tree that the pre-clean rules share (``_rules``): the elements each
family may select, read once, and the attributes the renderer marks elements with."""

from __future__ import annotations

from functools import cached_property

import lxml.etree
from lxml.html import HtmlElement

from ._toggled import answer_panel_ids, collapsed_panel_ids

HIDDEN_MARK = "data-readermode-hidden"
"""Attribute the renderer's snapshot script sets on elements a reader cannot see."""

VISIBLE_MARK = "data-readermode-visible"
"""... and on a visible element inside a visibility:hidden one."""

FEED_MARK = "data-readermode-feed"
"""Attribute the renderer sets on a container that kept growing as it scrolled (endless feed)."""

PROTECTED = frozenset({"html", "body"})
"""Tags no rule removes."""
CONTENT_ROOTS = frozenset({"article", "main"})
"""Tags that hold the page's content: the families that remove boxes by name spare them."""

CHROME_TAGS = frozenset({"header", "footer", "nav"})
_HIDING_ATTRIBUTES = frozenset(
    {"hidden", "aria-hidden", "aria-modal", "v-cloak", "x-cloak", "style", FEED_MARK, HIDDEN_MARK}
)


def class_and_id(element: HtmlElement) -> str:
    return f"{element.get('class', '')} {element.get('id', '')}"


class Walk:
    """The elements each family may select, in document order, read in one pass over the tree
    (a pass per family, each reading the same attributes again, was most of the rules' time).

    A family run after others must skip what they removed: ``live`` does, from ``removed``."""

    def __init__(self, root: HtmlElement, markup: str | None = None) -> None:
        self.root = root
        self.markup = markup
        """The markup ``root`` was parsed from, when the caller has it: a family whose text
        cannot occur on a page whose markup lacks it skips its search there."""
        self.hiding: list[HtmlElement] = []  # <input> or a hiding attribute: see is_hidden
        # With their class and id, as they are and lower-cased.
        self.labelled: list[tuple[HtmlElement, str, str]] = []
        self.chrome: list[HtmlElement] = []  # header, footer, nav or a role
        self.components: list[HtmlElement] = []  # a data-role or component attribute
        self.removed: set[HtmlElement] = set()
        for el in root.iter(lxml.etree.Element):
            tag, names = el.tag, el.keys()
            if tag in CHROME_TAGS or "role" in names:
                self.chrome.append(el)
            if not names:
                continue
            if tag == "input" or not _HIDING_ATTRIBUTES.isdisjoint(names):
                self.hiding.append(el)
            if "data-role" in names or "component" in names:
                self.components.append(el)
            if "class" in names or "id" in names:
                label = class_and_id(el)
                self.labelled.append((el, label, label.lower()))

    @cached_property
    def collapsed_panel_ids(self) -> set[str]:
        """``collapsed_panel_ids`` of the page, read once for the two families that ask."""
        return collapsed_panel_ids(self.root)

    @cached_property
    def answer_ids(self) -> set[str]:
        """``answer_panel_ids`` of the page: an FAQ's answers, neither hidden nor collapsed."""
        return answer_panel_ids(self.root)

    @cached_property
    def labels(self) -> str:
        """Every lower-cased label, one a line: a substring search of it tells whether a
        family's names can occur on the page at all (its regex, run on every label, cost
        1 to 1.5 ms a page: Python's regex engine has no fast path for alternatives)."""
        return "\n".join(lowered for _, _, lowered in self.labelled)

    def live(self, elements: list[HtmlElement]) -> list[HtmlElement]:
        """Those of ``elements`` still in the tree (not in a subtree removed since the walk)."""
        removed = self.removed
        if not removed:
            return elements
        return [
            el
            for el in elements
            if el not in removed and not any(a in removed for a in el.iterancestors())
        ]
