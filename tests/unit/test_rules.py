"""Pre-clean rule families: each removes its kind of non-content, and only that."""

from __future__ import annotations

import re

import lxml.html
import pytest

import extractor
from extractor._rules import PRECLEAN_RULES as ALL_RULES
from extractor._rules import apply_rules
from tests.conftest import FIXTURES

ARTICLE = "<p>The council approved the new budget after a long debate on Tuesday night.</p>"


def run(html: str, rules: frozenset[str] = ALL_RULES) -> tuple[str, list]:
    root = lxml.html.document_fromstring(html)
    trace = apply_rules(root, rules)
    return root.text_content(), trace


@pytest.mark.parametrize(
    ("family", "boilerplate"),
    [
        ("executable", "<script>var secret = 'SCRIPTTEXT';</script>"),
        ("executable", "<style>.x{content:'STYLETEXT'}</style>"),
        ("executable", "<template><p>TEMPLATETEXT</p></template>"),
        ("executable", "<noscript>NOSCRIPTTEXT enable JavaScript</noscript>"),
        # Edge Delivery's key-value table for the page's own scripts (aem.js removes it)
        (
            "executable",
            '<div class="section-metadata"><div><div>source</div><div>SCRIPTDATATEXT</div></div>'
            "</div>",
        ),
        ("hidden", "<div hidden>HIDDENTEXT</div>"),
        ("hidden", '<div aria-hidden="true">ARIAHIDDENTEXT</div>'),
        ("hidden", '<a href="/menu" aria-hidden="true">ARIALINKTEXT</a>'),
        ("hidden", '<div role="dialog" aria-modal="true"><p>MODALTEXT terms of service</p></div>'),
        ("hidden", "<div v-cloak><p>VCLOAKTEXT</p></div>"),
        ("consent", '<div id="onetrust-banner-sdk"><p>ONETRUSTTEXT we use cookies</p></div>'),
        ("consent", '<div class="cookie-consent-bar"><p>COOKIEBARTEXT Alright!</p></div>'),
        # Magento's notice, and a shop's own banner
        (
            "consent",
            '<div id="notice-cookie-block" class="message global cookie"><p>MAGENTOCOOKIETEXT '
            "Allow</p></div>",
        ),
        ("consent", '<div class="cookies-banner"><p>COOKIESBANNERTEXT Accept all</p></div>'),
        ("consent", '<div id="sp_message_container_843210"><p>SOURCEPOINTTEXT OK</p></div>'),
        # Osano's cookieconsent: its message's id names it, its window and button do not
        ("consent", '<div class="cc-window cc-banner"><a class="cc-btn">CCWINDOWTEXT</a></div>'),
        ("consent", '<div id="shopify-pc__banner"><p>SHOPIFYPCTEXT We use cookies</p></div>'),
        # GitHub's banner: its class and id say nothing, its label does
        (
            "consent",
            '<div id="ghcc" class="position-fixed bottom-0" role="region" '
            'aria-label="Cookie banner"><p>ARIACOOKIETEXT OK</p></div>',
        ),
        # a consent manager's preference centre, titled by its heading: on a product page
        # with little text of its own it holds most of the page's text
        (
            "consent",
            '<section role="dialog" aria-labelledby="ens-title"><header id="ens-title">'
            "Customize Your Cookie Settings</header><p>PREFCENTRETEXT Cookies are small data"
            " files that allow a website to collect and store data on your computer. Cookies "
            "help us to provide important features and functionality on our websites.</p>"
            "<p>These technologies are strictly necessary to provide you with services.</p>"
            "</section>",
        ),
        # a notice to browsers the site no longer supports, shown where its style is not
        (
            "browser-notices",
            '<div class="upgradeBrowserWrapper"><h3>Please update your browser UPGRADETEXT'
            "</h3></div>",
        ),
        (
            "browser-notices",
            '<p class="browserupgrade">You are using an <strong>outdated</strong> browser. '
            'BOILERPLATETEXT <a href="https://browsehappy.com/">upgrade</a></p>',
        ),
        ("hidden", '<div role="tabpanel" data-readermode-hidden="display">MARKEDTABTEXT</div>'),
        # a collapsed accordion's panel: a family of its own, as it is a click away
        (
            "collapsed",
            '<h3><button aria-expanded="false" aria-controls="faq-2">Shipping and returns'
            '</button></h3><div id="faq-2" role="region" aria-hidden="true">'
            "<p>ACCORDIONTEXT free over $50</p></div>",
        ),
        (
            "collapsed",
            '<button aria-expanded="false" aria-controls="spec other">Specifications</button>'
            '<div id="spec" hidden><p>SPECSHEETTEXT weight 2 kg</p></div>',
        ),
        # a menu's toggle opens navigation, and what the renderer saw hidden stays hidden
        (
            "hidden",
            '<nav><button aria-expanded="false" aria-controls="m">Menu</button></nav>'
            '<div id="m" hidden>MENUPANELTEXT</div>',
        ),
        (
            "hidden",
            '<button aria-expanded="false" aria-controls="q p">More</button>'
            '<div id="q" hidden>an answer</div>'
            '<div id="p" data-readermode-hidden="display">MARKEDPANELTEXT</div>',
        ),
        ("hidden", "<div x-cloak><p>XCLOAKTEXT</p></div>"),
        # Webflow's conditional visibility: display:none !important in every Webflow site
        ("hidden", '<div class="layout w-condition-invisible"><p>WEBFLOWGATEDTEXT</p></div>'),
        # ... and a form's answer, shown once it is sent
        ("hidden", '<div class="w-form-done"><div>WEBFLOWDONETEXT Thank you!</div></div>'),
        ("hidden", '<div style="color:red; display: none">DISPLAYNONETEXT</div>'),
        ("hidden", '<div style="VISIBILITY:hidden">VISIBILITYTEXT</div>'),
        ("hidden", '<div data-readermode-hidden="offscreen">MARKEDTEXT</div>'),
        ("a11y-labels", '<span class="VisuallyHidden">A11YTEXT</span>'),
        ("a11y-labels", '<span class="foo sr-only">SRONLYTEXT</span>'),
        ("a11y-labels", '<span class="screen-reader-text">SCREENREADERTEXT</span>'),
        ("comments", '<section id="comments"><p>COMMENTTEXT great post</p></section>'),
        ("comments", '<div class="user-comment-body">COMMENTBODYTEXT</div>'),
        # a comment's own body is not the article's: its thread still goes
        (
            "comments",
            '<ol class="commentlist"><li class="comment"><div class="comment-content post-content">'
            "THREADTEXT</div></li></ol>",
        ),
        ("review-widgets", '<div class="ti-widget ti-goog"><p>TRUSTINDEXTEXT 4.9</p></div>'),
        (
            "review-widgets",
            '<div class="es-widget-container eapps-google-reviews"><p>ELFSIGHTTEXT</p></div>',
        ),
        ("forum-stats", '<div class="stat-block online-list"><h3>Online</h3>FORUMSTATSTEXT</div>'),
        ("forum-stats", '<div id="wgo"><h2>Users</h2><p>WGOTEXT 23 guests</p></div>'),
        ("doc-controls", '<span class="theme-doc-version-badge badge">VERSIONTEXT: 3.x</span>'),
        ("doc-controls", '<summary class="hideme"><span>HIDEMETEXT description</span></summary>'),
        (
            "board-sidebars",
            '<div class="side"><div class="titlebox"><p>SIDEBARTEXT</p></div></div>',
        ),
        ("unprinted", '<div id="siteSub" class="noprint">SITESUBTEXT From Wikipedia</div>'),
        (
            "unprinted",
            '<h2>History</h2><span class="mw-editsection"><span>[</span><a href="/w?action='
            'edit">EDITLINKTEXT</a><span>]</span></span>',
        ),
        ("unprinted", '<div class="share d-print-none">SHAREBARTEXT Share on X</div>'),
        ("unprinted", '<aside class="print:hidden">TAILWINDTEXT Related</aside>'),
        ("chrome", "<header>HEADERTEXT Home About</header>"),
        ("chrome", "<footer>FOOTERTEXT Copyright</footer>"),
        ("chrome", "<nav>NAVTEXT Sections</nav>"),
        ("chrome", '<div role="navigation">ROLENAVTEXT</div>'),
    ],
)
def test_family_removes_its_kind_and_says_so(family: str, boilerplate: str) -> None:
    html = f"<html><body>{boilerplate}<main>{ARTICLE}</main></body></html>"
    marker = re.search(r"[A-Z0-9]+TEXT", boilerplate).group()
    text, trace = run(html)
    assert marker not in text
    assert "council approved the new budget" in text
    assert family in {entry.name for entry in trace}
    # With that family switched off, the boilerplate stays.
    kept, _ = run(html, ALL_RULES - {family})
    assert marker in kept


