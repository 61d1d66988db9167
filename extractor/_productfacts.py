"""A product page's description and specifications from its JSON-LD ``Product`` (or the
description its markup names), where the page's text lacks them.

Shops declare the product for search engines in JSON-LD: its ``description`` and, on many,
its specifications as ``additionalProperty`` name-value pairs. Some pages show that text only
once a script has run (a React shop served empty), or keep it in a tab the page never
renders; the reading then holds the title, the price and the buttons. When most of the
declared description's words are missing from the reading, it is added after the reading's
text, and the specifications likewise, as a table; the trace says so. A description the
reading already holds (the usual case) changes nothing.

Shops that mark their description in the page itself (microdata's ``itemprop="description"``)
name the block that is the product's text, and the stages can still miss it: Ergonomic Home's
chair page read its testimonials and not the 700 words under that name. That description is
taken where it is longer than the JSON-LD's.
"""

from __future__ import annotations

import html
import re
import urllib.parse
from dataclasses import dataclass
from typing import Any

import lxml.etree
import lxml.html
from lxml.html import HtmlElement

from ._buybox import SpecTable, read_price, read_short_description
from ._cascade import CascadeResult
from ._jsonld import json_ld_nodes, node_types
from ._metatags import clean
from ._postprocess import CleanContent, html_to_text
from ._rules import is_hidden
from ._text import folded_words
from ._types import TraceEntry

PRODUCT_TYPES = frozenset({"Product", "ProductGroup", "IndividualProduct", "ProductModel"})
MIN_DESCRIPTION_WORDS = 8
"""A shorter description is a tagline ("Handmade in Cornwall"): not worth a paragraph."""
MISSING_SHARE = 0.5
"""The description is added when at least this share of its words is not in the reading."""
MIN_MARKED_WORDS = 30
"""A marked description shorter than this is a card's line or a meta field, not the text."""
PHRASE_WORDS = 8
"""Opening words of a short description looked for in the reading."""
MAX_PROPERTIES = 60
"""Specifications read at most: a longer list is a catalogue's facets, not one product's."""


@dataclass(frozen=True)
class ProductFacts:
    """What the page says of its product, as text: its JSON-LD's description and
    specifications, the price and the short description its buy box prints, and its
    specification tables (``_buybox``)."""

    description: str = ""
    properties: tuple[tuple[str, str], ...] = ()
    price: str = ""
    short_description: str = ""
    tables: tuple[SpecTable, ...] = ()

    def summary(self) -> str | None:
        """The description's first paragraph, as a metadata field (capped like every field)."""
        return clean(self.description.split("\n", 1)[0])


def read_product_facts(document: HtmlElement) -> ProductFacts | None:
    """The first JSON-LD product node's description and specifications (read before the
    rules remove the page's scripts), the description the page's markup names where that is
    longer, and the price and short description its buy box prints; None when the page has
    none of these."""
    marked = _marked_description(document)
    price, short = read_price(document), read_short_description(document)
    for node in json_ld_nodes(document):
        if not node_types(node) & PRODUCT_TYPES:
            continue
        description = _description(node.get("description"))
        if len(marked.split()) > len(description.split()):
            description = marked
        facts = ProductFacts(description, _properties(node), price, short)
        if facts.description or facts.properties:
            return facts
    if marked or price or short:
        return ProductFacts(marked, price=price, short_description=short)
    return None


_MARKED_DESCRIPTIONS = lxml.etree.XPath("//*[@itemprop='description']")


def _marked_description(document: HtmlElement) -> str:
    """The text of the first ``itemprop="description"`` on show that describes a product (or
    an item of no declared type) and holds ``MIN_MARKED_WORDS``; "" when there is none."""
    for element in _MARKED_DESCRIPTIONS(document):
        item = next(
            (up.get("itemtype") for up in element.iterancestors() if up.get("itemtype")), ""
        )
        if item and "Product" not in item:
            continue  # a review's, an offer's or a video's description
        if any(is_hidden(shown) for shown in (element, *element.iterancestors())):
            continue
        text = _description(lxml.html.tostring(element, encoding="unicode", with_tail=False))
        if len(text.split()) >= MIN_MARKED_WORDS:
            return text
    return ""


