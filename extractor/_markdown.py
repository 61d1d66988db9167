"""Sanitised HTML to Markdown with html-to-markdown (a Rust converter with Python bindings).

We first used markdownify, but it spent 7 s on a 50,000-element page (BeautifulSoup parsing and
per-node Python); html-to-markdown converts the same page in about 0.15 s and keeps headings,
lists, links, images, tables and fenced code with their language.

``escape_misc`` is on: page text must never turn into Markdown markup (a paragraph saying
"[x](javascript:...)" or "<script>" stays text). It also escapes every ".", "-", "+", "#", "="
in prose ("Python 3\\.11", "rate\\-limited"), which only mean something at the start of a
line, so ``_unescape_mid_line`` takes those escapes back elsewhere (outside code).
"""

from __future__ import annotations

import re

import html_to_markdown as h2m
import lxml.html

from ._parse import inner_html, parse_fragment

_BLANK_LINES = re.compile(r"\n{3,}")
_BANG_BEFORE_LINK = re.compile(r"!<a(?=[\s>])")
_BLOCK_TAGS = (
    "p",
    "div",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "ul",
    "ol",
    "table",
    "figure",
    "blockquote",
    "pre",
)
_BLOCK_IN_LINK = re.compile(
    r"<a[\s>][^<]*(?:<(?!/a>)[^<]*)*?<(?:" + "|".join(_BLOCK_TAGS) + r")[\s>]"
)
# Escapes that only matter where a line starts (list items, headings, setext underlines).
_MID_LINE_ESCAPE = re.compile(r"\\([.\-+#=])|\\&(?![#\w]+;)|(?<!~)\\~(?!~)")
_LINE_START = re.compile(r"^[ \t>]*(?:\d+\\\.|\\[-+#=])?")
_FENCE = re.compile(r"^[ \t>]*(```|~~~)")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)*?\1")
_TRAILING_SPACES = re.compile(r"[ \t]+\n")

_OPTIONS = h2m.ConversionOptions(
    heading_style="atx",
    bullets="-",
    code_block_style="backticks",
    escape_misc=True,
    autolinks=False,
    extract_metadata=False,
)


def html_to_markdown(html: str) -> str:
    """Markdown for a sanitised HTML fragment: ATX headings, '-' bullets, fenced code, tables."""
    if not html.strip():
        return ""
    # "Wow!" right before a link would read as image syntax ("![link](...)"): part them.
    html = _BANG_BEFORE_LINK.sub("! <a", html)
    if _BLOCK_IN_LINK.search(html):
        html = _blocks_in_links_on_their_own(html)
    markdown = h2m.convert(html, _OPTIONS).content or ""
    markdown = _unescape_mid_line(markdown)
    markdown = _TRAILING_SPACES.sub("\n", markdown)
    markdown = _BLANK_LINES.sub("\n\n", markdown).strip()
    return markdown + "\n" if markdown else ""


def _unescape_mid_line(markdown: str) -> str:
    """Drop escapes of characters that are inert after the start of a line, outside code."""
    lines = markdown.split("\n")
    in_fence = False
    for index, line in enumerate(lines):
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        start = _LINE_START.match(line).end()
        head, rest = line[:start], line[start:]
        pieces, last = [], 0
        for span in _CODE_SPAN.finditer(rest):
            pieces.append(_MID_LINE_ESCAPE.sub(_unescaped, rest[last : span.start()]))
            pieces.append(span.group(0))
            last = span.end()
        pieces.append(_MID_LINE_ESCAPE.sub(_unescaped, rest[last:]))
        lines[index] = head + "".join(pieces)
    return "\n".join(lines)


def _unescaped(match: re.Match[str]) -> str:
    return match.group(0)[1:]


def _blocks_in_links_on_their_own(html: str) -> str:
    """A link wrapping blocks (a card: <a><p><img>...</p></a>) is a block itself: set it on its
    own line, or Markdown glues the text after it onto the link."""
    root = parse_fragment(html)
    for link in list(root.iter("a")):
        if not any(True for _ in link.iter(*_BLOCK_TAGS)):
            continue
        wrapper = lxml.html.Element("div")
        link.addprevious(wrapper)
        wrapper.tail, link.tail = link.tail, None
        wrapper.append(link)
    return inner_html(root)
