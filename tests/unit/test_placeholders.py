"""Template filler never replaced (extractor/_placeholders.py, the ``placeholders`` rule)."""

from __future__ import annotations

import lxml.html

from extractor import extract
from extractor._options import ALL_RULES
from extractor._rules import apply_rules
from extractor._trafilatura import judge_document

FILLER = (
    "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor "
    "incididunt ut labore et dolore magna aliqua."
)
PROSE = "".join(
    f"<p>Paragraph {i}: the rankings weigh each insurer's growth, its underwriting and its "
    "return on equity over the last year, against every peer of its size.</p>"
    for i in range(8)
)


def page(body: str, title: str = "2025 Top P&C Insurance Company Rankings") -> str:
    return f"<html><head><title>{title}</title></head><body>{body}</body></html>"


def after_rules(html: str, rules: frozenset[str] = ALL_RULES) -> tuple[str, set[str]]:
    root = lxml.html.document_fromstring(html)
    names = {entry.name for entry in apply_rules(root, rules)}
    return root.text_content(), names


CARDS = (
    f"<article>{PROSE}<div class='card'><h3>Heading Line</h3><p>{FILLER}</p></div>"
    f"<div class='card'><img src='/card.png' alt=''> {FILLER}</div></article>"
)


def test_the_filler_of_unfilled_cards_goes() -> None:
    text, names = after_rules(page(CARDS))
    assert "Lorem" not in text and "Paragraph 7" in text and "placeholders" in names
    kept, _ = after_rules(page(CARDS), ALL_RULES - {"placeholders"})
    assert kept.count("Lorem ipsum") == 2


def test_a_themes_admin_hint_left_in_place_goes() -> None:
    # PrestaShop's reassurance block before a merchant fills it in
    hints = "".join(
        f"<li><span class='h6'>{name} policy (edit with the Customer Reassurance module)</span></li>"
        for name in ("Security", "Delivery", "Return")
    )
    body = f"<article>{PROSE}<div class='blockreassurance_product'><ul>{hints}</ul></div></article>"
    text, names = after_rules(page(body))
    assert "Customer Reassurance" not in text and "Paragraph 7" in text
    assert "placeholders" in names
    said = "<p>To change the banner, edit with the theme editor (edit with the Theme module) and save.</p>"
    kept, _ = after_rules(page(f"<article>{PROSE}{said}</article>"))
    assert "Theme module" in kept  # a sentence around the hint is not the hint


def test_a_paragraph_that_names_the_filler_in_passing_stays() -> None:
    passing = (
        "<p>Designers once filled their mock-ups with lorem ipsum; our templates now use the "
        "client's own copy from the first draft, so the review sees real words.</p>"
    )
    text, names = after_rules(page(PROSE + passing))
    assert "lorem ipsum; our templates" in text and "placeholders" not in names


def test_a_page_about_the_filler_keeps_it() -> None:
    about = page(f"{PROSE}<blockquote><p>{FILLER}</p></blockquote>", "What is Lorem Ipsum?")
    text, _ = after_rules(about)
    assert FILLER in text


def test_neither_the_reading_nor_trafilaturas_page_holds_the_filler() -> None:
    extraction = extract(page(CARDS).encode(), url="https://rankings.example/2025")
    assert "Paragraph 7" in extraction.text and "Lorem" not in extraction.text
    assert "Lorem" not in judge_document(page(CARDS), ALL_RULES).text_content()


def test_a_client_side_templates_unfilled_bindings_go_and_code_keeps_its_own() -> None:
    # A Vue thread served as written: each post's error line is a binding no script filled.
    posts = "".join(
        f"<div class='post'><p>Post {i}: the pump seal failed after a week of use.</p>"
        f"<div class='error'>{{{{ DiscussionBoard.errors[{1170 + i}].message }}}}</div></div>"
        for i in range(3)
    )
    example = "<pre><code>&lt;h1&gt;Hello {{ person }}!&lt;/h1&gt;\n{{ form }}</code></pre>"
    prose = "<p>Django unpacks the fields from that {{ form }} into the page's markup.</p>"
    text, names = after_rules(page(f"<article>{PROSE}{posts}{example}{prose}</article>"))
    assert "DiscussionBoard" not in text and "Post 2: the pump seal" in text
    assert "Hello {{ person }}!" in text and text.count("{{ form }}") == 2  # code and prose
    assert "that {{ form }} into" in text  # a sentence around a binding is not a binding
    assert "placeholders" in names
    kept, _ = after_rules(page(f"<article>{PROSE}{posts}</article>"), ALL_RULES - {"placeholders"})
    assert kept.count("DiscussionBoard") == 3
