"""Shared types: what the renderer hands over, and what the extractor gives back.

The extractor owns these so the renderer imports the extractor and never the other way round.
``PageSnapshot`` round-trips through JSON, so fixtures can store one and extractor tests run
without a browser.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal

from ._markdown import html_to_markdown
from ._postprocess import html_to_text

TraceKind = Literal["page-type", "rule", "stage", "post"]
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
    # What ended the renderer's wait: "stable" (two extractions agreed), "budget", or "served"
    # (the browser side failed: ``html`` is empty and ``source_html`` is what there is to read).
    settled_by: str | None = None
    # Readability.js run as Firefox Reader View runs it (``RenderOptions.reader_view``): on the
    # live document, unfiltered. ``content`` is None when it found no article.
    reader_view: ReadabilityResult | None = None
    # The main document as the server sent it (decoded), kept only when the page never reached
    # DOMContentLoaded: the DOM then holds only what the parser got to before a script stalled
    # it, and the extractor reads the served document too (``_api._prefer_served_document``).
    source_html: str | None = None

    @property
    def page_html(self) -> str:
        """The page to save or show: the DOM, or the served document when there is no DOM."""
        return self.html or self.source_html or ""

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
            source_html=data.get("source_html"),
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


READERMODE_METADATA_FIELDS = (
    "title", "authors", "date_published", "date_modified", "site_name", "lang", "description",
    "image", "tags", "categories", "canonical_url",
)  # fmt: skip
"""Our ``Metadata``'s fields (not Readability.js's), in output order (``sources`` is keyed by
these names)."""


@dataclass(frozen=True, kw_only=True)
class Metadata:
    """What the page says about itself (``extractor/_metadata.py`` documents the sources).

    Fields not known are None, or empty for the lists. Dates are ISO 8601 calendar dates
    (``YYYY-MM-DD``); ``image`` and ``canonical_url`` are absolute http(s) URLs. ``sources``
    says which source gave each field that has a value ("json-ld", "opengraph", ...).
    """

    title: str | None = None
    authors: tuple[str, ...] = ()
    date_published: str | None = None
    date_modified: str | None = None
    site_name: str | None = None
    lang: str | None = None
    description: str | None = None
    image: str | None = None
    tags: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    canonical_url: str | None = None
    sources: dict[str, str] = field(default_factory=dict, compare=False)

    @property
    def author(self) -> str | None:
        """The authors as one string ("Ann Writer, Bo Reporter"), as the JSON's ``author``."""
        return ", ".join(self.authors) or None

    @property
    def date(self) -> str | None:
        """The publish date (the name this field had before update dates were read)."""
        return self.date_published

    def to_dict(self) -> dict[str, Any]:
        """The JSON fields, in a stable order; ``author`` stays beside ``authors``."""
        return {
            "title": self.title,
            "author": self.author,
            "authors": list(self.authors),
            "date_published": self.date_published,
            "date_modified": self.date_modified,
            "site_name": self.site_name,
            "lang": self.lang,
            "description": self.description,
            "image": self.image,
            "tags": list(self.tags),
            "categories": list(self.categories),
            "canonical_url": self.canonical_url,
            # In field order, whatever order the fields were read in.
            "sources": {
                name: self.sources[name]
                for name in READERMODE_METADATA_FIELDS
                if name in self.sources
            },
        }


class _Unset:
    """A lazy field's default: computed when first read (its repr says how)."""

    def __init__(self, how: str) -> None:
        self._how = how

    def __repr__(self) -> str:
        return f"<{self._how}>"


FROM_HTML: Any = _Unset("converted from html")
FROM_PAGE: Any = _Unset("read from the page")

METADATA_SOURCE = "_metadata_source"
"""Key, in an ``Extraction``'s ``__dict__``, of the callable that reads its metadata."""
TITLE_SOURCE = "_title_source"
"""Key of the callable that reads the metadata's title alone (``Extraction.title``)."""
TITLE = "_title"
"""Key of the title ``TITLE_SOURCE`` read."""


class _LazyField:
    """A data descriptor as a dataclass field's default: the value given, else
    ``compute(instance)`` on first read, kept.

    The value lives in the instance's ``__dict__`` under the field's own name, so copies and
    pickles carry it; None or nothing there (not the sentinel, which a pickle would not keep)
    means "not yet". Used where most callers never read the field: converting Markdown was a twentieth
    of a static extraction and reading metadata a tenth, and callers after the text alone (a
    RAG pipeline, the benchmark) read neither; trafilatura, too, reads metadata only when
    asked."""

    def __init__(self, unset: Any, compute: Callable[[Any], Any]) -> None:
        self._unset = unset
        self._compute = compute

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self._unset  # what dataclass reads as the field's default
        # Absent (an init=False field: dataclass leaves it to the class attribute) or None.
        value = instance.__dict__.get(self._name)
        if value is None:
            value = instance.__dict__[self._name] = self._compute(instance)
        return value

    def __set__(self, instance: Any, value: Any) -> None:
        instance.__dict__[self._name] = None if value is self._unset else value


