"""A product page's price and specification tables, read from its markup.

The stages read a product page's description well and its buy box badly: the price sits in
a short line beside the cart's form and buttons, which every stage's scorer rates as
boilerplate, and Amazon's is printed twice, once for screen readers and once hidden from
them, so the rules remove both copies. Specification tables ("Additional information",
"Technical Details") sit in a tab or a column of their own beside the description, where a
reading built around the description's paragraphs leaves them. A shopper reads both; the
reading gets them back here, and the short description printed beside the price with them.

The price is the first price-named element shortly after the page's ``<h1>``, read from the
untouched page; a specification table is a table (or ``<dl>``) of label-value rows named as
specifications, read from the cleaned page (where reviews and other products' shelves are
gone already).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

import lxml.etree
from lxml.html import HtmlElement

from ._jsonld import json_ld_nodes
from ._text import HEADING_TAGS, folded_words, words

_CURRENCY = (
    r"(?:[$£€¥₹₩₽¢]|\b(?:EUR|USD|GBP|CAD|AUD|NZD|CHF|SEK|NOK|DKK|PLN|CZK|HUF|JPY|INR|ZAR"
    r"|BRL|MXN|kr|zł|Kč|Ft|lei|Rs)\b)"
)
_AMOUNT = r"\d{1,3}(?:[,. \u00a0\u202f]\d{3})*(?:[.,]\d{1,2})?"
PRICE = re.compile(
    rf"(?:[A-Z]{{1,3}} ?)?(?:{_CURRENCY} ?)?{_AMOUNT}(?: ?{_CURRENCY})?(?: ?[A-Z]{{3}})?"
)
"""A price as shops print it: "£145.00", "US $189.99", "1.299,00 €", "$25.00 USD"."""
_HAS_CURRENCY = re.compile(_CURRENCY)
MAX_WORDS_TO_PRICE = 150
"""Words read after the ``<h1>`` before giving up on a price: ratings, a subtitle, a stock
line and a brand come between. The search also ends at the next heading: a price under it
is a shelf's or a bundle's."""
NOT_THE_PRICE = (
    *("old", "was", "compare", "strike", "basis", "saving", "per-unit", "unit-price"),
    *("rrp", "msrp", "retail", "regular-price", "list-price", "original", "before"),
)
"""Names of the struck-through, list, regular and unit prices printed beside the price paid
(Shopify's current price is ``price-item--regular``, so a bare "regular" is not one)."""
MAX_PRICES = 4
"""Printed prices read before choosing among them."""
_SKIPPED = frozenset({"del", "s", "strike", "script", "style", "template", "option", "select"})
_OUTSIDE = frozenset({"header", "nav", "footer", "aside"})

SHORT_DESCRIPTION_NAMES = ("short-description", "short_description", "shortdescription")
MIN_SHORT_WORDS = 5
"""A shorter one is a tagline or a model number."""

SPEC_NAMES = (
    "spec",
    "attribute",
    "additional",
    "technical",
    "detail",
    "dimension",
    "propert",
    "characteristic",
    "information",
    "feature",
    "parameter",
)
"""Words in a table's (or its wrapper's, or its heading's) name that make it a product's
specifications: WooCommerce's ``shop_attributes``, Magento's ``additional-attributes``,
Amazon's ``productDetails_techSpec``, Shopify themes' "Specifications" tabs."""
MIN_ROWS = 2
MAX_ROWS = 60
"""A longer table is a catalogue's or a size chart's, not one product's specifications."""
MAX_LABEL_WORDS = 6
MAX_VALUE_WORDS = 40
PAIR_SHARE = 0.8
"""Share of a table's rows that must be one label and one value."""
NAME_DEPTH = 4
"""Wrappers above a table whose names count as its own (a tab's panel, a section)."""


@dataclass(frozen=True)
class SpecTable:
    """A specification table: its heading (or "") and its label-value rows, as text."""

    heading: str
    rows: tuple[tuple[str, str], ...]

    def values(self) -> str:
        """The values' text, to tell whether a reading holds the table already."""
        return " ".join(value for _, value in self.rows)

    def to_html(self) -> str:
        """The table as clean markup, under its heading."""
        cells = "".join(
            f"<tr><th>{html.escape(label)}</th><td>{html.escape(value)}</td></tr>"
            for label, value in self.rows
        )
        heading = f"<h2>{html.escape(self.heading)}</h2>" if self.heading else ""
        return f"{heading}<table><tbody>{cells}</tbody></table>"


def read_price(document: HtmlElement) -> str:
    """The price printed shortly after the page's ``<h1>``, as printed; "" when none is.
    Where the page declares its price (JSON-LD, ``product:price:amount``, microdata), the
    first printed price of that amount: a list or regular price printed first is not it."""
    candidates = _printed_prices(document)
    if not candidates:
        return ""
    declared = _declared_amounts(document)
    matching = [text for text in candidates if _amount(text) in declared]
    return matching[0] if matching else candidates[0]


def _printed_prices(document: HtmlElement) -> list[str]:
    """The price-named prices after the ``<h1>``, up to the next heading that does not repeat
    the product's name or ``MAX_WORDS_TO_PRICE`` words."""
    heading = _product_heading(document)
    if heading is None:
        return []
    name = set(folded_words(heading.text_content()))
    budget, found = MAX_WORDS_TO_PRICE, []
    for element in _after(heading):
        if not isinstance(element.tag, str) or _skipped(element):
            continue
        if element.tag in HEADING_TAGS and not (
            _names_again(element, name) or _is_brand_line(element)
        ):
            break  # the heading's section ends: a later price is another product's
        if _price_named(element) or _price_named(element.getparent()):
            text = _squash(element.text_content())
            if len(text) <= 32 and PRICE.fullmatch(text) and _HAS_CURRENCY.search(text):
                found.append(text)
                if len(found) == MAX_PRICES:
                    break
        budget -= len(words(element.text or ""))
        if budget <= 0:
            break
    return found


_DECLARED = lxml.etree.XPath(
    "//meta[@property='product:price:amount' or @property='og:price:amount']/@content"
    " | //*[@itemprop='price']/@content"
)


def _declared_amounts(document: HtmlElement) -> set[float]:
    """The prices the page declares for search engines, as amounts."""
    values = [str(value) for value in _DECLARED(document)]
    for node in json_ld_nodes(document):
        offers = node.get("offers")
        for offer in offers if isinstance(offers, list) else [offers]:
            if isinstance(offer, dict):
                values.extend(str(offer.get(key)) for key in ("price", "lowPrice") if key in offer)
    return {amount for value in values if (amount := _amount(value)) is not None}


_SEPARATED = re.compile(r"\d[\d.,\s\u00a0\u202f]*")


def _amount(text: str) -> float | None:
    """The number in a printed or declared price: "1.299,00 €" and "1,299.00" are 1299.0."""
    found = _SEPARATED.search(text)
    if found is None:
        return None
    digits = re.sub(r"[\s\u00a0\u202f]", "", found.group()).rstrip(".,")
    last = max(digits.rfind("."), digits.rfind(","))
    if last != -1 and len(digits) - last - 1 in (1, 2):  # a decimal separator
        whole, cents = re.sub(r"[.,]", "", digits[:last]), digits[last + 1 :]
        digits = f"{whole}.{cents}"
    else:
        digits = re.sub(r"[.,]", "", digits)
    try:
        return round(float(digits), 2)
    except ValueError:
        return None


def read_short_description(document: HtmlElement) -> str:
    """The text of the short description shops print beside the price (WooCommerce's
    ``woocommerce-product-details__short-description``), or ""."""
    for element in document.iter():
        if isinstance(element.tag, str) and not _skipped(element):
            labels = _labels(element)
            if any(name in labels for name in SHORT_DESCRIPTION_NAMES):
                text = _squash(element.text_content())
                if len(words(text)) >= MIN_SHORT_WORDS:
                    return text
    return ""


def read_spec_tables(document: HtmlElement) -> tuple[SpecTable, ...]:
    """The page's specification tables, in the page's order."""
    tables: list[SpecTable] = []
    for element in document.iter("table", "dl"):
        rows = _pairs(element)
        if rows is None or not _spec_named(element):
            continue
        tables.append(SpecTable(_heading_before(element), rows))
    return tuple(tables)


def _squash(text: str) -> str:
    return " ".join(text.split())


def _product_heading(document: HtmlElement) -> HtmlElement | None:
    """The first ``<h1>`` outside the site's header, menus and footer."""
    for heading in document.iter("h1"):
        if not any(ancestor.tag in _OUTSIDE for ancestor in heading.iterancestors()):
            if _squash(heading.text_content()):
                return heading
    return None


def _after(heading: HtmlElement):  # type: ignore[no-untyped-def]
    """The elements after ``heading`` (not inside it), in document order."""
    node: HtmlElement | None = heading
    while node is not None:
        for sibling in node.itersiblings():
            yield from sibling.iter()
        node = node.getparent()


def _names_again(heading: HtmlElement, name: set[str]) -> bool:
    """Whether a heading is empty or repeats the product's name (a theme's second title)."""
    said = folded_words(heading.text_content())
    return sum(word in name for word in said) >= len(said) / 2


BRAND_MAX_WORDS = 4


def _is_brand_line(heading: HtmlElement) -> bool:
    """Whether a heading after the name is the product's brand (BigCommerce's
    ``<h2 class="productView-brand"><a>Hearth &amp; Hound</a></h2>``), not a new section."""
    text = _squash(heading.text_content())
    if not 0 < len(words(text)) <= BRAND_MAX_WORDS:
        return False
    links = heading.findall(".//a")
    linked = len(links) == 1 and _squash(links[0].text_content()) == text
    return linked or "brand" in _labels(heading)


def _skipped(element: HtmlElement) -> bool:
    if element.tag in _SKIPPED or element.get("hidden") is not None:
        return True
    style = element.get("style", "").replace(" ", "").lower()
    return "display:none" in style or any(
        ancestor.tag in _SKIPPED for ancestor in element.iterancestors()
    )


def _labels(element: HtmlElement | None) -> str:
    if element is None or not isinstance(element.tag, str):
        return ""
    return " ".join(
        element.get(name, "") for name in ("class", "id", "itemprop", "data-testid")
    ).lower()


def _price_named(element: HtmlElement | None) -> bool:
    labels = _labels(element)
    return "price" in labels and not any(word in labels for word in NOT_THE_PRICE)


def _pairs(element: HtmlElement) -> tuple[tuple[str, str], ...] | None:
    """A table's or list's label-value rows, or None when it is not such a table."""
    if element.tag == "dl":
        rows, pairs = _term_pairs(element)
    else:
        if element.find(".//table") is not None:
            return None  # a layout table of tables
        found = element.findall(".//tr")
        rows = len(found)
        cells = [
            [_squash(cell.text_content()) for cell in row if cell.tag in ("th", "td")]
            for row in found
        ]
        pairs = [(row[0], row[1]) for row in cells if len(row) == 2]
    pairs = [pair for pair in pairs if _is_pair(*pair)]
    if not MIN_ROWS <= len(pairs) <= MAX_ROWS or len(pairs) < PAIR_SHARE * rows:
        return None
    return tuple(pairs)


def _term_pairs(terms: HtmlElement) -> tuple[int, list[tuple[str, str]]]:
    """A ``<dl>``'s rows and its terms each with the description after it, in order: a term
    the rules removed (BigCommerce's hidden "UPC:") leaves its empty value without a pair."""
    rows, pairs, label = 0, [], None
    for child in terms.iter("dt", "dd"):
        text = _squash(child.text_content())
        if child.tag == "dt":
            rows, label = rows + 1, text
        elif label is not None:
            pairs.append((label, text))
            label = None
        elif text:
            rows += 1  # a description with no term of its own
    return rows, pairs


def _is_pair(label: str, value: str) -> bool:
    return 0 < len(words(label)) <= MAX_LABEL_WORDS and 0 < len(words(value)) <= MAX_VALUE_WORDS


def _spec_named(element: HtmlElement) -> bool:
    names = [
        _labels(element),
        element.get("aria-label", "").lower(),
        _heading_before(element).lower(),
    ]
    names.extend(
        _labels(ancestor)
        for _, ancestor in zip(range(NAME_DEPTH), element.iterancestors(), strict=False)
    )
    joined = " ".join(names)
    if element.tag == "dl" and "info" in names[0]:
        return True  # a list of terms named "info" (BigCommerce's productView-info)
    return any(word in joined for word in SPEC_NAMES)


def _heading_before(element: HtmlElement) -> str:
    """The heading just before ``element`` or before its wrapper (two levels up), or ""."""
    node: HtmlElement | None = element
    for _ in range(3):
        if node is None:
            return ""
        previous = node.getprevious()
        while previous is not None and not isinstance(previous.tag, str):
            previous = previous.getprevious()
        if previous is not None:
            return _squash(previous.text_content()) if previous.tag in HEADING_TAGS else ""
        node = node.getparent()
    return ""
