"""Sanitised HTML to Markdown with html-to-markdown (a Rust converter with Python bindings).

We first used markdownify, but it spent 7 s on a 50,000-element page (BeautifulSoup parsing and
per-node Python); html-to-markdown converts the same page in about 0.15 s and keeps headings,
lists, links, images, tables and fenced code with their language.

``escape_misc`` is on: page text must never turn into Markdown markup (a paragraph saying
"[x](javascript:...)" or "<script>" stays text). It also escapes every ".", "-", "+", "#", "="
in prose ("Python 3\\.11", "rate\\-limited"), which only mean something at the start of a
line, so ``_unescape_mid_line`` takes those escapes back elsewhere (outside code).

Our clean-ups after the converter (unescaping, trailing spaces, runs of blank lines) never touch
the lines of a fenced code block: code keeps its blank lines and indentation byte for byte.
"""

from __future__ import annotations

import re

import html_to_markdown as h2m
import lxml.html

from ._parse import inner_html, parse_fragment

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
# An empty table, pre, quote or figure converts to nothing, gluing the words on either side
# ("quiet<table></table>the" came out "quietthe"); an empty paragraph keeps them apart.
_EMPTY_GLUING_BLOCK = re.compile(
    r"<(table|pre|blockquote|figure)\b[^>]*>"
    r"(?:\s|</?(?:tr|td|th|tbody|thead|tfoot|caption|colgroup|col|figcaption|code|p|br)\b[^>]*>)*"
    r"</\1>"
)
_BLOCK_IN_LINK = re.compile(
    r"<a[\s>][^<]*(?:<(?!/a>)[^<]*)*?<(?:" + "|".join(_BLOCK_TAGS) + r")[\s>]"
)
# Escapes that only matter where a line starts (list items, headings, setext underlines). An
# "&" stays escaped before what would read as an entity: page text "&#39;" must not come out as
# "&#39;", which Markdown shows as an apostrophe.
_MID_LINE_ESCAPE = re.compile(r"\\([.\-+#=])|\\&(?!\\?[#\w]+;)|(?<!~)\\~(?!~)")
_LINE_START = re.compile(r"^[ \t>]*(?:\d+\\\.|\\[-+#=])?")
# A fence line, after any blockquote markers: its run of backticks or tildes, then the rest.
_FENCE = re.compile(r"^[ \t>]*?(`{3,}|~{3,})(.*)$")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)*?\1")
# The converter writes a caption as *...*: emphasis inside it would nest the same delimiter.
_EMPHASIS_IN_CAPTION = re.compile(
    r"<(?:fig)?caption[\s>](?:(?!</(?:fig)?caption>).)*?<(?:em|i)[\s>]", re.DOTALL
)

_OPTIONS = h2m.ConversionOptions(
    heading_style="atx",
    bullets="-",
    code_block_style="backticks",
    # "\\" at the end of a line: a <br> stays a hard break (trailing spaces are stripped).
    newline_style="backslash",
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
    html = _EMPTY_GLUING_BLOCK.sub("<p></p>", html)
    if _BLOCK_IN_LINK.search(html) or _EMPHASIS_IN_CAPTION.search(html):
        html = _restructured(html)
    markdown = h2m.convert(html, _OPTIONS).content or ""
    return _tidy(markdown.split("\n"))


def _tidy(lines: list[str]) -> str:
    """Unescape mid-line characters, strip trailing spaces, squeeze blank lines and set quotes
    apart, all outside fenced code; drop blank lines at both ends."""
    out: list[str] = []
    for line, in_code in zip(lines, _code_mask(lines), strict=True):
        if not in_code:
            line = _unescape_mid_line(line).rstrip(" \t")
            if not line and (not out or not out[-1]):
                continue
            if line.startswith(">") and out and out[-1] and not out[-1].startswith(">"):
                out.append("")  # the converter glues a quote to the block before it
        out.append(line)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + "\n" if out else ""


def _code_mask(lines: list[str]) -> list[bool]:
    """For each line, whether it is the inside of a fenced code block (CommonMark's rule: the
    closing fence is the same character, at least as long, with nothing after it)."""
    mask: list[bool] = []
    opening: str | None = None
    for line in lines:
        fence = _FENCE.match(line)
        if opening is None:
            mask.append(False)
            if fence and not (fence.group(1)[0] == "`" and "`" in fence.group(2)):
                opening = fence.group(1)
        elif (
            fence
            and fence.group(1)[0] == opening[0]
            and len(fence.group(1)) >= len(opening)
            and not fence.group(2).strip()
        ):
            mask.append(False)
            opening = None
        else:
            mask.append(True)
    return mask


def _unescape_mid_line(line: str) -> str:
    """Drop escapes of characters that are inert after the start of a line (not in code)."""
    match = _LINE_START.match(line)
    assert match is not None  # every part of the pattern is optional: it always matches
    start = match.end()
    head, rest = line[:start], line[start:]
    pieces, last = [], 0
    for span in _CODE_SPAN.finditer(rest):
        pieces.append(_MID_LINE_ESCAPE.sub(_unescaped, rest[last : span.start()]))
        pieces.append(span.group(0))
        last = span.end()
    pieces.append(_MID_LINE_ESCAPE.sub(_unescaped, rest[last:]))
    return head + "".join(pieces)


def _unescaped(match: re.Match[str]) -> str:
    return match.group(0)[1:]


def _restructured(html: str) -> str:
    """Two shapes the converter gets wrong, rebuilt before it runs:

    - a link wrapping blocks (a card: <a><p><img>...</p></a>) is a block itself: it goes on its
      own line, or Markdown glues the text after it onto the link;
    - emphasis inside a caption is unwrapped: the caption is already set in *...*, and nesting
      the same delimiter ("*Caption *here**") garbles both.
    """
    root = parse_fragment(html)
    for link in list(root.iter("a")):
        if not any(True for _ in link.iter(*_BLOCK_TAGS)):
            continue
        wrapper = lxml.html.Element("div")
        link.addprevious(wrapper)
        wrapper.tail, link.tail = link.tail, None
        wrapper.append(link)
    for caption in root.iter("figcaption", "caption"):
        for emphasis in list(caption.iter("em", "i")):
            emphasis.drop_tag()
    return inner_html(root)
