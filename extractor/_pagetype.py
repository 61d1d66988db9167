"""What kind of page this is: article, forum, product, collection, listing, documentation or
service (WCXB's seven types), with the evidence that decided it.

Each piece of evidence adds weight to one type: schema.org ``@type`` from JSON-LD and microdata
(a ``Product`` node, a ``DiscussionForumPosting``), ``og:type``, the URL's path (``/threads/``,
``/docs/``, ``/products/``), and the DOM's shape read in one pass over the untouched page (posts
with authors, code blocks, prices and a cart button, runs of sibling records). The type with the
most weight wins; with none above ``MIN_WEIGHT``, the page is an article, the common case and
the one the cascade was built for. Weights are heuristics measured on wcxb-dev's labels
(``scripts/pagetype_confusion.py`` prints the confusion matrix); change them only with it.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlsplit

import lxml.etree
import numpy as np
import numpy.typing as npt
from lxml.html import HtmlElement

from ._discussion import read_discussion
from ._jsonld import json_ld_nodes
from ._pagefeatures import PAGE_TYPES as PAGE_TYPES
from ._pagefeatures import page_features
from ._pagemodel import page_model
from ._shoptemplates import body_template

DEFAULT_TYPE = "article"

MIN_WEIGHT = 2.0
"""Below this much evidence for any type, the page is an article (the default)."""
DECISIVE_WEIGHT = 3.0
"""The rules' evidence for a type other than article from which the rules decide and the model
is only heard: a page's main entity declared (a schema.org ``Product`` or
``DiscussionForumPosting``, ``og:type product``) says more than its shape. Two-fold held out
on wcxb-dev: 0.846 accuracy with the model alone, 0.848 with this."""
MODEL_OVERRULES_AT = 0.95
"""The model's confidence in another type from which it decides over the rules' decisive
evidence: Apple's Mac store (3069) declares ``og:type product`` on a grid of nine Macs, and
Salesforce's CRM page (0690) a JSON-LD ``Product``. Not over a forum: the rules see a thread
the model may not (lobste.rs's discussion, 0575). Two-fold held out on wcxb-dev
(``scripts/pagetype_confusion.py --held-out-types``): 1,293 -> 1,297 of 1,495 pages typed
right; mean F1 0.8688 -> 0.8696 (``benchmark_wcxb.py --held-out-types``; at 0.9, 0.8695:
one product more typed collection)."""
MODEL_NOTE_MIN = 0.05
"""Types the model rates at least this likely are named in its evidence line."""

# schema.org types (JSON-LD or microdata) -> (page type, weight). A page's main entity says
# most; types that also sit on other pages (FAQPage on service and product pages, WebPage
# everywhere) are left out or weigh little.
SCHEMA_TYPES: dict[str, tuple[str, float]] = {
    "DiscussionForumPosting": ("forum", 4.0),
    "QAPage": ("forum", 4.0),
    "Answer": ("forum", 2.0),
    "Comment": ("forum", 1.0),
    "Product": ("product", 3.0),
    "ProductGroup": ("product", 3.0),
    "IndividualProduct": ("product", 3.0),
    "Offer": ("product", 1.0),
    "AggregateOffer": ("collection", 1.0),
    "CollectionPage": ("collection", 2.0),
    "OfferCatalog": ("collection", 2.0),
    "SearchResultsPage": ("listing", 2.0),
    "ItemList": ("listing", 1.0),
    "TechArticle": ("documentation", 3.0),
    "APIReference": ("documentation", 4.0),
    "SoftwareSourceCode": ("documentation", 2.0),
    "Service": ("service", 2.0),
    "ProfessionalService": ("service", 2.0),
    "LocalBusiness": ("service", 1.0),
    # LocalBusiness's own kinds, named instead of it by the SEO plugins of firms' sites.
    **dict.fromkeys(
        (
            "LegalService",
            "Attorney",
            "Dentist",
            "MedicalBusiness",
            "MedicalClinic",
            "Physician",
            "HomeAndConstructionBusiness",
            "Plumber",
            "Electrician",
            "HVACBusiness",
            "RoofingContractor",
            "GeneralContractor",
            "AutoRepair",
            "HealthAndBeautyBusiness",
            "BeautySalon",
            "DaySpa",
            "HairSalon",
            "FinancialService",
            "AccountingService",
            "InsuranceAgency",
            "RealEstateAgent",
            "TravelAgency",
            "LodgingBusiness",
            "Hotel",
            "EmploymentAgency",
            "ChildCare",
            "MovingCompany",
            "Locksmith",
            "HousePainter",
        ),
        ("service", 1.0),
    ),
    "Course": ("service", 1.0),
    "SoftwareApplication": ("service", 1.0),
    "WebApplication": ("service", 1.0),
    "FAQPage": ("service", 1.0),
    "Article": ("article", 2.0),
    "NewsArticle": ("article", 3.0),
    "BlogPosting": ("article", 3.0),
    "Recipe": ("article", 3.0),
    "Review": ("article", 1.0),
}

OG_TYPES: dict[str, tuple[str, float]] = {
    "article": ("article", 1.0),
    "product": ("product", 3.0),
    "og:product": ("product", 3.0),
    "product.item": ("product", 3.0),
    "ebay-objects:item": ("product", 3.0),
    "product.group": ("collection", 3.0),
}

# URL path segments (lower-cased, split at "/") -> (page type, weight).
URL_SEGMENTS: dict[str, tuple[str, float]] = {
    **dict.fromkeys(
        ("threads", "thread", "topic", "topics", "t", "questions", "forum", "forums",
         "discussion", "discussions", "community", "r", "comments", "viewtopic.php",
         "showthread.php"),
        ("forum", 2.5),
    ),
    **dict.fromkeys(
        ("docs", "doc", "documentation", "api", "reference", "manual", "wiki", "reference",
         "userguide", "handbook", "book", "tutorial", "tutorials", "library", "man"),
        ("documentation", 2.0),
    ),
    **dict.fromkeys(
        ("product", "products", "p", "dp", "itm", "item", "gp"), ("product", 2.0)
    ),
    **dict.fromkeys(
        ("collections", "collection", "category", "categories", "c", "cat", "shop", "store",
         "browse", "department"),
        ("collection", 1.5),
    ),
    **dict.fromkeys(
        ("blog", "blogs", "news", "article", "articles", "post", "posts", "stories", "story"),
        ("article", 1.0),
    ),
    **dict.fromkeys(
        ("services", "service", "solutions", "solution", "pricing", "features", "platform",
         "industries", "consulting"),
        ("service", 2.0),
    ),
    **dict.fromkeys(
        ("tag", "tags", "archive", "archives", "search", "jobs", "events", "courses",
         "directory", "rankings", "listings", "page"),
        ("listing", 1.5),
    ),
}  # fmt: skip
DOCS_GENERATOR = re.compile(
    r"\b(docusaurus|mkdocs|docutils|sphinx|rustdoc|vitepress|vuepress|docsify|gitbook|antora"
    r"|mdbook|javadoc|doxygen|typedoc|docfx|starlight)\b",
    re.IGNORECASE,
)
"""``<meta name="generator">`` values of documentation generators: a page they made is a
manual's page, as a ``/docs/`` path says (their blog pages declare themselves articles)."""
_DATE_PATH = re.compile(r"/(19|20)\d\d/(0?[1-9]|1[0-2])/")
_SLUG_WORD = re.compile(r"(?:^|[-_+])[a-z]+(?=[-_+.]|$)")
SLUG_MIN_WORDS = 4
"""Words in the path's last segment from which it reads as a headline
("/marie-yovanovitch-net-worth-rumor/"), as articles have and section pages do not."""
_DOCS_HOST = re.compile(r"(^|\.)(docs|doc|developer|developers|wiki|learn|readthedocs)\.")
_FORUM_HOST = re.compile(
    r"(^|\.)(forum|forums|discuss|discussions|discourse|community|communities|talk|boards?"
    r"|bbs|lemmy)\.|^news\.ycombinator\.com$"
)
"""Hosts that are discussion boards: their pages are threads (Lemmy's instances and Hacker
News have no forum word in their paths: /post/123, /item?id=123)."""
_URL_SPLIT = re.compile(r"[/?&=]")
_FLARUM_PATH = re.compile(r"^/d/\d+(?:-[^/]*)?(?:/\d+)?/?$")
"""Flarum's discussion path (``/d/1287-offsite-backups/2``): its served page declares no type
and its posts carry no class that says so, so its path is the one sign of a thread, and a
decisive one (on wcxb-dev only Flarum's own forum, 0557, has such a path)."""


FORUM_MIN_POSTS = 3
"""Post-like blocks with an author or date each needed before the DOM says forum."""
CODE_MIN_BLOCKS = 2
"""``<pre>`` blocks from which code counts as documentation evidence."""
RECORDS_MIN = 6
"""Sibling records (same tag and class, each with a link and some text) that make a run."""
RECORD_MIN_CHARS = 20
"""Text a sibling needs to count as a record rather than a menu entry."""
LINKED_HEADINGS_MIN = 6
"""Headings that are links (teasers of other pages) from which a page reads as an index;
an article's related-posts block has three to six."""
RUNS_CHECKED = 4
"""Runs of siblings whose records are read, the longest first (reading each child's text is
the detection's dearest step; past the fourth-longest run the answer never changed on
wcxb-dev)."""


@dataclass(frozen=True)
class PageType:
    """The page's type, the weight of each type's evidence, and the evidence itself."""

    kind: str
    weights: dict[str, float] = field(default_factory=dict)
    evidence: tuple[str, ...] = ()
    model: bool = False
    """Whether the page-type model chose ``kind`` (else the rules did)."""

    @property
    def shown(self) -> bool:
        """Whether the page showed its type: any type but an article, or an article with
        ``MIN_WEIGHT`` of the rules' evidence (an article by default has not)."""
        if self.kind != DEFAULT_TYPE:
            return self.model or self.weights.get(self.kind, 0.0) >= MIN_WEIGHT
        return self.weights.get(self.kind, 0.0) >= MIN_WEIGHT

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "evidence": list(self.evidence)}


