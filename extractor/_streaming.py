"""Pages streamed by React's server renderer: put each streamed part where the page's own
scripts would.

A server that streams a React page (Next.js's App Router, Remix, any ``renderToPipeableStream``)
sends a fallback first (a skeleton, a spinner, nothing) and the real content later, at the end
of the body, as ``<div hidden id="S:0">``, followed by a one-line script that moves it into
place: ``$RC("B:0","S:0")`` replaces the fallback of the boundary marked by ``<template
id="B:0">`` (between the comments ``<!--$?-->`` and ``<!--/$-->``), ``$RS("S:1","P:1")`` the
placeholder ``<template id="P:1">``. Read without running those scripts, the article sits in a
hidden element, which the ``hidden`` rule removes: on wcxb-dev 33 pages carry such parts, and
one blog post kept 15 of its 1,900 words. Here the moves are made as React's scripts make them.
A rendered snapshot has none left (its scripts ran), so this only reads pages as served.
"""

from __future__ import annotations

import re

from lxml.etree import _Comment
from lxml.html import HtmlElement

_SEGMENT_ID = re.compile(r"S:[0-9a-zA-Z]+")
_MAY_STREAM = re.compile(r"""<div\b[^>]*\bid\s*=\s*["']?S:[0-9a-zA-Z]+""", re.IGNORECASE)


def may_stream_segments(html: str) -> bool:
    """Whether ``html`` may hold streamed parts (a cheap scan before the parse)."""
    return "S:" in html and _MAY_STREAM.search(html) is not None


def place_streamed_segments(root: HtmlElement) -> int:
    """Move every hidden streamed part (``<div hidden id="S:x">``) of ``root``, parsed with its
    comments, to its boundary (``<template id="B:x">``, its fallback dropped) or placeholder
    (``<template id="P:x">``). Returns how many were placed; a part with neither stays."""
    templates = {
        element.get("id"): element
        for element in root.iter("template")
        if (element.get("id") or "")[:2] in ("B:", "P:")
    }
    placed = 0
    for segment in list(root.iter("div")):
        segment_id = segment.get("id") or ""
        if segment.get("hidden") is None or not _SEGMENT_ID.fullmatch(segment_id):
            continue
        suffix = segment_id[2:]
        if (placeholder := templates.get(f"P:{suffix}")) is not None:
            _replace(placeholder, segment)
        elif (boundary := templates.get(f"B:{suffix}")) is not None:
            _drop_fallback(boundary)
            _replace(boundary, segment)
        else:
            continue
        placed += 1
    return placed


def _comment_data(node: object) -> str | None:
    """The text of ``node`` when it is a comment (a boundary marker), else None."""
    return (node.text or "") if isinstance(node, _Comment) else None


def _drop_fallback(boundary: HtmlElement) -> None:
    """Remove what follows ``boundary`` up to the comment that closes its Suspense boundary
    (``<!--/$-->``, nested boundaries counted), as ``$RC`` does. Without the opening comment
    right before it (a page saved without comments) the extent is unknown: nothing goes."""
    if _comment_data(boundary.getprevious()) != "$?":
        return
    fallback: list[HtmlElement] = []
    depth = 0
    node = boundary.getnext()
    while node is not None:
        data = _comment_data(node)
        if data is not None:
            if data == "/$":
                if depth == 0:
                    break
                depth -= 1
            elif data in ("$", "$?", "$!"):
                depth += 1
        fallback.append(node)
        node = node.getnext()
    if node is None:  # no closing comment: the boundary's extent is unknown
        return
    for element in fallback:
        _remove(element, keep_tail=False)
    boundary.tail = None  # text before the closing comment was fallback too


def _replace(target: HtmlElement, segment: HtmlElement) -> None:
    """Put ``segment``'s children (and leading text) where ``target`` is, then remove both, as
    ``$RS`` does (and ``$RC`` after the fallback is gone)."""
    parent = target.getparent()
    if parent is None:
        return
    _append_text(target, segment.text)
    position = parent.index(target)
    children = list(segment)
    for offset, child in enumerate(children):
        parent.insert(position + offset, child)  # moves it out of the segment
    _remove(target, keep_tail=True)
    _remove(segment, keep_tail=True)


def _append_text(before: HtmlElement, text: str | None) -> None:
    """Add ``text`` where ``before`` stands: to its previous sibling's tail or its parent's
    text."""
    if not text:
        return
    previous = before.getprevious()
    if previous is not None:
        previous.tail = (previous.tail or "") + text
    else:
        parent = before.getparent()
        if parent is not None:
            parent.text = (parent.text or "") + text


def _remove(node: HtmlElement, *, keep_tail: bool) -> None:
    parent = node.getparent()
    if parent is None:
        return
    if keep_tail:
        _append_text(node, node.tail)
    parent.remove(node)
