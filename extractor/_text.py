"""Words and plain text: counting words (CJK-aware) and turning clean HTML into readable text."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import lxml.etree
from lxml.html import HtmlElement

# Han and kana are written without spaces: each character counts as a word. Hangul uses spaces.
_WORD = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|\w+")
_SPACES = re.compile(r"\s+")

BLOCK_TAGS = frozenset(
    {
        "address",
        "article",
        "aside",
        "blockquote",
        "caption",
        "dd",
        "details",
        "div",
        "dl",
        "dt",
        "figcaption",
        "figure",
        "footer",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hr",
        "li",
        "main",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "summary",
        "table",
        "tbody",
        "thead",
        "tfoot",
        "tr",
        "ul",
    }
)
HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
WORDLESS_CONTENT = frozenset(
    {"img", "picture", "video", "audio", "iframe", "embed", "object", "svg", "canvas", "hr"}
)
"""What shows without words: a picture, a player, a rule. A block, a heading or a reading
holding one of these is not empty for having no text."""
# Consecutive items of these are separated by one newline, other blocks by a blank line.
_TIGHT_TAGS = frozenset({"li", "tr", "dt", "dd"})
_CELL_TAGS = frozenset({"td", "th"})
_GROUP_TAGS = frozenset({"ul", "ol", "dl", "table"})


def words(text: str) -> list[str]:
    """The words of a text: ``\\w+`` runs, with each Han/kana character a word of its own."""
    return _WORD.findall(text)


def count_words(text: str) -> int:
    return len(words(text))


_FOLDS_ACROSS_CLASSES = re.compile(
    "[\u0130\u01f0\u0345\u0390\u03b0\u1e96-\u1e99\u1f50\u1f52\u1f54\u1f56\u1fb6\u1fb7"
    "\u1fc6\u1fc7\u1fd2\u1fd3\u1fd6\u1fd7\u1fe2-\u1fe4\u1fe6\u1fe7\u1ff6\u1ff7]"
)
"""The characters whose casefolding holds a character of another kind for ``words`` (word,
Han/kana, other): İ folds to "i" and a combining dot, which is no word character. Every other
character folds within its kind (tests/unit pins this on the running Unicode database)."""


def folded_words(text: str) -> list[str]:
    """``words(text)``, each casefolded."""
    if _FOLDS_ACROSS_CLASSES.search(text) is None:
        # Folding the whole text first splits it into the same words, folded (casefolding is
        # per character, without context): one casefold instead of one per word.
        return words(text.casefold())
    return [word.casefold() for word in words(text)]


@dataclass
class _Blocks:
    """Accumulates inline text into blocks; a block boundary flushes the current line."""

    # (text, tight): a tight block follows the previous one after a single newline.
    blocks: list[tuple[str, bool]] = field(default_factory=list)
    line: list[str] = field(default_factory=list)
    # Where in ``line`` a <br> broke it: a line break inside the block, not a new block.
    breaks: list[int] = field(default_factory=list)
    tight: bool = False
    # Set when a list or table starts or ends, so it is set apart from its neighbours.
    group_break: bool = False

    def add_inline(self, text: str | None) -> None:
        if text:
            self.line.append(text)

    def add_break(self) -> None:
        self.breaks.append(len(self.line))

    def flush(self, next_tight: bool) -> None:
        text = _broken_lines(self.line, self.breaks)
        if text:
            self.blocks.append((text, self.tight and not self.group_break))
            self.group_break = False
        self.line = []
        self.breaks = []
        self.tight = next_tight

    def add_verbatim(self, text: str) -> None:
        text = text.strip("\n")
        if text.strip():
            self.blocks.append((text, False))


def _broken_lines(parts: list[str], breaks: list[int]) -> str:
    """``parts`` joined, spaces collapsed, one line per stretch between ``breaks``; two breaks
    in a row (``<br><br>``) leave a blank line, more leave no more than that."""
    if not breaks:
        return _SPACES.sub(" ", "".join(parts)).strip()
    bounds = [0, *breaks, len(parts)]
    lines = [
        _SPACES.sub(" ", "".join(parts[start:end])).strip()
        for start, end in zip(bounds, bounds[1:], strict=False)
    ]
    kept: list[str] = []
    for line in lines:
        if line or (kept and kept[-1]):
            kept.append(line)
    return "\n".join(kept).strip()


def element_text(root: HtmlElement) -> str:
    """Plain text of clean HTML: blocks separated by blank lines, list items and a <br>'s
    lines by newlines, table cells by spaces, <pre> kept verbatim."""
    blocks = text_blocks(root)
    return "\n\n".join(blocks) + "\n" if blocks else ""


def text_blocks(root: HtmlElement) -> list[str]:
    """The blocks of ``element_text`` (what it separates with a blank line): a paragraph, a
    heading, a whole list or table (items and rows on lines of their own), a <pre> verbatim."""
    acc = _Blocks()
    _walk(root, acc)
    acc.flush(False)
    groups: list[list[str]] = []
    for text, tight in acc.blocks:
        if tight and groups:
            groups[-1].append(text)
        else:
            groups.append([text])
    return ["\n".join(group) for group in groups]


_LINE_BREAK = frozenset({"br"})


def preformatted_text(pre: HtmlElement) -> str:
    """A ``<pre>``'s text as shown: its text with each ``<br>`` a line break. Some sites write
    code as ``<pre>line<br>line</pre>``, and ``text_content()`` ran the lines into one
    ("python3import subprocessimport time")."""
    return _marked_text(pre, _LINE_BREAK, frozenset(), "\n")


_ENTER, _EXIT, _TAIL = 0, 1, 2


def _walk(root: HtmlElement, acc: _Blocks) -> None:
    """Feed ``root``'s text into ``acc`` in document order. An explicit stack, not recursion:
    a page nested a few thousand levels deep (lxml keeps them) must not hit Python's limit."""
    stack: list[tuple[int, HtmlElement]] = [(_ENTER, root)]
    while stack:
        action, element = stack.pop()
        if action == _TAIL:
            acc.add_inline(element.tail)
            continue
        tag = element.tag if isinstance(element.tag, str) else ""
        if action == _EXIT:
            acc.flush(False)  # only block elements are pushed with an exit step
            if tag in _GROUP_TAGS:
                acc.group_break = True
            continue
        if tag == "pre":
            acc.flush(False)
            acc.add_verbatim(preformatted_text(element))
            acc.flush(False)
            continue
        if tag in BLOCK_TAGS:
            acc.flush(tag in _TIGHT_TAGS)
            if tag in _GROUP_TAGS:
                acc.group_break = True
        elif tag == "br":
            acc.add_break()
        elif tag in _CELL_TAGS and acc.line:
            acc.add_inline("\t")
        if not tag:
            continue
        acc.add_inline(element.text)
        if tag in BLOCK_TAGS:
            stack.append((_EXIT, element))
        for child in reversed(element):
            stack.append((_TAIL, child))
            stack.append((_ENTER, child))