class _Evidence:
    def __init__(self) -> None:
        self.weights: dict[str, float] = {}
        self.notes: list[str] = []

    def add(self, kind: str, weight: float, note: str) -> None:
        self.weights[kind] = self.weights.get(kind, 0.0) + weight
        self.notes.append(f"{kind} +{weight:g}: {note}")


def detect_page_type(document: HtmlElement, url: str | None = None) -> PageType:
    """The page's type, read from the untouched page (before any rule removed anything): the
    page-type model's pick over the rules' weights and the page's features (``_pagemodel``),
    or the rules' alone when no model ships."""
    weights, notes, row = page_reading(document, url)
    model = page_model()
    if model is None:
        return rule_type(weights, notes)
    return decide(weights, notes, model.probabilities(row))


def decide(
    weights: dict[str, float], notes: tuple[str, ...], probabilities: npt.NDArray[np.float64]
) -> PageType:
    """The rules' pick when their evidence for a type other than article reaches
    ``DECISIVE_WEIGHT`` (unless the model is sure of another, ``MODEL_OVERRULES_AT``), else
    the model's (``probabilities`` in ``PAGE_TYPES`` order); the model's line closes the
    evidence either way."""
    ruled = rule_type(weights, notes)
    ranked = sorted(zip(PAGE_TYPES, probabilities, strict=True), key=lambda pair: -pair[1])
    heard = ", ".join(f"{name} {p:.2f}" for name, p in ranked[:3] if p >= MODEL_NOTE_MIN)
    decisive = ruled.kind != DEFAULT_TYPE and weights[ruled.kind] >= DECISIVE_WEIGHT
    if decisive and not _overruled(ruled.kind, ranked[0]):
        note = (
            f"{ruled.kind} rules: {weights[ruled.kind]:g} of evidence outweigh the model's {heard}"
        )
        return replace(ruled, evidence=(*notes, note))
    # A forum turns the comments rule off: the model may say forum only where the rules saw
    # some sign of one (posts with authors, a forum schema or URL), else its next pick.
    kind = next(k for k, _ in ranked if k != "forum" or weights.get("forum", 0.0) > 0)
    note = f"{kind} model: {heard}"
    if decisive:
        note += f" (sure enough to outweigh {weights[ruled.kind]:g} of {ruled.kind} rules)"
    return PageType(kind=kind, weights=weights, evidence=(*notes, note), model=True)


