"""A page that is its own discussion: a link aggregator's thread (Lobsters, Hacker News, old
Reddit), where the story is a title and a link and the readers' comments are all the rest.

The ``comments`` rule removes a comment section as the furniture under an article; on such a
page the comments are the content, and the page is a forum (``_pagetype``). It is told by
the share of the page's words inside comment-named blocks and by how few words stand beside
them: an article with a long comment section still has its own text beside it. On wcxb-dev
every page with ``MIN_SHARE`` of its words in comments and under ``MAX_BESIDE`` beside them is
a forum (five pages; lobste.rs, 0575, was typed article: 0.02 -> 0.99 F1), while the
articles nearest the line (slashdot's 0396 and 4449, most of their words in comments) have
680 and 742 beside them.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml.html import HtmlElement

from ._rules import comment_sections

MIN_NAMED = 3
"""Elements whose class or id says comment a page needs before its words are counted. A
Hacker News thread of eight comments names nine (each ``div.comment`` and the tree); the
share and the words beside them decide. No wcxb-dev page under the former 10 passes them."""
MIN_SHARE = 0.6
"""The share of the page's words inside the sections the ``comments`` rule would remove."""
MAX_BESIDE = 400
"""The most words beside them: a story's title, its link, the site's menus."""

_UNSEEN = ("script", "style", "noscript", "template")
"""Elements whose text a reader does not see."""


@dataclass(frozen=True)
class Discussion:
    """How much of the page its comments are."""

    share: float
    beside: int
    sections: int

    @property
    def is_the_page(self) -> bool:
        """Whether the comments are the page's content."""
        return self.share >= MIN_SHARE and self.beside < MAX_BESIDE


def read_discussion(document: HtmlElement, named: int) -> Discussion | None:
    """The share of ``document``'s words inside the sections the ``comments`` rule would
    remove, or None when it has under ``MIN_NAMED`` elements (``named``) whose class or id
    says comment: then nothing is counted."""
    body = document.find("body")
    if named < MIN_NAMED or body is None:
        return None
    sections = comment_sections(document)
    total = _words(body)
    if not sections or total == 0:
        return None
    inside = sum(_words(section) for section in sections)
    return Discussion(share=inside / total, beside=max(0, total - inside), sections=len(sections))


def _words(element: HtmlElement) -> int:
    """The words a reader sees in ``element``, split on whitespace: two C calls, where a word
    regex over the whole page (``count_words``) cost a millisecond on a large one."""
    unseen = sum(len(el.text_content().split()) for el in element.iter(*_UNSEEN))
    return len(element.text_content().split()) - unseen
