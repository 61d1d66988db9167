"""Newsletter and mailing-list sign-up boxes (the ``signups`` rule)."""

from __future__ import annotations

import lxml.html

from extractor import extract
from extractor._signups import select_signups

STORY = "".join(
    f"<p>Paragraph {n} of the story tells how the harbour town rebuilt its sea wall after the "
    "winter storms, and what the fishermen think of the new stones.</p>"
    for n in range(8)
)
SIGNUP = (
    '<div class="newsletter-box"><h3>Sign up for The Tide newsletter</h3>'
    "<p>SIGNUPPITCH The Tide is a weekly letter on coastal towns.</p>"
    '<form action="/subscribe"><input type="email" name="EMAIL" placeholder="you@example.com">'
    "<button>Subscribe</button></form></div>"
)


def page(body: str) -> str:
    return (
        "<html><head><title>The sea wall</title><meta property='og:type' content='article'>"
        f"</head><body><article><h1>The sea wall</h1>{body}</article></body></html>"
    )


def test_a_sign_up_box_goes_with_its_heading_and_pitch() -> None:
    extraction = extract(page(STORY[:400] + SIGNUP + STORY[400:]), url="https://tide.example/wall")
    assert "harbour town" in extraction.text and "Paragraph 7" in extraction.text
    assert "SIGNUPPITCH" not in extraction.text and "Sign up for The Tide" not in extraction.text
    assert any(entry.name == "signups" for entry in extraction.trace)


def boxes(html: str) -> list[str]:
    root = lxml.html.fromstring(f"<div>{html}</div>")
    return [f"{box.tag}.{box.get('class') or box.get('id')}" for box in select_signups(root)]


def test_the_outermost_named_box_around_an_email_field_is_chosen() -> None:
    assert boxes(f'<section id="mc_embed_signup">{SIGNUP}</section>') == ["section.mc_embed_signup"]
    by_name = '<div class="optin"><input type="text" name="subscriber_email"></div>'
    assert boxes(by_name) == ["div.optin"]
    alert = (
        '<div class="job-alert-cta"><h3>Get new Data Engineer jobs by email</h3><form>'
        '<input type="email"><button>Create job alert</button></form><p>By creating a job '
        "alert you agree to our Terms.</p></div>"
    )
    assert boxes(alert) == ["div.job-alert-cta"]


def test_a_save_search_box_is_named_by_its_class_or_its_form() -> None:
    saved = (
        '<div class="jobsearch-SaveSearch"><h3>Save search</h3><p>Get new jobs for this search '
        'by email</p><form action="/alerts/new"><input type="email"></form></div>'
    )
    assert boxes(saved) == ["div.jobsearch-SaveSearch"]
    posted = (
        '<div class="css-1ipw7s9"><h3>Stay in the loop</h3><form class="f" '
        'action="/alert/subscribe"><input type="email"></form></div>'
    )
    assert boxes(posted) == ["div.css-1ipw7s9"]  # the form's heading goes with it


def test_a_named_form_takes_its_heading_and_pitch_along() -> None:
    """Mailchimp for WordPress names the form alone; the block around it holds the offer."""
    mc4wp = (
        "<div class='wp-block-group'><h2>Get the Friday Loaf</h2><p>One recipe in your inbox "
        "every Friday.</p><form class='mc4wp-form'><input type='email' name='EMAIL'></form></div>"
    )
    assert boxes(mc4wp) == ["div.wp-block-group"]
    crowded = (
        "<div class='sidebar'><form class='mc4wp-form'><input type='email'></form>"
        "<form class='search-form'><input type='search'></form></div>"
    )
    assert boxes(crowded) == ["form.mc4wp-form"]


def test_what_is_not_a_sign_up_box_stays() -> None:
    contact = '<div class="contact-form"><p>Write to us.</p><input type="email"></div>'
    search = '<div class="newsletter"><p>Past issues</p><input type="search" name="q"></div>'
    long_text = " ".join(["word"] * 90)
    long_box = f'<div class="newsletter"><p>{long_text}</p><input type="email"></div>'
    assert boxes(contact) == [] and boxes(search) == [] and boxes(long_box) == []
