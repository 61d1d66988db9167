"""FAQ answers that a script shows and hides: a click away, so content.

Alpine.js and Vue accordions write each answer as ``<div x-show="open === 1" x-cloak>`` (or
``v-show``/``v-cloak``) after the question's button, with no ``aria-controls`` to tie the two
(``_rules.collapsed_panel_ids`` reads those). The cloak is hidden by the page's style sheet
until the script starts, and the script then hides every closed answer, so both the static
and the rendered page hid them: a Shopify collection's FAQ (wcxb-dev 0632) kept its three
questions and lost their answers. The same attributes open menus, modals and cart drawers
(of the 38,839 words in cloaked elements on wcxb-dev, 237 are in the ground truths), so an
answer is told by its toggle: a button just before it that asks a question.
"""

from __future__ import annotations

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
    question = toggle.text_content()
    return "?" in question and len(question.split()) >= QUESTION_MIN_WORDS
