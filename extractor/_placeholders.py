"""Placeholder text a template never replaced: "Lorem ipsum dolor sit amet, consectetur...".

A theme's demo cards ship with the typesetters' Latin filler, and a page built from the theme
serves the cards it never filled: S&P's rankings page reads "Heading Line / Lorem ipsum dolor
sit amet..." between its own paragraphs. The filler is never the page's content, and no
ground truth of wcxb-dev's 1,497 pages holds it. The block that holds it goes when the filler
opens that block ("Lorem ipsum dolor..."), or is all of it ("Lorem ipsum", "Lorem ipsum 2",
a card's filler title): a sentence that names the filler in passing stays, and so does a
page about the filler itself (its title names it). So does a theme's admin hint left in place
(PrestaShop's "(edit with the Customer Reassurance module)"), and a client-side template's
bindings served unfilled ("{{ item.name }}", outside code).
"""

from __future__ import annotations

import re

import lxml.etree
from lxml.html import HtmlElement

_FILLER = re.compile(r"lorem ipsum", re.IGNORECASE)
_FILLER_BLOCK = re.compile(r"\W*lorem ipsum(?:\W+dolor\b.*|\W*\d*\W*)", re.IGNORECASE | re.DOTALL)
"""A block's whole text: the filler's opening and what follows, or the two words alone."""
_MODULE_HINT = re.compile(r"[^()]{0,60}\(edit with the [\w ]{1,40} module\)", re.IGNORECASE)
"""A shop theme's line left as its demo: PrestaShop's reassurance block prints "Security
policy (edit with the Customer Reassurance module)" until a merchant fills it in."""
_NEEDLES = ("orem ipsum", "orem Ipsum", "OREM IPSUM", "(edit with the ", "{{")
"""What the text nodes that may hold the filler contain, in the cases it is written in. The
page's markup is searched for them first: it holds each where its text does, and its scan
took a third of the time of the XPath over every text node (1.25 ms a page at the median of
300 wcxb-dev pages)."""
_FILLER_TEXTS = lxml.etree.XPath(
    "//body//text()[" + " or ".join(f"contains(., '{needle}')" for needle in _NEEDLES) + "]"
)
"""The text nodes that may hold the filler (a ``translate`` to lower case cost 2 ms a page at
the median of 300 wcxb-dev pages, against 0.9 ms)."""
_BINDINGS = re.compile(r"(?:\s*\{\{[^{}]{1,200}\}\})+\s*")
"""A block's whole text made of a client-side template's bindings, never filled: a Vue or
Angular template served as written ("{{ DiscussionBoard.errors[11793116].message }}" under
each post of a thread), a CMS's shortcode left in place. In a ``<pre>`` or ``<code>`` the
same braces are a template's source shown as an example: they stay."""
_CODE = frozenset({"pre", "code", "textarea"})
_INLINE = frozenset({"a", "b", "em", "font", "i", "mark", "small", "span", "strong", "u"})
_STOP = frozenset({"html", "body", "main", "article"})


def select_placeholders(root: HtmlElement, markup: str | None = None) -> list[HtmlElement]:
    """The blocks of ``root`` whose text is placeholder filler; ``markup``, what ``root`` was
    parsed from, when the caller has it."""
    if markup is not None and not any(needle in markup for needle in _NEEDLES):
        return []
    title = root.findtext(".//title") or ""
    if _FILLER.search(title):
        return []  # a page about the filler: its examples are its content
    found: list[HtmlElement] = []
    for text in _FILLER_TEXTS(root):
        owner = text.getparent()  # the element the text is in, or follows as its tail
        block = _block_of(owner.getparent() if text.is_tail else owner)
        if block is None or block in found:
            continue
        text = " ".join(block.text_content().split())
        if _FILLER_BLOCK.fullmatch(text) or _MODULE_HINT.fullmatch(text):
            found.append(block)
        elif _BINDINGS.fullmatch(text) and not _in_code(block):
            found.append(block)
    return found


def _in_code(element: HtmlElement) -> bool:
    return element.tag in _CODE or any(up.tag in _CODE for up in element.iterancestors())


def _block_of(element: HtmlElement | None) -> HtmlElement | None:
    """The nearest element around ``element`` that is not inline; None at the page's roots."""
    while element is not None and element.tag in _INLINE:
        element = element.getparent()
    if element is None or not isinstance(element.tag, str) or element.tag in _STOP:
        return None
    return element
