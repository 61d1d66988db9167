"""Class names that mislead readability-lxml's class weights, cleared in the copy it reads.

readability-lxml weighs an element by regexes over its whole class and id: "scroll",
"widget", "meta" or "comment" anywhere is -25, and an element whose weight and score come
to under zero is dropped with all it holds. Utility CSS and page builders name the boxes
around an article's own text that way: Tailwind's ``overflow-x-scroll`` around a table,
Elementor's ``elementor-widget-container`` around each block of text, Amazon's
``celwidget``, HubSpot's ``hs_cos_wrapper_widget``, Shopify's ``metafield-rich_text_field``.
Those names say how a box is built, not what it holds: they are taken out of the class
readability-lxml reads (the page itself keeps them). Utility names that weigh the other way
("text-sm", "justify-content-center": +25 for "text" and "content") were tried too and moved
nothing (all of wcxb-dev 0.861 either way), so they stay.

A heading's own class is cleared of "header" too: readability-lxml drops every element whose
class says "header" as an unlikely candidate (a page's masthead), and a heading named for
itself (WP Recipe Maker's ``wprm-recipe-header`` over "Ingredients", a theme's
``section-header``) went with it.
"""

from __future__ import annotations

import re

import lxml.etree
from lxml.html import HtmlElement

from ._text import HEADING_TAGS

_BUILDER_CLASS = re.compile(
    # Utility CSS (Tailwind, with its variant prefixes: "md:", "max-lg:"): scrolling boxes.
    r"(?:[\w\[\]-]+:)*-?(?:overflow(?:-[xy])?-scroll|scroll-[\w.\[\]/-]+|scrollbar[\w-]*"
    r"|snap-[\w-]+)"
    # Page builders' component boxes.
    r"|elementor-widget(?:-container|-wrap|-text-editor|-theme-post-content|-heading)?"
    r"|celwidget|hs_cos_wrapper_widget|widget-span|widget-type-[\w-]+|metafield-[\w-]+",
    re.IGNORECASE,
)
"""Whole class names (one token of a class attribute) that say how a box is built."""

READABILITY_JS_BUILDER_NAMES = (
    r"(?:[\w\[\]-]+:)*-?(?:overflow(?:-[xy])?-(?:hidden|scroll|clip)|scroll-[\w.\[\]/-]+"
    r"|scrollbar[\w-]*|snap-[\w-]+)"
    r"|elementor-widget(?:-container|-wrap|-text-editor|-theme-post-content|-heading)?"
    r"|celwidget|hs_cos_wrapper_widget|widget-span|widget-type-[\w-]+|metafield-[\w-]+"
)
"""The same names for Readability.js, which the renderer clears in the snapshot it hands it
(``renderer/browser/js/readability_run.js``; never in Firefox Reader View's copy): its
negative class weight matches "hidden" too, so Tailwind's ``overflow-hidden`` around each of
a Mintlify page's steps dropped them whole. A pattern a JavaScript ``RegExp`` reads as well,
matched against whole class tokens."""

_MARKERS = re.compile("scroll|snap-|widget|metafield", re.IGNORECASE)
"""What every builder name holds: the class attributes that hold none are not split (a walk
of the page with this search costs 0.6 ms at the median wcxb-dev page, an XPath for the same
1.1 ms)."""


def clear_builder_classes(tree: HtmlElement) -> HtmlElement:
    """Drop the builder class names from every element of ``tree`` (a copy readability-lxml
    is about to read); return ``tree``."""
    for element in tree.iter(lxml.etree.Element):
        names = element.get("class")
        if not names:
            continue
        # a heading's names holding "header", which readability-lxml's unlikely candidates match
        heading = element.tag in HEADING_TAGS and "header" in names.lower()
        if not heading and not _MARKERS.search(names):
            continue
        tokens = names.split()
        kept = [
            token
            for token in tokens
            if not _BUILDER_CLASS.fullmatch(token) and not (heading and "header" in token.lower())
        ]
        if len(kept) != len(tokens):
            element.set("class", " ".join(kept))
    return tree
