"""Flattening markup nested deeper than libxml2 holds, so that its text is still read.

libxml2 stops parsing at 2,048 levels even with ``huge_tree`` ("Excessive depth in document")
and drops everything after that point: a page of 5,000 nested ``<div>`` lost its article on the
static path. Browsers never build such a tree from markup: Chromium's parser stops nesting at
512 levels and puts deeper elements beside each other instead. ``flatten_deep_nesting`` does the
same to the markup before lxml sees it, which keeps every word and the order of the page.
"""

from __future__ import annotations

import re

MAX_NESTING_DEPTH = 512
"""Chromium's ``kMaximumHTMLParserDOMTreeDepth``: deeper start tags are dropped (their content
stays, one level up), as the browser's own tree would have it."""

# Tags that never hold content (void) or that the parser closes implicitly when a sibling or
# the parent ends: counting them as open would make a page of unclosed <p> look deep.
_NOT_NESTING = frozenset(
    "area base br col embed hr img input keygen link meta param source track wbr "
    "p li dt dd option optgroup tr td th thead tbody tfoot colgroup caption rb rt rp rtc".split()
)
# Comments, doctype and raw-text elements are copied whole: their "<" are not tags.
_TOKEN = re.compile(
    r"<!--.*?(?:-->|\Z)"
    r"|<(script|style|textarea|title|xmp|noscript|iframe|noembed|noframes|plaintext)\b.*?"
    r"(?:</\1\s*>|\Z)"
    r"|<(/?)([a-zA-Z][a-zA-Z0-9:-]*)(?:[^>\"']|\"[^\"]*\"|'[^']*')*>",
    re.DOTALL | re.IGNORECASE,
)


def is_depth_error(message: str) -> bool:
    """Whether a libxml2 error message says the parse stopped at its depth limit."""
    return "Excessive depth" in message


def flatten_deep_nesting(html: str, max_depth: int = MAX_NESTING_DEPTH) -> str:
    """``html`` without the start and end tags of elements nested deeper than ``max_depth``."""
    pieces: list[str] = []
    open_tags: list[tuple[str, bool]] = []  # (name, kept) of each open nesting element
    last = 0
    for match in _TOKEN.finditer(html):
        slash, name = match.group(2), match.group(3)
        if name is None:
            continue  # comment or raw-text element: kept as is
        name = name.lower()
        if name in _NOT_NESTING or match.group(0).endswith("/>"):
            continue
        keep = True
        if not slash:
            keep = len(open_tags) < max_depth
            open_tags.append((name, keep))
        else:
            keep = _close(open_tags, name)
        if not keep:
            pieces.append(html[last : match.start()])
            last = match.end()
    pieces.append(html[last:])
    return "".join(pieces)


def _close(open_tags: list[tuple[str, bool]], name: str) -> bool:
    """Pop the innermost open ``name`` (and what it holds); whether its end tag is kept.

    An end tag with no open element of its name is kept: the parser ignores it anyway."""
    for index in range(len(open_tags) - 1, -1, -1):
        if open_tags[index][0] == name:
            kept = open_tags[index][1]
            del open_tags[index:]
            return kept
    return True
