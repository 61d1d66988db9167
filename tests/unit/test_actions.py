"""The "actions" rule: calls to action and interface controls on a line of their own go;
the same words inside a sentence, and phrases annotators keep as content, stay."""

from __future__ import annotations

import lxml.html
import pytest

from extractor import ExtractOptions, extract
from extractor._actions import select_standalone_actions
from extractor._options import ALL_RULES

SECTION = "<h2>Fast rollouts</h2><p>Ship a change to every region in under a minute.</p>"


def selected(body: str) -> list[str]:
    root = lxml.html.document_fromstring(f"<html><body>{body}</body></html>")
    return [" ".join(el.text_content().split()) for el in select_standalone_actions(root)]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        # A button after a section, inside the section's own container.
        (f'<div>{SECTION}<a class="btn" href="/signup">Get started →</a></div>', ["Get started →"]),
        (f"<section>{SECTION}<button>Request a demo</button></section>", ["Request a demo"]),
        (f'<div>{SECTION}<p><a href="/features">Learn more</a></p></div>', ["Learn more"]),
        # Two buttons side by side are one line of controls.
        (
            '<div><a href="/join">Sign up</a> | <a href="/login">Log in</a></div>',
            ["Sign up", "Log in"],
        ),
        # A product card's secondary controls, touching (Magento's wish list and compare).
        (
            '<div class="actions-secondary"><a href="#" role="button">Add to Wish List</a>'
            '<a href="#" role="button">Add to Compare</a></div>',
            ["Add to Wish List", "Add to Compare"],
        ),
        # phpBB's link above a thread.
        (
            '<div class="action-bar"><a href="./viewtopic.php?view=print">Print view</a></div>',
            ["Print view"],
        ),
        # Wrapped in inline formatting that holds nothing else.
        ('<p><strong><a href="/cart">Add to cart</a></strong></p>', ["Add to cart"]),
        # Interface lines that are not links.
        (
            "<div><p>Was this page helpful?</p><button>Yes</button></div>",
            ["Was this page helpful?", "Yes"],
        ),
        ('<div class="bbCodeBlock-expandLink">Click to expand...</div>', ["Click to expand..."]),
        # A results grid's controls, and a recommendation box's heading left behind.
        (
            '<div><label for="s">Sort by:</label><select id="s"><option>Rank</option></select>'
            "</div>",
            ["Sort by:"],
        ),
        (f"<div>{SECTION}<h3>You might also like</h3></div>", ["You might also like"]),
        ("<section><h2>Related articles</h2></section>", ["Related articles"]),
        (
            '<div class="card"><h3>Trail runner</h3><p>$120</p><label>Compare</label></div>'
            '<ul><li><span class="more">Show more</span></li></ul>',
            ["Compare", "Show more"],
        ),
        # WordPress's likes widget under a post.
        (
            f'{SECTION}<div class="sharedaddy"><h3>Like this:</h3><div>Like Loading...</div></div>',
            ["Like this:", "Like Loading..."],
        ),
        # A footer's legal links repeated inside the content.
        (
            '<span><a href="/privacy">Privacy Policy</a> &nbsp;|&nbsp; '
            '<a href="/terms">Terms of Service</a></span>',
            ["Privacy Policy", "Terms of Service"],
        ),
        # A quick-add button on a shop's card (Shopify's Dawn, WooCommerce's variable products)
        (
            '<div class="card"><h3>Oat Glaze Mug</h3><p>£32.00</p>'
            '<button class="quick-add__submit">Choose options</button></div>',
            ["Choose options"],
        ),
        (
            '<div class="attorney"><h3>Maya Ortiz</h3><a href="/team/maya">View Profile</a></div>',
            ["View Profile"],
        ),
        (
            f'<div>{SECTION}<a class="btn" href="/book">Book Your Appointment Online</a></div>',
            ["Book Your Appointment Online"],
        ),
        # A rates table's booking button, alone in its cell
        (
            '<table><tr><td>Flexible rate</td><td>£189</td><td><a class="btn" href="/r/1">'
            "Reserve this room</a></td></tr></table>",
            ["Reserve this room"],
        ),
        (
            f"<div>{SECTION}<div class='rm-feedback'><p>Did this page help you?</p></div></div>",
            ["Did this page help you?"] * 2,
        ),
        (
            '<div class="block review-add"><div class="block-title">Write Your Own Review</div></div>',
            ["Write Your Own Review"] * 2,
        ),
        # A section front's pager, where no facets rule runs
        (
            '<div class="pager"><a href="/tech?page=2" rel="next">Next page</a></div>',
            ["Next page"] * 2,
        ),
        (
            '<nav aria-label="Pagination"><span>Page 1 of 4,213</span><a href="/t?page=2">'
            "Next page</a></nav>",
            ["Page 1 of 4,213", "Next page"],
        ),
        (
            f'<div>{SECTION}<a class="btn" href="/w/8">Join waiting list</a></div>',
            ["Join waiting list"],
        ),
        # Magento's upsell heading, its cards gone (hidden until its script shows them)
        (
            '<div class="block upsell"><div class="block-title title"><strong role="heading">'
            "We found other products you might like!</strong></div></div>",
            ["We found other products you might like!"] * 2,
        ),
        # The heading a thread's reply box leaves behind (vBulletin)
        ('<div id="quickreply"><h4 class="blockhead">Quick Reply</h4></div>', ["Quick Reply"] * 2),
        # A comment's own controls on a thread (Hacker News: <font><u><a>reply</a></u></font>).
        (
            '<div class="comment"><div class="commtext">A reply that says something.</div>'
            '<div class="reply"><p><font size="1"><u><a href="reply?id=7">reply</a></u></font>'
            "</p></div></div>",
            ["reply"],
        ),
        # A post's own controls on Invision Community
        (
            '<ul class="ipsComment_controls"><li><a href="#">Share this post</a></li></ul>',
            ["Share this post"],
        ),
        ('<div class="ipsType_reset"><a href="/p/5">Link to post</a></div>', ["Link to post"] * 2),
        # WooCommerce's categories widget's title, its links gone
        ('<section class="widget widget_product_categories"><h2 class="widget-title">'
         "Product categories</h2></section>", ["Product categories"]),  # fmt: skip
        # A results list's sort line, its choices beside it (Indeed)
        (
            '<div class="css-1x2f9yr"><span>Sort by: </span><span>relevance</span> - '
            '<a href="/jobs?sort=date">date</a></div>',
            ["Sort by: relevance - date"],
        ),
        # A heading's own button (rustdoc's item path), beside the heading's words
        (
            '<h1 class="fqn">Struct <a href="index.html">tokenbucket</a>::<span>RateLimiter'
            '</span><button id="copy-path" title="Copy item path to clipboard">Copy item path'
            "</button></h1>",
            ["Copy item path"],
        ),
        # A copyright notice on its own line (Javadoc's legalCopy, a site's footer line)
        (
            f'<div>{SECTION}<p class="legalCopy"><small>Copyright © 2016–2024 Acme Software '
            "Foundation. All rights reserved.</small></p></div>",
            ["Copyright © 2016–2024 Acme Software Foundation. All rights reserved."] * 2,
        ),
        (f"<div>{SECTION}<p>© 2026 Netlify</p></div>", ["© 2026 Netlify"]),
        # A script's loading indicator left as served
        ('<div class="spinner"><span>Loading... Please wait...</span></div>', ["Loading... Please wait..."] * 2),
        ("<div><p>Loading paragraph...</p></div>", ["Loading paragraph..."] * 2),
        # Buttons that do something (GitHub's repository page; a code sample's copy button)
        (
            '<div><button type="button"><span>Go to file</span></button>'
            '<button type="button" aria-haspopup="true">Code</button></div>',
            ["Go to file", "Code"],
        ),
        (
            '<div class="code-toolbar"><button class="copy">Copy code block</button></div>',
            ["Copy code block"],
        ),
    ],
)
def test_controls_on_a_line_of_their_own_are_selected(body: str, expected: list[str]) -> None:
    assert selected(body) == expected


