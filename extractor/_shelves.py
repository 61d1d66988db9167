"""A product page's shelves of other products: "People who viewed this item also viewed",
"Similar items", "You may also like", "Frequently bought together", Amazon's "Customers also
bought or read" under a book (1,529 words of other books on 0613: 0.81 -> 0.93).

A shelf is a heading that names it and, around it, a row of other products' cards. The
wcxb-dev ground truths of product pages leave them out ("People who viewed this item also
viewed" is among its ``without`` snippets), and trafilatura, whose choice of blocks a product
page takes, keeps them: each card is a short block of its own. A shelf is told by its
heading's words; what is removed is the smallest box around the heading that holds at least
``MIN_CARDS`` links, widened through the wrappers that add no words, and never a box that
holds the page's ``<h1>``: on Amazon "Customers who bought this item also bought" stands
before the description, which must stay.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from lxml.html import HtmlElement

from ._actions import normalised

_SHELF = re.compile(
    r"(?:(?:customers|people|shoppers|others)(?: who (?:viewed|bought|purchased) this"
    r"(?: item| product)?)? also (?:viewed|bought|purchased|liked|loved|like|love"
    r"|searched(?: for)?|shopped|considered)(?: or (?:read|viewed|bought|watched))?)"
    r"|(?:you|you'll) (?:may|might) also (?:like|love|need|enjoy)|you may like"
    r"|(?:we found )?other products you (?:may|might) (?:also )?like"
    r"|(?:similar|related|recommended|popular|trending|sponsored|featured) "
    r"(?:items|products|styles|picks)(?: (?:for you|related to this item))?"
    r"|(?:explore|shop) (?:related|similar) (?:items|products|styles)|shop similar"
    r"|frequently bought together|bought together|complete the look|shop the look"
    r"|pairs? (?:well|perfectly) with|goes well with|recently viewed(?: items| products)?"
    r"|recommended for you|inspired by your browsing history|products related to this item"
    r"|more (?:from|by) this (?:seller|brand|designer|shop|collection)"
    r"|seller[’']?s other items|compare (?:with )?similar (?:items|products)"
    r"|more (?:items|products) to (?:consider|explore)"
    r"|what other items do customers buy after viewing this item"
)
_LINK_TO_ALL = re.compile(r"(?: (?:see|view|shop) (?:all|more))?$")
"""The link a shelf's heading may end with ("Similar items See all")."""
_CUE = re.compile(
    r"also|similar|related|recommended|popular|trending|sponsored|featured|together"
    r"|look|well with|recently|more (?:from|by|items|products)|other items"
)
"""A word every phrase of ``_SHELF`` holds: a text node without one is not read further."""

_HEADING_TAGS = ("h2", "h3", "h4", "h5", "h6", "div", "span", "p", "strong", "b", "header")
MAX_HEADING_CHARS = 80
MIN_CARDS = 3
"""A shelf links to at least this many pages besides its heading's own link ("See all"): a
box of one or two is a bundle offer, part of the product's own page."""
MAX_WORDS_PER_CARD = 150
"""... with at most this many words for each: a card is a name, a price and a line or two
(eBay's promoted cards, with their "Why you're seeing this ad" notes, hold about 110). A
section headed "Complete the look" that describes the product in prose is not a shelf."""
MAX_SHARE = 0.8
"""A box holding this share of the page's words or more is not a shelf. On eBay the shelves
hold over half of what a listing page says; its own part is the ``<h1>`` and a few lines."""


def select_shelves(root: HtmlElement) -> list[HtmlElement]:
    """The shelves of other products on ``root`` (a product page)."""
    found: list[HtmlElement] = []
    page_words = 0  # read once, and only when the page names a shelf
    for heading in _headings(root):
        if any(heading is shelf or _inside(heading, shelf) for shelf in found):
            continue
        page_words = page_words or len(root.text_content().split()) or 1
        shelf = _shelf_of(heading, page_words)
        if shelf is not None:
            found.append(shelf)
    return found


def _headings(root: HtmlElement) -> Iterator[HtmlElement]:
    """The elements whose whole text is a shelf's name, not inside a link or a button (eBay's
    "Seller's other items" button is a way to the seller's shop, not a shelf's heading)."""
    for element in root.iter(*_HEADING_TAGS):
        own = element.text
        # The phrase sits in one text node: reading only those holding one of its words keeps
        # this walk from reading every box's whole text.
        if not own or len(own) > MAX_HEADING_CHARS or not _CUE.search(own.lower()):
            continue
        text = element.text_content()
        name = _LINK_TO_ALL.sub("", normalised(text), count=1)
        if len(text) > MAX_HEADING_CHARS or not _SHELF.fullmatch(name):
            continue
        if not any(ancestor.tag in ("a", "button") for ancestor in element.iterancestors()):
            yield element


def _inside(element: HtmlElement, box: HtmlElement) -> bool:
    return any(ancestor is box for ancestor in element.iterancestors())


def _shelf_of(heading: HtmlElement, page_words: int) -> HtmlElement | None:
    """The smallest box around ``heading`` that holds a row of cards, with its wrappers; None
    when the climb reaches the page's headline or most of its words first."""
    box = heading
    while (parent := box.getparent()) is not None and parent.tag not in ("body", "html"):
        if next(parent.iter("h1"), None) is not None:
            return None
        words = len(parent.text_content().split())
        if words >= MAX_SHARE * page_words:
            return None
        box = parent
        if _holds_cards(box, heading, words):
            return _widened(box, words)
    return None


def _holds_cards(box: HtmlElement, heading: HtmlElement, words: int) -> bool:
    targets = {
        link.get("href")
        for link in box.iter("a")
        if link.get("href") and not _inside(link, heading)
    }
    return len(targets) >= MIN_CARDS and words <= MAX_WORDS_PER_CARD * len(targets)


def _widened(box: HtmlElement, words: int) -> HtmlElement:
    """``box`` (of ``words`` words) and the wrappers around it that hold no other words."""
    while (parent := box.getparent()) is not None and parent.tag not in ("body", "html"):
        if len(parent.text_content().split()) != words:
            break
        box = parent
    return box