def _read_attached_metadata(extraction: Extraction) -> Metadata:
    # The source goes once used: it holds the page's HTML.
    source = extraction.__dict__.pop(METADATA_SOURCE, None)
    return source() if source is not None else Metadata()


def with_metadata_source(
    extraction: Extraction,
    source: Callable[[], Metadata],
    title: Callable[[], str | None] | None = None,
) -> Extraction:
    """``extraction`` (made without ``metadata``) reading its metadata with ``source`` when
    first asked, and its ``title`` with ``title`` while the metadata is unread; both should be
    picklable (a ``functools.partial``) like the rest."""
    if extraction.__dict__.get("metadata") is None:
        extraction.__dict__[METADATA_SOURCE] = source
        if title is not None:
            extraction.__dict__[TITLE_SOURCE] = title
    return extraction


def with_text(extraction: Extraction, text: str) -> Extraction:
    """``extraction`` with its ``text`` already known (it must be ``html``'s)."""
    extraction.__dict__["text"] = text
    return extraction


@dataclass(frozen=True, kw_only=True)
class Extraction:
    """The main content of a page in every output form, with how it was found.

    ``text`` and ``markdown`` derive from ``html``: they are not constructor arguments, but
    read from ``html`` when first read (``with_text`` gives a text already known). So neither
    ``revised`` nor ``dataclasses.replace`` can carry them over stale when ``html`` changes.
    ``metadata`` is the page's, read from the page when first read (``with_metadata_source``).
    """

    url: str | None
    # The lazy fields' defaults are descriptors that compute the value on first read; mypy
    # reads a descriptor default as the value itself, hence the ignores.
    metadata: Metadata = _LazyField(FROM_PAGE, _read_attached_metadata)  # type: ignore[assignment]
    html: str
    text: str = field(  # type: ignore[assignment]
        init=False, default=_LazyField(FROM_HTML, lambda e: html_to_text(e.html))
    )
    markdown: str = field(  # type: ignore[assignment]
        init=False, default=_LazyField(FROM_HTML, lambda e: html_to_markdown(e.html))
    )
    stage: str
    trace: tuple[TraceEntry, ...]
    warnings: tuple[str, ...] = ()
    # Only when asked for (ExtractOptions.include_comments) and the page has a comment section.
    comments: Comments | None = None
    # What kind of page it is (extractor/_pagetype.py) and the evidence that said so.
    page_type: str | None = None
    page_type_evidence: tuple[str, ...] = ()

    def revised(self, **changes: Any) -> Extraction:
        """A copy with ``changes`` (constructor arguments): the way to change an Extraction.

        What derives from ``html`` follows a new ``html``; what was not read yet (metadata,
        Markdown) stays unread, where ``dataclasses.replace`` would read the metadata."""
        allowed = {f.name for f in fields(self) if f.init}
        if unknown := sorted(changes.keys() - allowed):
            raise TypeError(f"Extraction.revised() cannot set {', '.join(unknown)}")
        revised = copy.copy(self)  # the instance's __dict__: unread fields, metadata source
        for name, value in changes.items():
            object.__setattr__(revised, name, value)
        if "html" in changes:
            revised.__dict__["text"] = revised.__dict__["markdown"] = None
        if "metadata" in changes:
            for key in (METADATA_SOURCE, TITLE_SOURCE, TITLE):
                revised.__dict__.pop(key, None)
        return revised

    @property
    def title(self) -> str | None:
        """``metadata.title``; while the metadata is unread, read alone (the title line of
        text and Markdown output wants no dates, which are most of reading metadata)."""
        state = self.__dict__
        if state.get("metadata") is not None or TITLE_SOURCE not in state:
            return self.metadata.title
        if TITLE not in state:
            state[TITLE] = state[TITLE_SOURCE]()
        title: str | None = state[TITLE]
        return title

    def to_dict(self) -> dict[str, Any]:
        """The JSON output's fields, in a stable order."""
        metadata = self.metadata.to_dict()
        return {
            "url": self.url,
            **{key: value for key, value in metadata.items() if key != "sources"},
            "metadata_sources": metadata["sources"],
            "text": self.text,
            "html": self.html,
            "markdown": self.markdown,
            "page_type": self.page_type,
            "page_type_evidence": list(self.page_type_evidence),
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
