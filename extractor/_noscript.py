"""Pages whose content sits inside ``<noscript>``: read as a reader without scripts sees them.

Some sites serve crawlers and script-less readers the whole page inside ``<noscript>`` (every
Discourse forum wraps its ``#main-outlet`` that way) and build the real page with scripts. Read
statically, the ``executable`` rule drops ``<noscript>`` with everything in it and nothing is
left. When the ``<noscript>`` elements hold more of the page's text than the rest of the
body, they are unwrapped (their children kept in place) before the rules run.
"""

from __future__ import annotations

import re

from lxml.html import HtmlElement

from ._types import TraceEntry

NOSCRIPT_MIN_CHARS = 500
"""Less text than this inside ``<noscript>`` is a tracking pixel or a "please enable
JavaScript" line, never the page: skipped without reading the rest of the body."""


SCRIPT_NOTICE = re.compile(
    r"(?:this|the) (?:site|page|website|app|application|forum) (?:is best viewed|works best"
    r"|is best experienced|requires|needs)[^.!]{0,100}(?:browser|javascript)[^.!]{0,40}[.!]?"
    r"|(?:please )?(?:enable|turn on|activate) javascript(?: in your browser)?"
    r"(?: (?:to|for) [^.!]{0,60})?[.!]?"
    r"|javascript (?:is )?(?:required|disabled|must be enabled)[^.!]{0,60}[.!]?"
    r"|you need to enable javascript to run this app[.!]?",
    re.IGNORECASE,
)
"""A ``<noscript>`` page's own notice to the script-less reader ("This site is best viewed in a
modern browser with JavaScript enabled.", Flarum's): the reader who sees the page has none."""
NOTICE_MAX_CHARS = 200
_NOTICE_CUE = re.compile("javascript|browser", re.IGNORECASE)
"""A word every ``SCRIPT_NOTICE`` holds."""

_NOSCRIPT = re.compile(r"<noscript\b[^>]*>(.*?)</noscript\s*>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^>]*>")


def may_hold_noscript_page(html: str) -> bool:
    """Whether the ``<noscript>`` elements of ``html`` hold ``NOSCRIPT_MIN_CHARS`` of text, by a
    scan of the markup (no parse): the cheap first test of a served document, before it is
    read as a page (``reveal_noscript_page``). In a browser with scripts on, ``<noscript>``
    is never part of the DOM, so a page whose app did not start (its bundle blocked, or
    refused offline) shows nothing of what it serves there: a Discourse thread's posts."""
    inside = 0
    for match in _NOSCRIPT.finditer(html):
        inside += len("".join(_TAG.sub(" ", match.group(1)).split()))
        if inside >= NOSCRIPT_MIN_CHARS:
            return True
    return False


def _chars(element: HtmlElement) -> int:
    return len("".join(element.text_content().split()))


def reveal_noscript_page(document: HtmlElement) -> TraceEntry | None:
    """Unwrap the page's outermost ``<noscript>`` elements in place when they hold most of
    its text; a trace entry when they did."""
    outermost = [
        element
        for element in document.iter("noscript")
        if not any(ancestor.tag == "noscript" for ancestor in element.iterancestors())
    ]
    inside = sum(_chars(element) for element in outermost)
    if inside < NOSCRIPT_MIN_CHARS:
        return None
    body = document.find("body")
    body = body if body is not None else document
    code = sum(_chars(element) for element in body.iter("script", "style", "template"))
    outside = _chars(body) - inside - code  # what a reader sees outside them
    if inside <= outside:
        return None
    for element in outermost:
        _drop_script_notices(element)
        element.drop_tag()
    return TraceEntry(
        kind="rule",
        name="noscript-page",
        outcome="changed",
        reason=f"<noscript> held {inside} of the page's {inside + outside} characters: unwrapped",
        count=len(outermost),
    )


def _drop_script_notices(noscript: HtmlElement) -> None:
    """Remove the blocks inside ``noscript`` whose whole text is ``SCRIPT_NOTICE``: from each
    text node that names JavaScript or a browser, the outermost element around it of at most
    ``NOTICE_MAX_CHARS`` whose text is the notice (a scan of the text nodes, not of every
    element's whole text: a ``<noscript>`` can hold a whole thread)."""
    found: list[HtmlElement] = []
    for text in noscript.xpath(".//text()"):
        if not _NOTICE_CUE.search(text):
            continue
        owner = text.getparent()  # the element the text is in, or follows as its tail
        notice, element = None, owner.getparent() if text.is_tail else owner
        while element is not None and element is not noscript:
            said = " ".join(element.text_content().split())
            if len(said) > NOTICE_MAX_CHARS:
                break
            if SCRIPT_NOTICE.fullmatch(said):
                notice = element
            element = element.getparent()
        if notice is not None and notice not in found:
            found.append(notice)
    for notice in found:
        if notice.getparent() is not None:
            notice.drop_tree()