@pytest.mark.parametrize(
    "kept",
    [
        '<div hidden="until-found"><p>UNTILFOUND revealable by find-in-page</p></div>',
        '<div class="w-condition-invisible-note"><p>WEBFLOWLOOKALIKE class</p></div>',
        # Bootstrap's d-none shown from a breakpoint up: on a desktop it is there
        '<div class="d-none d-md-block"><p>DNONESHOWN on desktops</p></div>',
        "<article><header><h1>ARTICLEHEADER headline</h1></header>" + ARTICLE + "</article>",
        "<main><footer>MAINFOOTER filed under politics</footer>" + ARTICLE + "</main>",
        '<article class="post comments-open">' + ARTICLE + "<p>COMMENTSOPEN</p></article>",
        # a "select text to comment on" layer around the post's own body (LessWrong)
        '<div class="commentOnSelection"><div id="postContent"><p>SELECTABLE post text</p>'
        "</div></div>",
        '<div class="comments-enabled"><div itemprop="articleBody"><p>ITEMPROPBODY</p></div></div>',
        # a card's second link, hidden from screen readers only: its teaser is on screen
        '<a href="/story" aria-hidden="true" tabindex="-1"><p>CARDTEASER text</p></a>',
        # a recipe site's content is named for its cookies, not for a consent banner
        '<div class="cookie-recipe">' + ARTICLE + "<p>COOKIERECIPE bake for ten minutes</p></div>",
        '<div class="cookies-grid">' + ARTICLE + "<p>COOKIESGRID oat and raisin</p></div>",
        # a highlighter's comment token is the code's own comment
        '<pre><code><span class="token comment"># CODECOMMENT the repository</span>'
        "\ngit init</code></pre>",
        # an FAQ's answer: its button asks the question (collapsed on every type)
        '<h3><button aria-expanded="false" aria-controls="faq-3">Can I use my own vet?</button>'
        '</h3><div id="faq-3" role="region" hidden><p>FAQANSWER any licensed vet</p></div>',
        # a testimonials section is the business's own words about its clients' words
        '<section class="testimonials"><p>TESTIMONIALS our clients say</p></section>',
        # a box that only mentions being online or statistics
        '<div class="online-course"><p>ONLINECOURSE six weeks</p></div>',
        '<table class="stats-table"><tr><td>TABLESTATS 12 goals</td></tr></table>',
        # the page's own wrapper marked so: it holds the page
        '<div class="wrapper d-print-none"><p>PRINTWRAPPER</p>' + ARTICLE * 3 + "</div>",
        # a class that only mentions printing
        '<div class="print-friendly"><p>PRINTFRIENDLY recipe card</p></div>',
        # the panel of a tab not selected yet: a click away
        '<div role="tabpanel" hidden><p>TABPANELTEXT for the Node.js sample</p></div>',
    ],
)
def test_rules_spare_content(kept: str) -> None:
    marker = re.search(r"[A-Z]{8,}", kept).group()
    text, _ = run(f"<html><body>{kept}</body></html>")
    assert marker in text


