"""Sign-up boxes: a newsletter's or a mailing list's offer with its e-mail field.

Readers drop the form, but not the heading and the pitch around it ("Sign up for The Replay
newsletter", "The Replay is a weekly newsletter for dev and engineering leaders"), which are
the site's, not the page's. A box is one when it holds an e-mail field, names itself a
sign-up (``newsletter``, ``subscribe``, ``signup``, ``opt-in``, a job or price alert, a
mailing-list service's embed; in its class, its id or a form's action) and holds at most
``MAX_WORDS``; the outermost such box around the field goes.
"""

from __future__ import annotations

import re

from lxml.html import HtmlElement

from ._text import count_words

MAX_WORDS = 80
"""A box with more words holds more than an offer: an article that mentions its newsletter."""

_SIGNUP = re.compile(
    r"newsletter|subscri|sign-?up|opt-?in|mailing-?list|email-?(?:capture|form|signup)"
    r"|(?:job|price|deal|search|email)-?alert|save-?search|mc_embed|mailchimp|klaviyo"
    r"|convertkit|formkit|mailerlite|substack|mc4wp"
)
"""A box's names (class, id, and a form's ``action``) that say it signs the reader up: a
job board's "Save search" box posts to ``/alert/subscribe``."""
_STOP = frozenset({"html", "body", "main", "article"})


def _is_email_field(field: HtmlElement) -> bool:
    kind = (field.get("type") or "text").strip().lower()
    if kind == "email":
        return True
    named = f"{field.get('name', '')} {field.get('id', '')} {field.get('placeholder', '')}"
    return kind == "text" and ("email" in named.lower() or "e-mail" in named.lower())


def select_signups(root: HtmlElement) -> list[HtmlElement]:
    """The sign-up boxes of ``root``, each the outermost named box of at most ``MAX_WORDS``
    around an e-mail field."""
    found: list[HtmlElement] = []
    for field in root.iter("input"):
        if not _is_email_field(field):
            continue
        box = None
        for ancestor in field.iterancestors():
            if ancestor.tag in _STOP or count_words(ancestor.text_content()) > MAX_WORDS:
                break
            label = " ".join(ancestor.get(name, "") for name in ("class", "id", "action"))
            label = label.lower()
            if _SIGNUP.search(label):
                box = ancestor
        if box is not None:
            found.append(_with_pitch(box))
    return found


def _with_pitch(box: HtmlElement) -> HtmlElement:
    """The box, or the block around it when the box is the form alone: Mailchimp for
    WordPress names its ``<form class="mc4wp-form">`` and leaves the heading and the pitch
    ("Get the Friday Loaf", "One recipe in your inbox every Friday") in an unnamed group."""
    holder = box.getparent()
    if box.tag != "form" or holder is None or holder.tag in _STOP:
        return box
    if count_words(holder.text_content()) > MAX_WORDS or len(holder.findall(".//form")) > 1:
        return box
    return holder