def _overruled(ruled: str, top: tuple[str, float]) -> bool:
    """Whether the model's ``top`` pick is sure enough to decide over the rules' ``ruled``."""
    kind, probability = top
    return kind != ruled and ruled != "forum" and probability >= MODEL_OVERRULES_AT


def rule_type(weights: dict[str, float], notes: tuple[str, ...]) -> PageType:
    """The rules' pick: the type with the most weight, an article below ``MIN_WEIGHT``."""
    best = max(PAGE_TYPES, key=lambda kind: weights.get(kind, 0.0))
    kind = best if weights.get(best, 0.0) >= MIN_WEIGHT else DEFAULT_TYPE
    return PageType(kind=kind, weights=weights, evidence=notes)


def page_reading(
    document: HtmlElement, url: str | None
) -> tuple[dict[str, float], tuple[str, ...], npt.NDArray[np.float64]]:
    """The rules' weight per type, their evidence, and the page's row of
    ``_pagefeatures.FEATURES`` (the rules' weights among them)."""
    evidence = _Evidence()
    counts = _count_dom(document)
    found, meta = _schema_counts(document, counts.itemtypes)
    _schema_evidence(Counter(found), meta, evidence)
    _url_evidence(url, evidence)
    for kind, weight in url_weights(url).items():
        meta[f"url:{kind}"] = str(weight)
    shape = _dom_evidence(counts, evidence)
    _discussion_evidence(document, counts, evidence)
    if template := body_template(document):
        evidence.add(template[0], DECISIVE_WEIGHT, f"the shop's {template[1]} template")
    weights = dict(evidence.weights)
    row = page_features(document, url, weights, found, meta, shape)
    return weights, tuple(evidence.notes), row


