"""The page template a shop platform names on ``<body>``: evidence of the page's type
(``_pagetype``).

WooCommerce, Magento, Shopify's themes and PrestaShop write the template that built the page
into the ``<body>``'s class or id, the same on every shop: a product page's
(``single-product``, ``catalog-product-view``, ``template-product``, ``id="product"``) and a
category's (``tax-product_cat``, ``catalog-category-view``, ``template-collection``,
``id="category"``). Where a page's shape is ambiguous it settles it: a Magento category of
five products is not a product page for its five prices, and a WooCommerce product with a
shelf of related products is not a category. On wcxb-dev 31 pages name one; four were typed
against it (a product typed collection, two PrestaShop categories typed product for their
JSON-LD ``Product``, a WooCommerce category typed listing).
"""

from __future__ import annotations

from lxml.html import HtmlElement

TEMPLATE_CLASSES: dict[str, str] = {
    "single-product": "product",  # WooCommerce
    "catalog-product-view": "product",  # Magento
    "template-product": "product",  # Shopify themes
    "tax-product_cat": "collection",  # WooCommerce's product category
    "post-type-archive-product": "collection",  # WooCommerce's shop page
    "catalog-category-view": "collection",  # Magento
    "template-collection": "collection",  # Shopify themes
}
"""``<body>`` class names and the page type of the template they name."""

TEMPLATE_IDS: dict[str, str] = {"product": "product", "category": "collection"}
"""PrestaShop's ``<body id>``, with the class ``page-product`` or ``page-category`` beside it."""


def body_template(document: HtmlElement) -> tuple[str, str] | None:
    """The page type and the name of the shop template ``document``'s ``<body>`` names, or
    None; a body naming templates of two types names none."""
    body = document.find("body")
    if body is None:
        return None
    classes = (body.get("class") or "").lower().split()
    named = {(TEMPLATE_CLASSES[name], name) for name in classes if name in TEMPLATE_CLASSES}
    body_id = (body.get("id") or "").lower()
    if body_id in TEMPLATE_IDS and f"page-{body_id}" in classes:
        named.add((TEMPLATE_IDS[body_id], f"id={body_id}"))
    kinds = {kind for kind, _ in named}
    if len(kinds) != 1:
        return None
    return min(named)
