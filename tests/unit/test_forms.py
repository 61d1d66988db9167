"""Data-entry forms (the ``forms`` rule): a contact form's fields and labels are not content."""

from __future__ import annotations

import lxml.html

from extractor import extract
from extractor._forms import select_forms
from extractor._options import ALL_RULES
from extractor._trafilatura import judge_document

STORY = "".join(
    f"<p>Paragraph {n} tells how the studio rebuilt a bakery's website, what the owners asked "
    "for, and how many more orders came in over the first winter.</p>"
    for n in range(8)
)
CONTACT = (
    '<form class="gform"><label>Name (Required)</label><input type="text" name="name">'
    '<label>Email (Required)</label><input type="email" name="email">'
    '<div class="gfield_visibility_hidden"><span>This field is hidden when viewing the form'
    '</span><input type="text" name="gclid"></div><label>Message</label><textarea></textarea>'
    "<button>Send</button></form>"
)


def test_a_contact_form_goes_and_the_text_around_it_stays() -> None:
    body = f"<main><h1>Our work</h1>{STORY[:400]}{CONTACT}{STORY[400:]}</main>"
    extraction = extract(f"<html><body>{body}</body></html>", url="https://studio.example/work")
    assert "Paragraph 0" in extraction.text and "Paragraph 7" in extraction.text
    assert "Name (Required)" not in extraction.text
    assert "This field is hidden" not in extraction.text
    assert any(entry.name == "forms" for entry in extraction.trace)


def test_trafilaturas_page_loses_the_form_too() -> None:
    page = f"<html><body><main>{STORY}{CONTACT}</main></body></html>"
    judged = judge_document(page, ALL_RULES).text_content()
    assert "Paragraph 7" in judged and "Name (Required)" not in judged
    assert "Name (Required)" in judge_document(page, ALL_RULES - {"forms"}).text_content()


def forms(html: str) -> int:
    return len(select_forms(lxml.html.fromstring(f"<div>{html}</div>")))


def test_forms_with_fewer_typed_fields_or_text_of_their_own_stay() -> None:
    assert forms(CONTACT) == 1
    cart = (
        '<form action="/cart/add"><select name="size"><option>S</option><option>M</option>'
        '</select><input type="number" name="quantity" value="1"><input type="hidden" '
        'name="id"><button>Add to cart</button></form>'
    )
    search = '<form role="search"><input type="search" name="q"><button>Go</button></form>'
    # old Reddit: each comment is a form whose only field is hidden
    comment = (
        '<form class="usertext"><input type="hidden" name="thing_id"><div class="md"><p>I '
        "measured mine at 142 watts idle.</p></div></form>"
    )
    sign_in = '<form><input type="email" name="login"><input type="password" name="pw"></form>'
    long_text = " ".join(["word"] * 160)
    long_form = f'<form><p>{long_text}</p><input type="text"><input type="email"></form>'
    assert [forms(html) for html in (cart, search, comment, sign_in, long_form)] == [0] * 5