def test_chrome_holding_most_of_the_page_is_kept() -> None:
    # A page whose whole text sits in <header> is not chrome: removing it would leave nothing.
    html = "<html><body><header>" + ARTICLE * 5 + "</header><p>tail</p></body></html>"
    text, trace = run(html)
    assert "council approved" in text
    assert "chrome" not in {entry.name for entry in trace}


def test_footer_of_legal_notes_is_chrome_though_longer_than_the_page() -> None:
    # Apple-style global footers: numbered legal notes outweigh the sections above them. A
    # header of the same weight stays (a site that puts its story in <header>); a footer
    # holding nearly all the text wraps the page and stays too.
    notes = "<ol>" + "<li>LEGALNOTE Offer available to new subscribers only.</li>" * 40 + "</ol>"
    page = "<section>" + ARTICLE * 20 + "</section>"  # the notes: 60% of the text
    text, trace = run(f"<html><body>{page}<footer>{notes}</footer></body></html>")
    assert "LEGALNOTE" not in text and "council approved" in text
    assert "chrome" in {entry.name for entry in trace}
    text, _ = run(f"<html><body><header>{notes}</header>{page}</body></html>")
    assert "LEGALNOTE" in text
    text, _ = run(f"<html><body><footer>{page}{notes}</footer></body></html>")
    assert "LEGALNOTE" in text and "council approved" in text


def test_body_and_html_are_never_removed() -> None:
    html = (
        '<html hidden><body style="display:none" class="comments-open">'
        + ARTICLE
        + "</body></html>"
    )
    text, _ = run(html)
    assert "council approved" in text


