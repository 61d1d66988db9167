"""FAQ answers that a script shows and hides: a click away, so content.

A collapsed accordion's panels are named by their buttons' ``aria-controls``
(``collapsed_panel_ids``); the ``collapsed`` rule removes them on the types where a closed
panel is more often a note than content, but a panel whose button asks a question is an
FAQ's answer on any page (``answer_panel_ids``): a law firm's "How much does it cost to hire
your firm?" read as an article kept its questions and lost their answers.

Alpine.js and Vue accordions write each answer as ``<div x-show="open === 1" x-cloak>`` (or
``v-show``/``v-cloak``) after the question's button, with no ``aria-controls`` to tie the two
(``collapsed_panel_ids`` reads those). The cloak is hidden by the page's style sheet
until the script starts, and the script then hides every closed answer, so both the static
and the rendered page hid them: a Shopify collection's FAQ (wcxb-dev 0632) kept its three
questions and lost their answers. The same attributes open menus, modals and cart drawers
(of the 38,839 words in cloaked elements on wcxb-dev, 237 are in the ground truths), so an
answer is told by its toggle: a button just before it that asks a question.
"""

from __future__ import annotations

import lxml.etree
from lxml.html import HtmlElement

_SHOWN_BY = ("x-show", "v-show")
_CLICKED_BY = ("@click", "x-on:click", "v-on:click")
QUESTION_MIN_WORDS = 3
"""A question's fewest words ("Who counts as a user?"); "Menu?" is no FAQ."""


def is_toggled_answer(element: HtmlElement) -> bool:
    """Whether ``element`` is shown by a script (``x-show``, ``v-show``) and follows the button
    that toggles it, whose text asks a question."""
    if not any(element.get(name) is not None for name in _SHOWN_BY):
        return False
    toggle = element.getprevious()
    if toggle is None or not isinstance(toggle.tag, str):
        return False
    if not (
        toggle.tag == "button"
        or toggle.get("role") == "button"
        or any(toggle.get(name) is not None for name in _CLICKED_BY)
    ):
        return False
    return _asks(toggle.text_content())


_COLLAPSED_CONTROLS = lxml.etree.XPath(
    "//*[@aria-expanded='false'][@aria-controls]"
    "[not(ancestor-or-self::nav or ancestor-or-self::header or ancestor-or-self::footer"
    " or ancestor-or-self::*[@role='navigation' or @role='menu'])]"
)


def collapsed_panel_ids(root: HtmlElement) -> set[str]:
    """The ids of the panels that a collapsed accordion's button opens (``aria-expanded``
    false, ``aria-controls`` naming the panel): an FAQ's answers, a plan's details, a spec
    sheet's sections. They are a click away, and the renderer opens them (``settle.js``'s
    ``expand``); a menu's or a header's toggles are not counted: what they open is
    navigation."""
    return {name for control in _COLLAPSED_CONTROLS(root) for name in _controlled(control)}


def answer_panel_ids(root: HtmlElement) -> set[str]:
    """The ids of the collapsed panels whose button asks a question: an FAQ's answers."""
    return {
        name
        for control in _COLLAPSED_CONTROLS(root)
        if _asks(control.text_content())
        for name in _controlled(control)
    }


def _controlled(control: HtmlElement) -> list[str]:
    return str(control.get("aria-controls", "")).split()


def _asks(text: str) -> bool:
    return "?" in text and len(text.split()) >= QUESTION_MIN_WORDS
