"""Which leading heading the ``headline`` refinement takes out: the one that repeats or rewords
a title the page gives itself (<title>, og:title, JSON-LD), never one that says something else."""

from __future__ import annotations

from extractor import extract

BODY = "".join(
    f"<p>Paragraph {n} says how the rota planner respects each nurse's availability, the "
    "licence expiry dates and the local overtime law in every clinic it serves.</p>"
    for n in range(6)
)


def page(head: str, h1: str) -> str:
    return f"<html><head>{head}</head><body><main><h1>{h1}</h1>{BODY}</main></body></html>"


def test_an_h1_saying_something_else_than_every_title_stays_in_the_text() -> None:
    head = '<title>Pricing | Ferrule</title><meta property="og:title" content="Ferrule pricing">'
    extraction = extract(page(head, "Rotas your whole clinic can live with"))
    assert extraction.title == "Ferrule pricing"
    assert extraction.text.startswith("Rotas your whole clinic can live with")


def test_an_h1_repeating_og_title_leaves_the_text_when_the_title_tag_differs() -> None:
    head = '<title>Home | Ferrule</title><meta property="og:title" content="Rotas that work">'
    extraction = extract(page(head, "Rotas that work"))
    assert extraction.title == "Rotas that work"
    assert extraction.text.startswith("Paragraph 0")


def test_an_h1_rewording_the_title_leaves_the_text() -> None:
    extraction = extract(page("<title>Ferry cut: what changes | Courier</title>", "Ferry cut"))
    assert extraction.text.startswith("Paragraph 0")