def _schema_name(value: str) -> str:
    # "http://schema.org/Product" and "schema:Product" name the same type as "Product".
    return value.rsplit("/", 1)[-1].rsplit(":", 1)[-1].strip()


def _node_types(node: dict[str, Any]) -> list[str]:
    value = node.get("@type")
    values = value if isinstance(value, list) else [value]
    return [_schema_name(v) for v in values if isinstance(v, str)]


def _schema_counts(
    document: HtmlElement, itemtypes: list[str]
) -> tuple[Counter[str], dict[str, str]]:
    """schema.org type names (JSON-LD and microdata) with their counts, and the page's
    ``<meta>`` properties and names (lower-cased) with ``datePublished`` and ``author`` when
    a JSON-LD node states them."""
    found: Counter[str] = Counter()
    meta: dict[str, str] = {}
    for node in json_ld_nodes(document):
        found.update(_node_types(node))
        for key in ("datePublished", "author"):
            if node.get(key):
                meta[key] = "json-ld"
    for itemtype in itemtypes:
        found.update(_schema_name(v) for v in itemtype.split())
    for element in document.iterfind(".//meta"):
        name = (element.get("property") or element.get("name") or "").strip().lower()
        if name == "generator" and name in meta:  # a site built by several tools names each
            meta[name] += ", " + (element.get("content") or "")
        elif name and name not in meta:
            meta[name] = element.get("content") or ""
    return found, meta


def _schema_evidence(found: Counter[str], meta: dict[str, str], evidence: _Evidence) -> None:
    if found["Product"] + found["ProductGroup"] >= RECORDS_MIN:
        evidence.add("collection", 3.0, f"{found['Product']} schema.org Product items")
        found["Product"] = found["ProductGroup"] = 0
    for name, count in found.items():
        if not count:
            continue  # the items above, read as a collection: not one product besides
        if name in SCHEMA_TYPES:
            kind, weight = SCHEMA_TYPES[name]
            evidence.add(kind, weight, f"schema.org {name}" + (f" x{count}" if count > 1 else ""))
    og_type = meta.get("og:type", "").strip().lower()
    if og_type in OG_TYPES:
        kind, weight = OG_TYPES[og_type]
        evidence.add(kind, weight, f"og:type {og_type}")
    if meta.get("article:published_time", "").strip():
        evidence.add("article", 1.5, "article:published_time")
    if made_by := DOCS_GENERATOR.search(meta.get("generator", "")):
        evidence.add("documentation", 3.0, f"made by {made_by.group(0)}")


