"""Data-entry forms: a contact form, a quote request, a comment form ("Name (Required)",
"Email", "Phone", "This field is hidden when viewing the form").

A reader sees the fields, not text: what the form says is its labels, and they are the site's
furniture on every page that carries the form. A form is one when it has at least
``MIN_ENTRY_FIELDS`` fields a visitor types into (text, e-mail, telephone, URL, a text area)
and at most ``MAX_WORDS``. A product's cart form (a quantity, a size picker) and a search box
have fewer typed fields; old Reddit's comments sit in forms whose only fields are hidden, so
they stay. A sign-in form (a password field) stays too: on a login wall it is what tells the
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
