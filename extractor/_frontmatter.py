"""YAML front matter: the page's metadata on top of Markdown or text output.

Written with PyYAML's ``safe_dump`` (plain types only, every string quoted where YAML would
read it as something else), so any page text is safe in it and ``yaml.safe_load`` reads it
back. Dates are YAML dates (``2024-05-01``, what static site generators expect); fields without
a value are left out.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import yaml

from ._types import READERMODE_METADATA_FIELDS, Metadata

DATE_FIELDS = frozenset({"date_published", "date_modified"})


def _yaml_value(name: str, value: Any) -> Any:
    if name in DATE_FIELDS:
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            return value
    if isinstance(value, tuple):
        return [_no_raw_html(item) for item in value]
    return _no_raw_html(value)


def _no_raw_html(value: Any) -> Any:
    # A Markdown renderer that does not know front matter reads "title: <img onerror=...>" as
    # raw HTML; "<" becomes U+2039, as in alt text (extractor/_sanitize.py).
    return value.replace("<", "\u2039") if isinstance(value, str) and "<" in value else value


def front_matter(metadata: Metadata, *, url: str | None = None) -> str:
    """``---\\n<YAML>---\\n`` with every known field of ``metadata`` (and ``url``, if given).

    Returns "" when nothing is known, so ``front_matter(m) + markdown`` is always right.
    """
    data = {
        name: _yaml_value(name, getattr(metadata, name))
        for name in READERMODE_METADATA_FIELDS  # url, when given, comes last
        if getattr(metadata, name)
    }
    if url:
        data["url"] = url
    if not data:
        return ""
    body = yaml.safe_dump(
        data,
        allow_unicode=True,
        sort_keys=False,
        default_flow_style=False,
        width=1_000_000,  # one line per value: a folded description is harder to grep
    )
    return f"---\n{body}---\n"