def url_weights(url: str | None) -> dict[str, float]:
    """The URL's evidence alone, weight per type (read apart by the page-type model)."""
    evidence = _Evidence()
    _url_evidence(url, evidence)
    return evidence.weights


def _url_evidence(url: str | None, evidence: _Evidence) -> None:
    if not url:
        return
    parts = urlsplit(url)
    path = parts.path.lower()
    if _DOCS_HOST.search(parts.netloc.lower()):
        evidence.add("documentation", 2.0, f"host {parts.netloc}")
    if _FORUM_HOST.search(parts.netloc.lower()):
        evidence.add("forum", 2.0, f"host {parts.netloc}")
    if _FLARUM_PATH.match(path):
        evidence.add("forum", DECISIVE_WEIGHT, "a Flarum discussion path /d/")
    if _DATE_PATH.search(path):
        evidence.add("article", 1.5, "a date in the path")
    slug = next((segment for segment in reversed(path.split("/")) if segment), "")
    if len(_SLUG_WORD.findall(slug)) >= SLUG_MIN_WORDS:
        evidence.add("article", 1.0, "a headline for a slug")
    seen: set[str] = set()
    for segment in _URL_SPLIT.split(f"{path}?{parts.query.lower()}"):
        if segment in URL_SEGMENTS and segment not in seen:
            seen.add(segment)
            kind, weight = URL_SEGMENTS[segment]
            evidence.add(kind, weight, f"URL segment /{segment}/")


_CLASS_TOKEN = re.compile(
    r"(?<![a-z])(post|message|reply|answer|author|username|poster|byline|price"
    r"|facet|filter|sort|pagination|sidebar|toc)s?(?![a-z])"
)
_CLASS_KIND = {
    "post": "post", "message": "post", "reply": "post", "answer": "post",
    "author": "author", "username": "author", "poster": "author", "byline": "author",
    "price": "price", "facet": "filter", "filter": "filter", "sort": "filter",
    "pagination": "filter", "sidebar": "sidebar", "toc": "sidebar",
}  # fmt: skip
_CART_HINT = re.compile(r"add[\s_-]?to[\s_-]?(cart|bag|basket)|addtocart|buy[\s_-]?now")


@dataclass
class _DomCounts:
    """What one pass over the page counts: tags, class/id tokens of each kind, microdata."""

    kinds: Counter[str] = field(default_factory=Counter)
    pre: int = 0
    times: int = 0
    linked_headings: int = 0
    cart: int = 0
    itemtypes: list[str] = field(default_factory=list)
    crowded: list[HtmlElement] = field(default_factory=list)  # parents of many children
    commented: int = 0  # elements whose class or id says comment


def _count_dom(document: HtmlElement) -> _DomCounts:
    counts = _DomCounts()
    names: list[str] = []
    for element in document.iter(lxml.etree.Element):
        tag = element.tag
        if tag == "pre":
            counts.pre += 1
        elif tag == "time":
            counts.times += 1
        elif tag in _TEASER_HEADINGS and element.find(".//a") is not None:
            counts.linked_headings += 1
        elif tag == "button" and _is_cart(element):
            counts.cart += 1
        if len(element) >= RECORDS_MIN and tag not in _NOT_RECORDS:
            counts.crowded.append(element)
        named = False
        if (value := element.get("class")) is not None:
            names.append(value)
            named = "omment" in value  # comment, Comment: a substring test per name is cheap
        if (value := element.get("id")) is not None:
            names.append(value)
            named = named or "omment" in value
        counts.commented += named
        if (value := element.get("itemtype")) is not None:
            counts.itemtypes.append(value)
    # One search over every name at once: a regex per element cost five times the walk.
    joined = "\n".join(names).lower()
    counts.kinds.update(_CLASS_KIND[token] for token in _CLASS_TOKEN.findall(joined))
    counts.cart += len(_CART_HINT.findall(joined))
    return counts


