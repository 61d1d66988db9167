"""Sanitised HTML to Markdown, with markdownify (well kept, table and fenced-code support)."""

from __future__ import annotations

import re

from markdownify import MarkdownConverter

_BLANK_LINES = re.compile(r"\n{3,}")
_TRAILING_SPACES = re.compile(r"[ \t]+\n")
# Characters in text that Markdown would read as links, autolinks, raw HTML or code spans:
# a paragraph saying "[x](javascript:...)" must stay text, never become a live link.
_MARKUP_CHARS = re.compile(r"([\\\[\]<>`])")
_LANGUAGE_CLASS = re.compile(r"(?:language|lang)-([\w+#-]+)")


class _SafeConverter(MarkdownConverter):
    """markdownify with text escaped so that no page text turns into Markdown markup."""

    def escape(self, text: str, parent_tags: set[str]) -> str:  # noqa: D102
        if text and "_noformat" not in parent_tags:
            text = _MARKUP_CHARS.sub(r"\\\1", text)
        return super().escape(text, parent_tags)


def _code_language(pre) -> str:  # markdownify passes a BeautifulSoup tag
    code = pre.find("code")
    classes = " ".join((code or pre).get("class") or [])
    match = _LANGUAGE_CLASS.search(classes)
    return match.group(1) if match else ""


def html_to_markdown(html: str) -> str:
    """Markdown for an HTML fragment: ATX headings, '-' bullets, fenced code, pipe tables."""
    if not html.strip():
        return ""
    markdown = _SafeConverter(
        heading_style="ATX",
        bullets="-",
        code_language_callback=_code_language,
        strip=["span", "div"],
    ).convert(html)
    markdown = _TRAILING_SPACES.sub("\n", markdown)
    markdown = _BLANK_LINES.sub("\n\n", markdown).strip()
    return markdown + "\n" if markdown else ""
