"""The page's comment section, read apart from the main content (``include_comments``).

The section is what the ``comments`` pre-clean rule removes (its selector, reused as is): the
outermost block elements whose class or id says "comment". Those are copied out of the page
after the rules that come before ``comments`` have run (so hidden, executable and screen-reader
parts are already gone) and before ``comments`` removes them from the main content. The reply
form and per-comment "Reply" links are page furniture, not what readers wrote, so they go.
"""

from __future__ import annotations

import copy
import re

from lxml.html import HtmlElement

from ._postprocess import CleanContent, postprocess
from ._rules import RULE_FAMILIES, apply_rules
from ._text import BLOCK_TAGS
from ._types import TraceEntry

COMMENTS_RULE = "comments"

# WordPress, Disqus and most themes: the reply form's block and each comment's reply link.
_FURNITURE = re.compile(r"respond|reply-link|reply-title|comment-form|comment-notes|must-log-in")
_FURNITURE_TAGS = ("form", "button", "input", "textarea", "select", "label")


def rules_before_comments(enabled: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
    """``enabled`` split into the families that run before ``comments`` and the rest (which
    includes ``comments`` itself: the main content never keeps the section we read apart)."""
    names = [family.name for family in RULE_FAMILIES]
    before = frozenset(names[: names.index(COMMENTS_RULE)])
    return enabled & before, (enabled - before) | {COMMENTS_RULE}


def read_comments(
    document: HtmlElement, *, rules: frozenset[str], base_url: str | None
) -> tuple[list[TraceEntry], CleanContent | None]:
    """Run the rules before ``comments`` on ``document`` (the caller's copy, changed here), then
    return their trace and the comment sections, cleaned like the main content (None if none)."""
    before, _ = rules_before_comments(rules)
    trace = apply_rules(document, before)
    select = next(family.select for family in RULE_FAMILIES if family.name == COMMENTS_RULE)
    chosen = [el for el in select(document) if el.tag in BLOCK_TAGS]
    chosen_set = set(chosen)
    sections = [el for el in chosen if not any(a in chosen_set for a in el.iterancestors())]
    if not sections:
        return trace, None
    holder = document.makeelement("div", {})
    for section in sections:
        holder.append(copy.deepcopy(section))
        holder[-1].tail = None
    for element in [el for el in holder.iterdescendants() if _is_furniture(el)]:
        element.drop_tree()  # inside an already dropped subtree this is harmless
    content = postprocess(holder, base_url=base_url)
    return trace, content if content.text.strip() else None


def _is_furniture(element: HtmlElement) -> bool:
    if element.tag in _FURNITURE_TAGS:
        return True
    return bool(_FURNITURE.search(f"{element.get('class', '')} {element.get('id', '')}"))