_TEASER_HEADINGS = frozenset({"h2", "h3", "h4"})
_NOT_RECORDS = frozenset({"select", "head", "svg", "tr", "thead", "tbody", "table", "ol"})


def _is_cart(element: HtmlElement) -> bool:
    return bool(_CART_HINT.search(element.text_content()[:100].lower()))


def _record_run(crowded: list[HtmlElement]) -> tuple[int, int, HtmlElement | None]:
    """The longest run of sibling records (same tag and class, each with a link and
    ``RECORD_MIN_CHARS`` of text): its length, how many of them show a price, its parent."""
    runs = []
    for parent in crowded:
        key, size = Counter((child.tag, child.get("class")) for child in parent).most_common(1)[0]
        if size >= RECORDS_MIN and isinstance(key[0], str):
            runs.append((size, key, parent))
    runs.sort(key=lambda run: -run[0])
    best: tuple[int, int, HtmlElement | None] = (0, 0, None)
    for size, key, parent in runs[:RUNS_CHECKED]:
        if size <= best[0]:
            break
        records = priced = 0
        for child in parent:
            if (child.tag, child.get("class")) != key or child.find(".//a") is None:
                continue
            text = child.text_content()
            if len(text.strip()) >= RECORD_MIN_CHARS:
                records += 1
                priced += bool(_PRICE_TEXT.search(text))
        if records > best[0] and records >= RECORDS_MIN:
            best = (records, priced, parent)
    return best


def _discussion_evidence(document: HtmlElement, counts: _DomCounts, evidence: _Evidence) -> None:
    """A page whose comments are its content is a forum, decisively (``_discussion``)."""
    found = read_discussion(document, counts.commented)
    if found is not None and found.is_the_page:
        evidence.add(
            "forum",
            DECISIVE_WEIGHT,
            f"the page is its discussion: {found.share:.0%} of its words in "
            f"{found.sections} comment sections, {found.beside} beside them",
        )


_PRICE_TEXT = re.compile(r"[$€£¥]\s?\d|\d[\d.,]*\s?(€|eur|usd|zł|kr)\b", re.I)


def _dom_evidence(counts: _DomCounts, evidence: _Evidence) -> dict[str, float]:
    """The DOM's evidence, and the counts it was weighed on (``_pagefeatures.SHAPE``)."""
    kinds = counts.kinds
    if kinds["post"] >= FORUM_MIN_POSTS and (kinds["author"] + counts.times) >= FORUM_MIN_POSTS:
        # Never decisive alone: an article's comment section has posts with authors too.
        evidence.add("forum", 1.0, f"{kinds['post']} post-like blocks, {kinds['author']} authors")
    if counts.pre >= CODE_MIN_BLOCKS:
        evidence.add("documentation", 1.5, f"{counts.pre} code blocks")
    if counts.cart:
        if kinds["price"] >= RECORDS_MIN:
            evidence.add("collection", 1.0, f"{kinds['price']} prices with a cart")
        else:
            evidence.add("product", 2.0, f"add-to-cart ({kinds['price']} prices)")
    if kinds["filter"] >= 3:
        evidence.add("collection", 1.0, f"{kinds['filter']} filter/sort/pagination elements")
    if counts.linked_headings >= LINKED_HEADINGS_MIN:
        evidence.add("listing", 1.0, f"{counts.linked_headings} headings that are links")
    records, priced, _ = _record_run(counts.crowded)
    if records:
        if priced * 2 >= records:
            evidence.add("collection", 2.0, f"{records} sibling records, {priced} with prices")
        else:
            evidence.add(
                "listing", 1.0 if records < 2 * RECORDS_MIN else 1.5, f"{records} sibling records"
            )
    return {
        **{
            f"class_{kind}": float(kinds[kind])
            for kind in ("post", "author", "price", "filter", "sidebar")
        },
        "cart": float(counts.cart),
        "linked_headings": float(counts.linked_headings),
        "records": float(records),
        "priced_share": priced / records if records else 0.0,
    }
