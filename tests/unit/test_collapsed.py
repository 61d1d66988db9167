"""Collapsed accordion panels (the ``collapsed`` rule): an FAQ's answers on a service page are
content a click away; an article's author and licence notes are not."""

from __future__ import annotations

import json

import lxml.html
import pytest

from extractor import extract
from extractor._pagetype import PageType
from extractor._panels import open_collapsed_panels
from extractor._rules import HIDDEN_MARK, PRECLEAN_RULES, apply_rules, is_hidden
from extractor._typed import typed_rules

QUESTIONS = [
    (
        "Can I use my own vet?",
        "ANSWERONE Any licensed veterinarian in the country will do, and you file the "
        "claim online after the visit with the invoice attached.",
    ),
    (
        "How soon can I use my plan?",
        "ANSWERTWO Accidents are covered from the first day, illnesses after a waiting "
        "period of fifteen days, and wellness care right away.",
    ),
]


def faq(hiding: str = 'aria-hidden="true"') -> str:
    """The FAQ, each answer's panel hidden by ``hiding`` until its button is clicked."""
    return "".join(
        f'<div class="faq-item"><h3><button aria-expanded="false" aria-controls="answer-{n}">'
        f"{question}</button></h3>"
        f'<div id="answer-{n}" role="region" {hiding}><p>{answer}</p></div></div>'
        for n, (question, answer) in enumerate(QUESTIONS)
    )


SERVICE = (
    "<h1>Pet insurance plans</h1>"
    "<p>Costly veterinary care should not stand between your pet and the care it needs. Our "
    "plans cover accidents and illnesses, and routine care can be added for a small fee.</p>"
    "<h2>Plans</h2><ul><li>Accident only: from $9 a month</li>"
    "<li>Accident and illness: from $25 a month</li><li>Wellness add-on: $15 a month</li></ul>"
    "<p>Every plan has one annual deductible, chosen when you sign up, and pays back up to "
    "ninety percent of each eligible bill once the deductible is met.</p>"
    "<h2>Frequently asked questions</h2>"
)
HIDINGS = ['aria-hidden="true"', "hidden", 'style="display: none;"', 'style="visibility:hidden"']
"""The markup an accordion hides its panels with: readability-lxml drops the second and third,
trafilatura the first and third."""


def service_page(hiding: str = HIDINGS[0]) -> str:
    ld = {"@context": "https://schema.org", "@type": "Service", "name": "Pet insurance"}
    head = f'<script type="application/ld+json">{json.dumps(ld)}</script>'
    return (
        f"<html><head><title>Pet insurance plans</title>{head}</head>"
        f"<body><main>{SERVICE}{faq(hiding)}</main></body></html>"
    )


def test_the_rule_is_off_on_service_and_product_pages_only() -> None:
    for kind in ("service", "product"):
        assert "collapsed" not in typed_rules(PageType(kind), PRECLEAN_RULES)
    for kind in ("article", "forum", "listing", "collection", "documentation"):
        assert "collapsed" in typed_rules(PageType(kind), PRECLEAN_RULES)


@pytest.mark.parametrize("hiding", HIDINGS)
def test_a_service_page_keeps_its_faq_answers(hiding: str) -> None:
    extraction = extract(service_page(hiding), url="https://insure.example.com/services/pet")
    assert extraction.page_type == "service"
    assert "ANSWERONE" in extraction.text and "ANSWERTWO" in extraction.text
    entries = [entry for entry in extraction.trace if entry.name == "collapsed"]
    assert [(entry.outcome, entry.count) for entry in entries] == [("changed", 2)]


def test_opening_shows_the_panels_and_leaves_the_rest() -> None:
    page = lxml.html.fromstring(
        "<div><button aria-expanded='false' aria-controls='a b'>More</button>"
        "<div id='a' hidden aria-hidden='true'>A</div>"
        "<div id='b' style='color: red; display:none !important;'>B</div>"
        f"<div id='c' hidden>C</div><div id='d' {HIDDEN_MARK}='display'>D</div>"
        "<nav><button aria-expanded='false' aria-controls='menu'>Menu</button></nav>"
        "<ul id='menu' hidden><li>Home</li></ul></div>"
    )
    entry = open_collapsed_panels(page)
    assert entry is not None and entry.count == 2
    shown = {el.get("id"): el for el in page.iter() if el.get("id")}
    assert not is_hidden(shown["a"]) and not is_hidden(shown["b"])
    assert shown["b"].get("style") == "color: red;"
    assert is_hidden(shown["c"]) and is_hidden(shown["menu"])  # no button opens them
    assert open_collapsed_panels(lxml.html.fromstring("<div><p id='x' hidden>x</p></div>")) is None


def test_a_panel_the_renderer_saw_hidden_after_clicking_stays_hidden() -> None:
    page = lxml.html.fromstring(
        "<div><button aria-expanded='false' aria-controls='a'>More</button>"
        f"<div id='a' hidden {HIDDEN_MARK}='display'>A</div></div>"
    )
    assert open_collapsed_panels(page) is None and is_hidden(page.get_element_by_id("a"))


def test_an_article_reads_without_its_collapsed_notes() -> None:
    paragraph = (
        "<p>The council approved the new budget after a long debate on Tuesday night, with "
        "money for the libraries, the parks and the repair of the old bridge over the river.</p>"
    )
    html = (
        "<html><head><title>Budget approved</title>"
        '<meta property="og:type" content="article"></head><body><article>'
        f"<h1>Budget approved</h1>{paragraph * 6}"
        '<button aria-expanded="false" aria-controls="notes">Author information</button>'
        '<div id="notes" hidden><p>NOTESTEXT Department of Records, City Hall.</p></div>'
        "</article></body></html>"
    )
    extraction = extract(html, url="https://news.example.com/2026/12/budget-approved")
    assert extraction.page_type == "article"
    assert "council approved" in extraction.text and "NOTESTEXT" not in extraction.text
    assert "collapsed" in {entry.name for entry in extraction.trace}


@pytest.mark.parametrize("hiding", HIDINGS)
def test_an_articles_faq_keeps_its_answers_and_loses_its_notes(hiding: str) -> None:
    paragraph = (
        "<p>After a crash, write down what you remember, photograph the cars and the road, and "
        "see a doctor within a few days even when nothing seems to hurt yet.</p>"
    )
    html = (
        "<html><head><title>What to do after a car accident</title>"
        '<meta property="og:type" content="article"></head><body><article>'
        f"<h1>What to do after a car accident</h1>{paragraph * 6}<h2>FAQs</h2>{faq(hiding)}"
        '<button aria-expanded="false" aria-controls="notes">Author information</button>'
        '<div id="notes" hidden><p>NOTESTEXT Department of Records, City Hall.</p></div>'
        "</article></body></html>"
    )
    extraction = extract(html, url="https://firm.example.com/2026/12/after-a-car-accident")
    assert extraction.page_type == "article"
    assert "ANSWERONE" in extraction.text and "ANSWERTWO" in extraction.text
    assert "NOTESTEXT" not in extraction.text


def test_an_answer_the_renderer_saw_hidden_after_clicking_stays_out() -> None:
    page = lxml.html.document_fromstring(
        "<html><body><p>Prose of the page.</p><button aria-expanded='false' aria-controls='a'>"
        f"How soon can I use my plan?</button><div id='a' hidden {HIDDEN_MARK}='display'>"
        "<p>ANSWERTEXT</p></div></body></html>"
    )
    apply_rules(page, PRECLEAN_RULES)
    assert "ANSWERTEXT" not in page.text_content()
