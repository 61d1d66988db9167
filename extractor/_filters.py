"""Content options applied to the clean HTML: drop tables, images or link targets.

They run after the cascade, on the sanitised HTML every output is made from, so HTML, text and
Markdown agree; they only remove, so what is left stays sanitised. Running them earlier would
change what the stages score (a page whose article is a table would lose to its sidebar).
"""

from __future__ import annotations

from lxml.html import HtmlElement

from ._parse import inner_html, parse_fragment

# Containers an image leaves empty are dropped with it (<p><img></p>, a figure without caption).
_IMAGE_HOLDERS = frozenset({"p", "div", "figure", "picture", "span", "a", "li"})


def filter_content(html: str, *, links: bool, tables: bool, images: bool) -> str:
    """``html`` without tables, images and/or link targets (link text is kept)."""
    if links and tables and images:
        return html
    root = parse_fragment(html)
    if not tables:
        for table in list(root.iter("table")):
            table.drop_tree()
    if not images:
        for image in list(root.iter("img")):
            _drop_with_empty_holders(image, root)
    if not links:
        for link in list(root.iter("a")):
            link.drop_tag()
    return inner_html(root)


def _drop_with_empty_holders(element: HtmlElement, root: HtmlElement) -> None:
    parent = element.getparent()
    element.drop_tree()
    while (
        parent is not None
        and parent is not root
        and parent.tag in _IMAGE_HOLDERS
        and len(parent) == 0
        and not parent.text_content().strip()
    ):
        grandparent = parent.getparent()
        parent.drop_tree()
        parent = grandparent