_SEPARATED = BLOCK_TAGS | _CELL_TAGS | {"br"}


def spaced_text(element: HtmlElement) -> str:
    """``text_content()`` with a space wherever a block, a cell or a line break starts or ends:
    markup often sets cells and paragraphs side by side with no whitespace between them
    (``<th>Attribute</th><th>Data Type</th>``), and their words must not run together."""
    if not any(node.tag in _SEPARATED for node in element.iterdescendants()):
        return element.text_content()  # nothing to keep apart (most blocks): lxml's own walk
    return _marked_text(element, _SEPARATED, _SEPARATED, " ")


def _marked_text(
    element: HtmlElement, opening: frozenset[str], closing: frozenset[str], mark: str
) -> str:
    """``element``'s text in document order, with ``mark`` where an element of ``opening``
    starts and one of ``closing`` ends."""
    parts: list[str] = []
    for event, node in lxml.etree.iterwalk(element, events=("start", "end", "comment", "pi")):
        if event == "start":
            if node.tag in opening:
                parts.append(mark)
            parts.append(node.text or "")
            continue
        if event == "end" and node.tag in closing:
            parts.append(mark)
        if node is not element:  # a comment's own text is not the page's; its tail is
            parts.append(node.tail or "")
    return "".join(parts)


EXCERPT_CHARS = 80
"""Length of the text excerpt recorded in the trace for a removal."""
_READABLE_TEXT = lxml.etree.XPath(
    "descendant-or-self::text()[not(ancestor-or-self::script or ancestor-or-self::style"
    " or ancestor-or-self::template or ancestor-or-self::noscript)]"
)


def excerpt(element: HtmlElement) -> str | None:
    """The start of what a reader would read in ``element``, for the trace: never the source of
    its scripts or styles (a removed ``<script>`` has no excerpt)."""
    parts: list[str] = []
    length = 0
    for text in _READABLE_TEXT(element):
        parts.append(text)
        length += len(text)
        if length > EXCERPT_CHARS * 4:  # enough to fill the excerpt after collapsing spaces
            break
    return " ".join("".join(parts).split())[:EXCERPT_CHARS] or None