@pytest.mark.parametrize(
    "body",
    [
        '<p>For volume pricing please <a href="/contact">contact us</a> before ordering.</p>',
        '<p>Read the <a href="/privacy">privacy policy</a></p><p>Then <a href="/join">sign up</a>.</p>',
        # A link among other links that are not controls: a menu, the chrome rule's business.
        '<div><a href="/">Home</a><a href="/login">Log in</a></div>',
        # "Read more" under a teaser is kept by the benchmark's annotators.
        f'<div>{SECTION}<a href="/rollouts">Read more</a></div>',
        # A heading that happens to use the words is a section of the page, not a control.
        "<h2>Contact us</h2><p>Our office is open on weekdays.</p>",
        # Long link text is not a control, whatever it starts with.
        '<div><a href="/a">Sign up for the spring workshop on soil and compost</a></div>',
        "<p>Sort by price to find the cheapest, or read the related articles below.</p>",
        '<p>Please <a href="/reply">reply</a> to the invitation by Friday.</p>',
        "<p>Choose options that suit your kitchen: three finishes, two handle shapes.</p>",
        "<p>The table on the next page lists older posts by year.</p>",
        "<p>You can book online or by phone, and we reserve a table for walk-ins.</p>",
        # Buttons that open a panel or a tab, or say a sentence: an FAQ's question, a tab
        '<div><button aria-expanded="false" aria-controls="a1">Delivery</button></div>',
        '<div><button role="tab">Python</button></div>',
        "<div><button>How long does delivery to Ireland take?</button></div>",
        # The page's own words about loading: no ellipsis, or a sentence
        "<h3>Loading times</h3><p>Each truck is loaded in under an hour.</p>",
        "<p>Loading... the word the old terminals printed while a tape ran.</p>",
        # An accordion's toggle that is all of its heading: the title of the section below
        '<h3 class="accordion__title"><button type="button">Shipping</button></h3>',
        # Copyright as a subject, and a picture's credit, are not the site's notice
        "<p>Copyright law protects the expression of an idea, not the idea itself.</p>",
        f"<div>{SECTION}<p>© guoya / Digital Vision Vectors / Getty Images</p></div>",
        "<p>Copyright 2024 was a busy year: the office moved twice and the team grew.</p>",
    ],
)
def test_the_same_words_as_content_are_kept(body: str) -> None:
    assert selected(body) == []


def test_the_refinement_removes_them_from_the_reading_and_can_be_switched_off() -> None:
    prose = "".join(
        f"<p>Paragraph {n} of the guide explains how a rollout reaches every region, how "
        "it is watched, and how it is undone when an error rate climbs past its limit.</p>"
        for n in range(6)
    )
    page = (
        "<html><head><title>Rollouts</title></head><body><main><h1>Rollouts</h1>"
        f'{prose}<div><a class="cta" href="/trial">Start free trial</a></div></main></body></html>'
    )
    read = extract(page)
    assert "Start free trial" not in read.text
    assert "how a rollout reaches every region" in read.text
    assert [e.excerpt for e in read.trace if e.name == "actions"] == ["Start free trial"]
    kept = extract(page, options=ExtractOptions(rules=ALL_RULES - {"actions"}))
    assert "Start free trial" in kept.text
