"""What the page-type model (``_pagemodel``) reads of a page: named numbers from its metadata,
its URL and its DOM's shape, read from the untouched page.

The rules of ``_pagetype`` give one weight per type (their evidence summed); the model reads
those weights and, beside them, what the rules cannot weigh alone: whether the page has a
byline or a publication date at all, how its words are spread (long paragraphs under a few
headings, as articles have, or short blocks under many headings with calls to action, as a
service page has), how much of it is links, forms, buttons, lists, tables and code, prices in
its text, dates in its text, and the URL's shape. Counts are taken as ``log1p``, so one huge
page does not outweigh the rest. ``FEATURES`` names the columns in order; the model file was
trained on exactly these (``scripts/train_pagetype_model.py``).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping
from urllib.parse import urlsplit

import lxml.etree
import numpy as np
import numpy.typing as npt
from lxml.html import HtmlElement

PAGE_TYPES = ("article", "forum", "product", "collection", "listing", "documentation", "service")

COUNTED_TAGS = (
    "p", "h1", "h2", "h3", "h4", "li", "ul", "ol", "table", "th", "pre", "code", "form", "input",
    "button", "select", "img", "section", "article", "aside", "nav", "time", "blockquote", "dl",
    "svg", "iframe",
)  # fmt: skip
SCHEMA_GROUPS: dict[str, frozenset[str]] = {
    "article": frozenset({"Article", "NewsArticle", "BlogPosting", "Report", "ScholarlyArticle"}),
    "forum": frozenset({"DiscussionForumPosting", "QAPage", "Question", "Answer", "Comment"}),
    "product": frozenset({"Product", "ProductGroup", "IndividualProduct", "ProductModel"}),
    "offer": frozenset({"Offer", "AggregateOffer", "AggregateRating"}),
    "faq": frozenset({"FAQPage"}),
    "itemlist": frozenset({"ItemList", "CollectionPage", "SearchResultsPage", "OfferCatalog"}),
    "breadcrumb": frozenset({"BreadcrumbList"}),
    "organization": frozenset({"Organization", "Corporation", "LocalBusiness", "EducationalOrganization"}),
    "service": frozenset({"Service", "ProfessionalService", "SoftwareApplication", "WebApplication"}),
    "docs": frozenset({"TechArticle", "APIReference", "SoftwareSourceCode", "HowTo"}),
    "event": frozenset({"Event", "Course", "JobPosting"}),
    "person": frozenset({"Person"}),
}  # fmt: skip
_CTA = re.compile(
    r"\b(get started|start (?:your |a )?(?:free )?trial|free trial|book a (?:demo|call|consultation)"
    r"|request a (?:demo|quote)|get a (?:quote|demo)|contact (?:us|sales)|talk to (?:us|sales)"
    r"|schedule a|sign up|try (?:it )?(?:for )?free|learn more|see pricing|view pricing"
    r"|get in touch|call (?:us|now)|enquire|enroll|apply now|subscribe now)\b"
)
_FORUM_TEXT = re.compile(
    r"\b(repl(?:y|ies)|quote|joined|posts?:|members?|upvotes?|permalink|reputation|thread)\b"
)
_DOCS_TEXT = re.compile(
    r"\b(on this page|table of contents|edit this page|edit on github|parameters|returns"
    r"|example|syntax|version|deprecated|api|install(?:ation)?)\b"
)
_PRICE_TEXT = re.compile(r"[$€£¥]\s?\d|\d[\d.,]*\s?(€|eur|usd|zł|kr)\b", re.I)
_PER_PERIOD = re.compile(r"(/|per )\s?(mo|month|year|yr|user|seat)\b", re.I)
_DATE_TEXT = re.compile(
    r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2},? (19|20)\d\d\b"
    r"|\b\d{1,2} (jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* (19|20)\d\d\b"
    r"|\b(19|20)\d\d-[01]\d-[0-3]\d\b|\b\d+ (minutes?|hours?|days?|months?|years?) ago\b",
    re.I,
)
_NOT_TEXT = frozenset({"script", "style", "template", "noscript", "head", "title"})
WORD_GROUPS: dict[str, frozenset[str]] = {
    "service": frozenset({
        "service", "services", "consulting", "consultancy", "solutions", "agency", "pricing",
        "plans", "packages", "program", "programs", "certification", "calculator", "tools",
        "insurance", "repair", "expert", "experts", "hire", "development", "company", "demo",
        "features", "platform", "software", "rentals", "support", "training", "tutoring",
    }),
    "listing": frozenset({
        "best", "top", "list", "directory", "events", "jobs", "courses", "results", "search",
        "archive", "archives", "news", "latest", "rankings", "reviews", "page",
    }),
    "collection": frozenset({
        "shop", "store", "collections", "collection", "category", "categories", "sale",
        "catalog", "catalogue", "buy", "deals", "men", "women", "kids",
    }),
    "docs": frozenset({
        "docs", "documentation", "api", "reference", "guide", "guides", "manual", "tutorial",
        "handbook", "sdk", "glossary", "faq", "help",
    }),
    "forum": frozenset({
        "forum", "forums", "thread", "threads", "topic", "discussion", "community", "question",
        "questions", "answers", "reddit", "comments",
    }),
}  # fmt: skip
"""Words of a type, counted among the URL's path words and the ``<title>``'s: "services" in
a slug ("/generative-ai-consulting-services/") or "Pricing" in a title says service where no
segment is exactly ``/services/``."""
_WORD = re.compile(r"[a-z]+")
_SLUG_WORD = re.compile(r"(?:^|[-_+])[a-z]+(?=[-_+.]|$)")
_NUMERIC_ID = re.compile(r"\d{4,}")

SHAPE: tuple[str, ...] = (
    "class_post", "class_author", "class_price", "class_filter", "class_sidebar", "cart",
    "linked_headings", "records",
)  # fmt: skip
"""The DOM counts the rules weigh (``_pagetype._dom_evidence``), read by the model as
``log1p``; ``priced_share`` (of the run of records, with a price) as it is."""

FEATURES: tuple[str, ...] = (
    *(f"rule_{kind}" for kind in PAGE_TYPES),
    *(f"url_{kind}" for kind in PAGE_TYPES),
    *(f"log_{name}" for name in SHAPE), "priced_share",
    *(f"schema_{name}" for name in SCHEMA_GROUPS),
    "og_article", "og_website", "og_product", "og_none", "published_meta", "author_meta",
    "url_depth", "url_slug_words", "url_root", "url_query", "url_html", "url_numeric_id",
    "log_chars", "p_share", "link_share", "log_p_mean", "log_chars_per_heading",
    "short_block_share", *(f"log_{tag}" for tag in COUNTED_TAGS),
    "log_links", "log_cta", "log_forum_words", "log_docs_words", "log_prices", "log_per_period",
    "log_dates", "log_code_langs", "log_rel_pagination",
    *(f"url_words_{group}" for group in WORD_GROUPS),
    *(f"title_words_{group}" for group in WORD_GROUPS),
)  # fmt: skip


def page_features(
    document: HtmlElement,
    url: str | None,
    weights: Mapping[str, float],
    schema_names: Mapping[str, int],
    meta: Mapping[str, str],
    shape: Mapping[str, float] | None = None,
) -> npt.NDArray[np.float64]:
    """The page's row of ``FEATURES``: the rules' ``weights``, the schema.org types found
    (``schema_names``: name -> count), the page's ``meta`` properties and names (lower-cased
    keys; ``url:KIND`` the URL's own weight for a type), the DOM counts the rules weighed
    (``shape``), the URL's shape and the DOM's."""
    values: dict[str, float] = {f"rule_{kind}": weights.get(kind, 0.0) for kind in PAGE_TYPES}
    values.update({f"url_{kind}": float(meta.get(f"url:{kind}", 0.0)) for kind in PAGE_TYPES})
    shape = shape or {}
    values.update({f"log_{name}": _log(shape.get(name, 0.0)) for name in SHAPE})
    values["priced_share"] = shape.get("priced_share", 0.0)
    for group, names in SCHEMA_GROUPS.items():
        values[f"schema_{group}"] = float(any(schema_names.get(name) for name in names))
    og_type = meta.get("og:type", "").strip().lower()
    values.update(
        og_article=float(og_type == "article"),
        og_website=float(og_type == "website"),
        og_product=float(og_type.startswith("product") or "item" in og_type),
        og_none=float(not og_type),
        published_meta=float(bool(meta.get("article:published_time")) or "datePublished" in meta),
        author_meta=float(bool(meta.get("author") or meta.get("article:author"))),
    )
    values.update(_url_values(url))
    values.update(_dom_values(document))
    path_words = _WORD.findall(urlsplit(url or "").path.lower())
    title = document.find(".//title")
    title_words = _WORD.findall((title.text_content() if title is not None else "").lower())
    for group, words in WORD_GROUPS.items():
        values[f"url_words_{group}"] = float(sum(word in words for word in path_words))
        values[f"title_words_{group}"] = float(sum(word in words for word in title_words))
    return np.array([values[name] for name in FEATURES], dtype=np.float64)


def _url_values(url: str | None) -> dict[str, float]:
    parts = urlsplit(url or "")
    segments = [segment for segment in parts.path.lower().split("/") if segment]
    slug = segments[-1] if segments else ""
    return {
        "url_depth": float(len(segments)),
        "url_slug_words": float(len(_SLUG_WORD.findall(slug))),
        "url_root": float(not segments),
        "url_query": float(bool(parts.query)),
        "url_html": float(slug.endswith((".html", ".htm", ".php", ".aspx"))),
        "url_numeric_id": float(bool(_NUMERIC_ID.search(parts.path))),
    }


def _log(value: float) -> float:
    return math.log1p(max(value, 0.0))


def _dom_values(document: HtmlElement) -> dict[str, float]:
    """The DOM's shape: tag counts, how text is spread over paragraphs, links and headings,
    and phrases that say forum, documentation, service (calls to action) or shop."""
    tags: Counter[str] = Counter()
    p_chars = link_chars = short_blocks = blocks = code_langs = pagination = 0
    cta = 0
    pieces: list[str] = []
    for element in document.iter(lxml.etree.Element):
        tag = element.tag
        if not isinstance(tag, str):
            continue
        tags[tag] += 1
        # The page's text without its scripts and styles, which text_content() would keep.
        if tag not in _NOT_TEXT and element.text:
            pieces.append(element.text)
        if element.tail:
            pieces.append(element.tail)
        if tag in ("p", "li", "h2", "h3", "h4", "td", "dd"):
            chars = len((element.text_content() or "").strip())
            blocks += 1
            short_blocks += chars < 80
            if tag == "p":
                p_chars += chars
        elif tag == "a":
            text = element.text_content() or ""
            link_chars += len(text.strip())
            if len(text) < 40 and _CTA.search(text.lower()):
                cta += 1
            if (element.get("rel") or "").lower() in ("next", "prev"):
                pagination += 1
        elif tag == "button" and _CTA.search((element.text_content() or "")[:40].lower()):
            cta += 1
        elif tag == "link" and (element.get("rel") or "").lower() in ("next", "prev"):
            pagination += 1
        if tag in ("code", "pre") and "language-" in (element.get("class") or ""):
            code_langs += 1
    text = " ".join(" ".join(pieces).split())
    chars = max(len(text), 1)
    lowered = text.lower()
    headings = tags["h2"] + tags["h3"] + tags["h4"]
    values = {
        "log_chars": _log(chars),
        "p_share": min(p_chars / chars, 1.0),
        "link_share": min(link_chars / chars, 1.0),
        "log_p_mean": _log(p_chars / tags["p"]) if tags["p"] else 0.0,
        "log_chars_per_heading": _log(chars / (headings + 1)),
        "short_block_share": short_blocks / blocks if blocks else 0.0,
        "log_links": _log(tags["a"]),
        "log_cta": _log(cta),
        "log_forum_words": _log(len(_FORUM_TEXT.findall(lowered))),
        "log_docs_words": _log(len(_DOCS_TEXT.findall(lowered))),
        "log_prices": _log(len(_PRICE_TEXT.findall(text))),
        "log_per_period": _log(len(_PER_PERIOD.findall(text))),
        "log_dates": _log(len(_DATE_TEXT.findall(text))),
        "log_code_langs": _log(code_langs),
        "log_rel_pagination": _log(pagination),
    }
    values.update({f"log_{tag}": _log(tags[tag]) for tag in COUNTED_TAGS})
    return values
