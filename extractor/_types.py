"""Shared types: what the renderer hands over, and what the extractor gives back.

The extractor owns these so the renderer imports the extractor and never the other way round.
``PageSnapshot`` round-trips through JSON, so fixtures can store one and extractor tests run
without a browser.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal

TraceKind = Literal["rule", "stage", "post"]
TraceOutcome = Literal["removed", "accepted", "rejected", "skipped", "changed"]


@dataclass(frozen=True, kw_only=True)
class ReadabilityResult:
    """What Mozilla's Readability.js returned inside the page (field names follow its API)."""

    content: str | None
    title: str | None = None
    byline: str | None = None
    excerpt: str | None = None
    site_name: str | None = None
    lang: str | None = None
    dir: str | None = None
    published_time: str | None = None
    text_content: str | None = None
    length: int | None = None
    readerable: bool | None = None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ReadabilityResult:
        known = {f.name for f in fields(cls)}
        return cls(**{key: value for key, value in data.items() if key in known})


@dataclass(frozen=True, kw_only=True)
class PageSnapshot:
    """The final DOM of a page as serialised HTML, plus what is known about how it was got."""

    html: str
    url: str | None = None
    final_url: str | None = None
    status: int | None = None
    readability: ReadabilityResult | None = None
    timings: dict[str, float] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    # What ended the renderer's wait: "stable" (two extractions agreed) or "budget".
    settled_by: str | None = None
    # Readability.js run as Firefox Reader View runs it (``RenderOptions.reader_view``): on the
    # live document, unfiltered. ``content`` is None when it found no article.
    reader_view: ReadabilityResult | None = None

    @property
    def base_url(self) -> str | None:
        """The URL relative links resolve against (before any ``<base href>``)."""
        return self.final_url or self.url

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["warnings"] = list(self.warnings)
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=2)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PageSnapshot:
        readability = data.get("readability")
        reader_view = data.get("reader_view")
        return cls(
            html=data["html"],
            url=data.get("url"),
            final_url=data.get("final_url"),
            status=data.get("status"),
            readability=ReadabilityResult.from_dict(readability) if readability else None,
            timings=dict(data.get("timings") or {}),
            warnings=tuple(data.get("warnings") or ()),
            settled_by=data.get("settled_by"),
            reader_view=ReadabilityResult.from_dict(reader_view) if reader_view else None,
        )

    @classmethod
    def from_json(cls, text: str) -> PageSnapshot:
        return cls.from_dict(json.loads(text))


@dataclass(frozen=True, kw_only=True)
class TraceEntry:
    """One step of an extraction: a rule that removed something, or a stage's attempt."""

    kind: TraceKind
    name: str
    outcome: TraceOutcome
    reason: str = ""
    count: int | None = None
    words: int | None = None
    excerpt: str | None = None
    ms: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {key: value for key, value in asdict(self).items() if value is not None}


@dataclass(frozen=True, kw_only=True)
class Metadata:
    """What the page says about itself. Fields not known are None."""

    title: str | None = None
    author: str | None = None
    date: str | None = None
    site_name: str | None = None
    lang: str | None = None
    description: str | None = None


@dataclass(frozen=True, kw_only=True)
class Extraction:
    """The main content of a page in every output form, with how it was found."""

    url: str | None
    metadata: Metadata
    html: str
    text: str
    markdown: str
    stage: str
    trace: tuple[TraceEntry, ...]
    warnings: tuple[str, ...] = ()
    # Only when asked for (ExtractOptions.include_comments) and the page has a comment section.
    comments: Comments | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON output's fields, in a stable order."""
        return {
            "url": self.url,
            **asdict(self.metadata),
            "text": self.text,
            "html": self.html,
            "markdown": self.markdown,
            "stage": self.stage,
            "trace": [entry.to_dict() for entry in self.trace],
            "warnings": list(self.warnings),
        } | ({"comments": asdict(self.comments)} if self.comments is not None else {})

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=2)


@dataclass(frozen=True, kw_only=True)
class Comments:
    """The page's comment section, apart from the main content (``include_comments``)."""

    html: str
    text: str
    markdown: str
