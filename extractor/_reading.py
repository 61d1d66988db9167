"""The one step the final reading's refinements share: parse the reading, remove what the
refinement selects, record it in the trace, and write the reading again."""

from __future__ import annotations

from collections.abc import Callable

from lxml.html import HtmlElement

from ._parse import inner_html, parse_fragment
from ._postprocess import CleanContent, html_to_text
from ._rules import remove_and_record
from ._types import TraceEntry


def drop_from_reading(
    content: CleanContent,
    select: Callable[[HtmlElement], list[HtmlElement]],
    name: str,
    reason: str,
) -> tuple[CleanContent, TraceEntry | None]:
    """``content`` without the elements ``select`` picks from its parse, and the trace entry
    (kind ``post``, named ``name``) of what went; None and ``content`` as it was when
    nothing did."""
    root = parse_fragment(content.html)
    entry = remove_and_record(select(root), "post", name, reason)
    if entry is None:
        return content, None
    html = inner_html(root)
    return CleanContent(html=html, text=html_to_text(html)), entry
