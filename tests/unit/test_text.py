"""Words: casefolded words are the words casefolded, whatever the text holds."""

from __future__ import annotations

import re
import sys

import lxml.html

from extractor._text import (
    _FOLDS_ACROSS_CLASSES,
    element_text,
    folded_words,
    spaced_text,
    words,
)

_HAN_KANA = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_WORD_CHARACTER = re.compile(r"\w")


def _kind(character: str) -> str:
    if _HAN_KANA.match(character):
        return "han-kana"
    return "word" if _WORD_CHARACTER.match(character) else "other"


def test_folds_across_classes_lists_every_such_character() -> None:
    # On the running Python's Unicode database: the fast path is exact only if this holds.
    characters = [chr(code) for code in range(sys.maxunicode + 1)]
    crossing = {
        character
        for character in characters
        if (folded := character.casefold()) != character
        and (_kind(character) == "han-kana" or {_kind(c) for c in folded} != {_kind(character)})
    }
    listed = {character for character in characters if _FOLDS_ACROSS_CLASSES.match(character)}
    assert crossing and listed == crossing


def test_folded_words_are_the_words_casefolded() -> None:
    for text in (
        "The Harbour MASTER said: “Straße” — ΣΊΣΥΦΟΣ, ﬁnal",
        "İstanbul and ǰ, ΐ ὐ: word-class changes",
        "漢字とかなABC mixed Ⅻ ǅ ᾈ",
        "",
    ):
        assert folded_words(text) == [word.casefold() for word in words(text)]


def test_spaced_text_keeps_touching_cells_and_blocks_apart() -> None:
    table = lxml.html.fromstring(
        "<table><tr><th>Attribute</th><th>Data Type</th></tr>"
        "<tr><td>a<b>b</b>c<!-- note -->d</td><td>x<br>y</td></tr></table>"
    )
    assert words(spaced_text(table)) == ["Attribute", "Data", "Type", "abcd", "x", "y"]
    paragraphs = lxml.html.fromstring("<div><p>one</p><p>two</p>three</div>")
    assert words(spaced_text(paragraphs)) == ["one", "two", "three"]


def test_a_code_blocks_line_breaks_are_lines_in_the_text() -> None:
    # Some sites write code as lines joined by <br> inside <pre>, not by newlines.
    page = lxml.html.fromstring(
        "<div><p>The script:</p><pre><code>#!/usr/bin/env python3<br><br>import os<br>"
        "<b>x</b> = 1<!-- set --> # one<br>  print(x)</code></pre><p>After.</p></div>"
    )
    assert element_text(page) == (
        "The script:\n\n#!/usr/bin/env python3\n\nimport os\nx = 1 # one\n  print(x)\n\nAfter.\n"
    )


def test_a_line_break_is_a_new_line_of_the_same_block() -> None:
    # A poem's or an address's lines: one newline apart, a blank line only for <br><br>.
    page = lxml.html.fromstring(
        "<div><p>The cloud is a coordination layer.<br> It is a terrible place.</p>"
        "<p>Line one<br><br><br>Line two<br></p><ul><li>x<br>y</li><li>z</li></ul></div>"
    )
    assert element_text(page) == (
        "The cloud is a coordination layer.\nIt is a terrible place.\n\n"
        "Line one\n\nLine two\n\nx\ny\nz\n"
    )
