"""Data-entry forms: a contact form, a quote request, a comment form ("Name (Required)",
"Email", "Phone", "This field is hidden when viewing the form").

A reader sees the fields, not text: what the form says is its labels, and they are the site's
furniture on every page that carries the form. A form is one when it has at least
``MIN_ENTRY_FIELDS`` fields a visitor types into (text, e-mail, telephone, URL, a text area)
and at most ``MAX_WORDS``. A product's cart form (a quantity, a size picker) and a search box
have fewer typed fields; old Reddit's comments sit in forms whose only fields are hidden, so
they stay, and ``unwrap_text_forms`` makes such a form a ``<div>`` for the readings. A sign-in form (a password field) stays too: on a login wall it is what tells the
no-content check (``_emptiness``) what the page is.
"""

from __future__ import annotations

from lxml.html import HtmlElement

from ._text import count_words

MIN_ENTRY_FIELDS = 2
"""Typed fields a form needs: one is a search box or a single sign-in step."""
MAX_WORDS = 150
"""A form with more words carries text of its own (a long consent notice, a post in a form)."""

_ENTRY_TYPES = frozenset({"text", "email", "tel", "url"})


def _is_entry_field(field: HtmlElement) -> bool:
    if field.tag == "textarea":
        return True
    return (field.get("type") or "text").strip().lower() in _ENTRY_TYPES


def _is_password(field: HtmlElement) -> bool:
    return (field.get("type") or "").strip().lower() == "password"


def select_forms(root: HtmlElement) -> list[HtmlElement]:
    """The data-entry forms of ``root``."""
    found: list[HtmlElement] = []
    for form in root.iter("form"):
        if any(_is_password(field) for field in form.iter("input")):
            continue
        fields = sum(1 for field in form.iter("input", "textarea") if _is_entry_field(field))
        if fields >= MIN_ENTRY_FIELDS and count_words(form.text_content()) <= MAX_WORDS:
            found.append(form)
    return found


_WRAPPER_FIELDS = frozenset({"hidden"})
PROSE_SHARE = 0.8
"""Share of a fieldless form's words in paragraphs, list items and quotes for it to be a
post's wrapper: a shop's compare form around its product cards holds names and prices, and
a forum's moderation form around the whole thread (Invision's ``multimodComment``) holds
the posts' headers, names and dates too."""
_PROSE = ("p", "li", "blockquote", "pre")
_NOT_ONE_POST = (".//time", ".//article", ".//textarea", ".//select", ".//button")


def unwrap_text_forms(root: HtmlElement) -> int:
    """Turn each form that is one post's wrapper into a ``<div>``, and return how many: old
    Reddit prints every post and comment inside a form a visitor cannot fill in (its only
    field a hidden ``thing_id`` for the reply button), and trafilatura's cleaning drops
    every ``<form>`` whole. Such a form has only hidden fields, no date or article of its own
    (``_NOT_ONE_POST``) and ``PROSE_SHARE`` of its words in prose."""
    unwrapped = 0
    for form in list(root.iter("form")):
        if any(form.find(path) is not None for path in _NOT_ONE_POST):
            continue
        types = {(field.get("type") or "text").strip().lower() for field in form.iter("input")}
        words = count_words(form.text_content())
        if not types <= _WRAPPER_FIELDS or words == 0:
            continue
        prose = sum(count_words(block.text_content()) for block in _outer_prose(form))
        if prose >= PROSE_SHARE * words:
            form.tag = "div"
            for name in ("action", "method", "onsubmit", "enctype"):
                form.attrib.pop(name, None)
            unwrapped += 1
    return unwrapped


def _outer_prose(form: HtmlElement) -> list[HtmlElement]:
    """The prose blocks in ``form`` that no other prose block in it holds."""
    found: list[HtmlElement] = []
    for block in form.iter(*_PROSE):
        inside = block.getparent()
        while inside is not None and inside is not form and inside.tag not in _PROSE:
            inside = inside.getparent()
        if inside is form or inside is None:
            found.append(block)
    return found