def complete_product(result: CascadeResult, facts: ProductFacts) -> CascadeResult:
    """``result`` with the declared description and specifications it lacks added at its end."""
    held = set(folded_words(result.content.text))
    added: list[str] = []
    parts: list[str] = []
    description = folded_words(facts.description)
    if len(description) >= MIN_DESCRIPTION_WORDS and _missing(description, held):
        paragraphs = [line.strip() for line in facts.description.split("\n") if line.strip()]
        parts.extend(f"<p>{html.escape(paragraph)}</p>" for paragraph in paragraphs)
        added.append("description")
    values = folded_words(" ".join(value for _, value in facts.properties))
    if values and _missing(values, held):
        rows = "".join(
            f"<tr><th>{html.escape(name)}</th><td>{html.escape(value)}</td></tr>"
            for name, value in facts.properties
        )
        parts.append(f"<table><tbody>{rows}</tbody></table>")
        added.append("specifications")
        held.update(values)
    said = " ".join(folded_words(result.content.text))
    tables = [table for table in facts.tables if _rows_missing(table, said)]
    if tables:
        parts.extend(table.to_html() for table in tables)
        added.append("specification tables")
    content_html = "\n".join(part for part in (result.content.html, *parts) if part)
    lead = []
    if facts.price and not _holds_price(result.content.text, facts.price):
        lead.append(facts.price)
        added.append("price")
    if facts.short_description and not _holds_phrase(result.content.text, facts.short_description):
        lead.append(facts.short_description)
        added.append("short description")
    if lead:
        content_html = _under_heading(content_html, lead)
    if not added:
        return result
    entry = TraceEntry(
        kind="post",
        name="product-facts",
        outcome="changed",
        reason=f"the product's {', '.join(added)}, which the reading lacked, added",
    )
    content = CleanContent(html=content_html, text=html_to_text(content_html))
    return CascadeResult(result.stage, content, [*result.trace, entry])


_LEADING_HEADING = re.compile(r"\A\s*(?:<div[^>]*>\s*)?<h1[^>]*>.*?</h1>", re.DOTALL)
_DIGITS = re.compile(r"\d[\d.,]*\d|\d")


def _holds_price(text: str, price: str) -> bool:
    """Whether the reading prints the price's amount ("145.00" of "£145.00") anywhere."""
    amount = _DIGITS.search(price)
    return amount is not None and amount.group() in text


def _holds_phrase(text: str, phrase: str) -> bool:
    """Whether the reading holds ``phrase``'s opening words as written: a short description's
    words are most of them in the reading's other text ("48 mm steel conical burrs")."""
    opening = " ".join(folded_words(phrase)[:PHRASE_WORDS])
    return opening in " ".join(folded_words(text))


def _under_heading(content_html: str, lines: list[str]) -> str:
    """``lines`` as paragraphs under the reading's leading heading (the product's name, when
    the reading keeps it) or at its top: where the buy box shows them."""
    lead = "".join(f"<p>{html.escape(line)}</p>" for line in lines)
    heading = _LEADING_HEADING.match(content_html)
    end = heading.end() if heading else 0
    return content_html[:end] + lead + content_html[end:]


def _rows_missing(table: SpecTable, said: str) -> bool:
    """Whether the reading (its folded words, ``said``) lacks ``MISSING_SHARE`` of the
    table's values as written: a specification's words ("in", "cast iron", "5") are most
    of them somewhere in a product's description."""
    values = [" ".join(folded_words(value)) for _, value in table.rows]
    return sum(value not in said for value in values) >= MISSING_SHARE * len(values)


def _missing(words: list[str], held: set[str]) -> bool:
    return sum(word not in held for word in words) >= MISSING_SHARE * len(words)


_PERCENT_ENCODED = re.compile(r"%(?:20|2C|2E)", re.IGNORECASE)
"""An encoded space, comma or full stop: what a URL-encoded sentence holds."""


def _description(value: Any) -> str:
    """The description as plain text in paragraphs: shops put HTML in it, often escaped."""
    if isinstance(value, list):
        value = next((item for item in value if isinstance(item, str)), None)
    if not isinstance(value, str) or not value.strip():
        return ""
    if _PERCENT_ENCODED.search(value) and len(value.split()) == 1:
        # A theme that URL-encodes the description ("An%20elegant%20sofa%20..."): a string
        # of words with no space in it is never meant to be read so.
        value = urllib.parse.unquote(value)
    text = html.unescape(value)
    if "<" in text and ">" in text:
        try:
            fragment = lxml.html.fragment_fromstring(text, create_parent="div")
        # lxml gives up on a doctype alone ("Document is empty") and asserts on an empty
        # <html> ("too many bodies"): such a description says nothing, the page's text stands.
        except (lxml.etree.ParserError, ValueError, AssertionError):
            return ""
        text = html_to_text(lxml.html.tostring(fragment, encoding="unicode"))
    return "\n".join(line.strip() for line in text.splitlines() if line.strip())


def _properties(node: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """``additionalProperty``'s name-value pairs, as text."""
    value = node.get("additionalProperty")
    items = value if isinstance(value, list) else [value]
    pairs: list[tuple[str, str]] = []
    for item in items[:MAX_PROPERTIES]:
        if not isinstance(item, dict):
            continue
        name, found = item.get("name"), item.get("value")
        if isinstance(found, int | float) and not isinstance(found, bool):
            found = str(found)
        if isinstance(name, str) and isinstance(found, str) and name.strip() and found.strip():
            pairs.append((html.unescape(name.strip()), html.unescape(found.strip())))
    return tuple(pairs)