def test_trace_counts_outermost_removals_with_excerpt() -> None:
    html = (
        '<html><body><div id="comments"><div class="comment">First COMMENT here</div>'
        '<div class="comment">Second</div></div>' + ARTICLE + "</body></html>"
    )
    _, trace = run(html)
    entry = next(entry for entry in trace if entry.name == "comments")
    assert entry.count == 1  # the nested comment divs went with their container
    assert entry.excerpt is not None and entry.excerpt.startswith("First COMMENT")


def test_aria_hidden_fallback_images_are_kept_like_readability_js() -> None:
    root = lxml.html.document_fromstring(
        '<html><body><img aria-hidden="true" class="fallback-image" src="a.jpg">'
        '<img aria-hidden="true" class="icon" src="b.svg">' + ARTICLE + "</body></html>"
    )
    apply_rules(root, ALL_RULES)
    assert [img.get("src") for img in root.iter("img")] == ["a.jpg"]


def test_a_unit_shown_beside_its_spoken_label_stays() -> None:
    """WP Recipe Maker speaks "30 minutes" and shows "30 mins": the label and the shown unit
    (hidden from screen readers) each went by their own rule, leaving "Prep Time 30"."""
    text, _ = run(
        '<html><body><p>Prep Time <span><span>30<span class="sr-only"> minutes</span></span> '
        '<span aria-hidden="true">mins</span></span></p><p>Servings <span>12'
        '<span class="screen-reader-text"> buns</span></span> <span aria-hidden="true">'
        "a long decorative duplicate line</span></p>" + ARTICLE + "</body></html>"
    )
    assert "Prep Time 30 mins" in text
    assert "minutes" not in text and "decorative" not in text


def test_a_separator_hidden_from_screen_readers_stays() -> None:
    text, _ = run(
        "<html><body><p>Price <span class='price'><span>£19.00</span> <span aria-hidden='true'>"
        "–</span> <span>£34.00</span></span><span aria-hidden='true'><i>·</i></span></p>"
        + ARTICLE
        + "</body></html>"
    )
    assert "£19.00 – £34.00" in text and "·" not in text


def test_renderer_marks() -> None:
    root = lxml.html.document_fromstring(
        "<html><body>" + ARTICLE + '<div data-readermode-hidden="display"><p>GONE one</p></div>'
        '<div data-readermode-feed=""><p>GONE feed</p></div>'
        '<div data-readermode-hidden="visibility"><p>GONE two</p></div>'
        '<div data-readermode-hidden="visibility"><span>KEPT shell</span>'
        '<p data-readermode-visible="visibility">KEPT visible child</p></div></body></html>'
    )
    apply_rules(root, ALL_RULES)
    text = root.text_content()
    assert "GONE" not in text and "KEPT visible child" in text and "council approved" in text


def test_trace_excerpts_never_quote_script_or_style_text() -> None:
    """The executable rule removes scripts and styles, the hidden rule a block holding more of
    them: the trace says what went, and quotes only text a reader would have read."""
    page = (FIXTURES / "hostile" / "script-in-trace.html").read_bytes()
    result = extractor.extract(page)
    excerpts = [entry.excerpt for entry in result.trace if entry.excerpt]
    assert "hidden words" in excerpts and "Home" in excerpts
    assert any(entry.name == "executable" and entry.count for entry in result.trace)
    assert not [text for text in excerpts if "SECRET" in text or "{" in text]
    assert "SECRET" not in result.text


def test_a_threads_replies_hidden_when_printed_stay() -> None:
    # Wall Street Oasis prints a thread without its replies; on a thread they are the content.
    reply = (
        "<div class='comment'><a class='username' href='/u/{n}'>member{n}</a><p>Reply {n}: "
        "I moved from consulting to a growth fund last spring, and the modelling tests were "
        "the hardest part of the process by far.</p></div>"
    )
    html = (
        "<html><head><title>Consulting, is it worth it? | Forum</title></head><body><main>"
        "<h1>Consulting, is it worth it?</h1><div class='post'><p>I have an offer from a "
        "strategy firm and one from a bank, and I cannot decide which gives more options "
        "later on. What did you pick, and would you pick it again?</p></div>"
        "<div class='post-comments hidden-print'>"
        + "".join(reply.format(n=n) for n in range(4))
        + "</div></main></body></html>"
    )
    read = extractor.extract(html, url="https://forum.example.com/forum/consulting/is-it-worth-it")
    assert read.page_type == "forum"
    assert "Reply 3:" in read.text
    assert "unprinted" not in {entry.name for entry in read.trace}
