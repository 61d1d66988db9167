"""The language of each code block, read from the page and written onto the output's code.

Pages say a block's language in many ways: ``class="language-python"`` (Prism, highlight.js,
CommonMark renderers), ``lang-js`` (Prettify), ``data-lang``/``data-language`` (Hugo, Docusaurus),
a wrapper ``<div class="highlight highlight-source-python">`` (GitHub), ``brush: js``
(SyntaxHighlighter), ``sourceCode python`` (Pandoc). The content we emit has lost most of them:
the sanitiser keeps only language-*/lang-* classes on <pre>/<code>, and Readability.js in the
page drops every class. So after the cascade, each <pre> of the result without a language is
matched by its text to a <pre> of the page, and that block's hint becomes a ``language-*``
class, which html-to-markdown writes after the opening fence.
"""

from __future__ import annotations

import re

from lxml.html import HtmlElement

from ._parse import inner_html, parse_fragment

WRAPPER_LEVELS = 3
"""Ancestors of a <pre> searched for a hint: Jekyll's rouge nests div.language-x > div > pre."""

# Same alphabet and length as the sanitiser's language tokens (extractor/_sanitize.py): the
# language ends up in a fence's info string, where a backtick or a space would break out.
_LANGUAGE = re.compile(r"^[A-Za-z0-9_+#.-]{1,30}$")
_CLASS_PREFIXES = ("language-", "lang-", "highlight-source-")
_BRUSH = re.compile(r"brush:\s*([^\s;]+)")
_DATA_ATTRIBUTES = ("data-lang", "data-language")
# Markers that say "no language" or belong to the highlighter rather than naming a language.
_NOT_LANGUAGES = frozenset({"none", "nohighlight", "plain", "sourcecode", "highlight"})


def restore_code_languages(html: str, hints: dict[str, str]) -> str:
    """``html`` (sanitised content) with a ``language-*`` class on each code block whose
    language the page states (``hints``, from ``page_hints``); unchanged (the same string)
    when there is nothing to add."""
    if "<pre" not in html or not hints:
        return html
    root = parse_fragment(html)
    changed = False
    for pre in root.iter("pre"):
        if _language_of(pre) is not None:
            continue
        language = hints.get(pre.text_content().strip())
        if language is None:
            continue
        code = pre.find("code")
        target = code if code is not None and len(pre) == 1 else pre
        target.set("class", f"language-{language}")
        changed = True
    return inner_html(root) if changed else html


def page_hints(document: HtmlElement) -> dict[str, str]:
    """Each code block's text in the page, mapped to the language the page gives it."""
    hints: dict[str, str] = {}
    for pre in document.iter("pre"):
        language = _language_of(pre)
        if language is None:
            language = next(
                (
                    found
                    for ancestor, _ in zip(pre.iterancestors(), range(WRAPPER_LEVELS), strict=False)
                    if (found := _element_language(ancestor)) is not None
                ),
                None,
            )
        if language is not None:
            hints.setdefault(pre.text_content().strip(), language)
    return hints


def _language_of(pre: HtmlElement) -> str | None:
    """The language a <pre> or the <code> inside it names."""
    found = _element_language(pre)
    if found is None:
        code = pre.find("code")
        found = _element_language(code) if code is not None else None
    return found


def _element_language(element: HtmlElement) -> str | None:
    for attribute in _DATA_ATTRIBUTES:
        value = _valid(element.get(attribute, ""))
        if value:
            return value
    classes = element.get("class", "")
    if not classes:
        return None
    brush = _BRUSH.search(classes)
    if brush:
        return _valid(brush.group(1))
    tokens = classes.split()
    for token in tokens:
        for prefix in _CLASS_PREFIXES:
            if token.startswith(prefix) and (value := _valid(token[len(prefix) :])):
                return value
    if "sourceCode" in tokens:  # Pandoc: class="sourceCode python"
        return next((v for t in tokens if t != "sourceCode" and (v := _valid(t))), None)
    return None


def _valid(value: str) -> str | None:
    value = value.strip().lower()
    if not _LANGUAGE.match(value) or value in _NOT_LANGUAGES:
        return None
    return value
