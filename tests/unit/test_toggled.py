"""FAQ answers an Alpine.js or Vue accordion toggles (``extractor/_toggled.py``): kept, while
cloaked menus and drawers stay hidden."""

from __future__ import annotations

import lxml.html

from extractor._rules import PRECLEAN_RULES, apply_rules
from extractor._toggled import is_toggled_answer

ARTICLE = "<p>The council approved the new budget after a long debate on Tuesday night.</p>"


def faq_item(number: int, question: str, answer: str) -> str:
    return (
        f"<div class='faq_item'><button type='button' @click='active = {number}'>{question}"
        f"<span class='icon'>+</span></button><div class='faq_answer' x-show='active === "
        f"{number}' x-cloak><p>{answer}</p></div></div>"
    )


def text_after_rules(body: str) -> str:
    root = lxml.html.document_fromstring(f"<html><body>{body}{ARTICLE}</body></html>")
    apply_rules(root, PRECLEAN_RULES)
    return root.text_content()


def test_an_alpine_faqs_answers_stay() -> None:
    faq = (
        "<div x-data='{ active: null }'>"
        + faq_item(1, "Can I switch plans later?", "ANSWERTEXT Yes, we prorate the difference.")
        + "</div>"
    )
    text = text_after_rules(faq)
    assert "ANSWERTEXT" in text and "Can I switch plans later?" in text


def test_a_vue_answer_rendered_hidden_by_its_style_stays() -> None:
    html = (
        "<div><button @click='toggleFaq(0)'>How long should everyday shoes last?</button>"
        "<div v-show='openFaqs[0]' style='display: none;'>VUEANSWER Nine to twelve months."
        "</div></div>"
    )
    assert "VUEANSWER" in text_after_rules(html)


def test_cloaked_menus_and_drawers_stay_hidden() -> None:
    menu = (
        "<div x-data='{ open: false }'><button @click='open = !open'>Menu</button>"
        "<div x-show='open' x-cloak><a href='/a'>MENUTEXT Pricing</a></div></div>"
        "<div><button @click='cart = true'>Your basket</button><div x-show='cart' x-cloak>"
        "DRAWERTEXT Added to cart. Spend more to earn free shipping!</div></div>"
        "<div x-show='promo' x-cloak>PROMOTEXT Are you sure you want to leave?</div>"
    )
    text = text_after_rules(menu)
    assert "MENUTEXT" not in text and "DRAWERTEXT" not in text and "PROMOTEXT" not in text


def test_only_a_script_shown_element_after_its_question_is_an_answer() -> None:
    root = lxml.html.fromstring(
        "<div><button>Who counts as a user?</button><div x-cloak>a</div>"
        "<button>Who counts as a user?</button><div x-show='x'>b</div></div>"
    )
    assert [is_toggled_answer(child) for child in root] == [False, False, False, True]
