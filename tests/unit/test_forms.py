"""Data-entry forms (the ``forms`` rule): a contact form's fields and labels are not content."""

from __future__ import annotations

import lxml.html

from extractor import extract
from extractor._forms import select_forms, unwrap_text_forms
from extractor._options import ALL_RULES
from extractor._trafilatura import judge_document
from tests.conftest import FIXTURES

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


REPLY = (
    "<p>Riven oak pins are the way. Dowel shears along the grain runout and you never know "
    "until it fails. Testing on an offcut first is the bit most people skip.</p>"
)


def wrapped(inner: str, fields: str = '<input type="hidden" name="thing_id" value="t1_k">') -> str:
    return (
        f'<div><form action="#" class="usertext">{fields}<div class="md">{inner}</div></form></div>'
    )


def unwrapped(html: str) -> tuple[int, str]:
    root = lxml.html.fromstring(html)
    count = unwrap_text_forms(root)
    return count, lxml.html.tostring(root, encoding="unicode")


def test_a_post_in_a_form_with_hidden_fields_only_is_unwrapped() -> None:
    count, html = unwrapped(wrapped(REPLY))
    assert count == 1 and "<form" not in html and "Riven oak pins" in html
    assert 'action="#"' not in html and 'class="usertext"' in html


def test_forms_a_visitor_fills_in_or_holding_more_than_a_post_stay() -> None:
    cards = "<div class='card'><a href='/p/1'>Wave Mouse</a> <span>$34.00</span></div>" * 3
    for html in (
        wrapped(REPLY, '<input type="text" name="q">'),  # a search box
        wrapped(REPLY, "<textarea></textarea>"),  # a reply box
        wrapped(REPLY + "<button>Save</button>"),
        wrapped(f"<article><time>March 19</time>{REPLY}</article>"),  # a forum's moderation form
        wrapped(f"{cards}<p>Compare</p>"),  # a shop's compare form around its cards
        wrapped(""),
    ):
        assert unwrapped(html)[0] == 0, html


def test_old_reddits_comments_are_read_with_their_authors() -> None:
    url = "https://old.reddit.com/r/woodworking/comments/1b7k2xq/finished_my_first_workbench/"
    page = (FIXTURES / "threads" / "old-reddit.html").read_bytes()
    text = extract(page, url=url).text
    for author, said in (
        ("Chisel_and_Chai", "How did you offset the drawbore holes?"),
        ("mortise_maggie", "Riven oak pins are the way."),
        ("birchbark_bea", "You can retrofit a criss-cross later"),
    ):
        assert text.index(author) < text.index(said)
    assert text.index("Riven oak pins") < text.index("You can retrofit")  # the thread's order
    assert "A place for woodworkers" not in text and "MODERATORS" not in text  # the sidebar's


def test_a_box_named_side_stays_off_forums() -> None:
    story = "".join(
        f"<p>Paragraph {n} of the dealer network's story, told at length.</p>" for n in range(6)
    )
    page = f"<html><body><main><h1>Dealers</h1>{story}<div class='side'><p>Find a dealer near you in the network today.</p></div></main></body></html>"
    assert "Find a dealer near you" in extract(page, url="https://example.com/news/dealers").text
