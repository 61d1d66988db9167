"""The class and id names of the boxes the pre-clean rules remove by name (``_rules``), with
each family's limits: what the site leaves out of print, consent banners, customer reviews
and review widgets, forum signatures and a board's
statistics, filter panels. Each regex is searched in an element's lower-cased class and id;
its markers are substrings one of which every match holds (a page whose labels hold none is
not searched)."""

from __future__ import annotations

import re

CONSENT = re.compile(
    r"cookies?-?(?:banner|consent|notice|bar|law|policy|popup|modal|message|disclaimer|warning|"
    r"settings|preferences|compliance|info|alert)|(?:notice|banner|popup)-cookies?\b|truste-"
    r"|cookieconsent|cookiebot|onetrust|didomi|cc-window\b|sp_message_container|fc-consent-root"
    r"|usercentrics|gdpr|consent-?(?:banner|manager|modal|popup|dialog|bar)|qc-cmp|shopify-pc__"
)
"""Class or id names (lower-cased) of cookie and consent banners and their managers' boxes
(OneTrust, Didomi, Cookiebot, Usercentrics, Quantcast, TrustArc, Sourcepoint, Google's, Shopify's
privacy banner "shopify-pc__banner", Osano's
"cc-window", whose "Got it!" outlived its message) and shops' own ("cookies-banner",
Magento's "notice-cookie-block"): never a page's content. A bare "cookie" is not enough:
recipe sites name their content so."""
CONSENT_MARKERS = (
    *("cookie", "consent", "onetrust", "didomi", "usercentrics", "gdpr", "qc-cmp", "truste"),
    *("cc-window", "sp_message", "shopify-pc"),
)
CONSENT_LABEL = re.compile(r"\bcookies?\b|\bconsent\b")
"""An ``aria-label`` (lower-cased) that names a dialog or region a cookie or consent box: a
banner whose class and id say nothing ("ghcc", "position-fixed bottom-0") still names itself
so to a screen reader ("Cookie banner", "Cookie consent")."""
CONSENT_LABEL_ROLES = frozenset({"dialog", "alertdialog", "region"})
CONSENT_MAX_SHARE = 0.3
"""A consent box holding this share of the page's text or more is left alone (the page may be
about consent: a privacy policy's own sections carry such names)."""

REVIEWS = re.compile(
    r"(?:customer|product|user|buyer)s?[-_]?reviews?\b|bv[-_](?:content|rr|review)|bvrr|"
    r"yotpo|okendo|jdgm|stamped-reviews|pr-review-display|trustpilot|tab-reviews\b|reviewsmedley|"
    r"(?:^|[\s_-])reviews?(?:__|-)(?:container|list|section|wrapper)\b|(?:^|\s)reviews(?:$|\s)|"
    r"ugc-(?:reviews|qna)|(?:^|[\s_-])qna(?:$|[\s_-])|questions-?(?:and|&)-?answers"
    r"|product-comments?-list"
)
"""Class or id names (lower-cased) of a product page's customer reviews: the store's own
("customer-reviews", "product-reviews", "user_reviews", WooCommerce's reviews tab) and the
review widgets' (Bazaarvoice, Yotpo, Okendo, Judge.me, Stamped, PowerReviews, Trustpilot; Amazon's).
Also a box named "reviews" whole or a reviews list's container ("reviews__container", Etsy's;
Best Buy's "shop-reviews-section"),
and a product's questions and answers (Best Buy's "ugc-qna", "questions-and-answers"): other
buyers' words, as the reviews are. PrestaShop's reviews module calls them comments
("product-comments-list", "product-comment-list-item"). A bare "review" is not enough: a testimonial block, a
buying guide's "product-x-review" and
an editorial review ("editorialReviews", a book's blurbs) are content."""
REVIEWS_MARKERS = (
    *("review", "bv", "yotpo", "okendo", "jdgm", "trustpilot", "qna", "answers"),
    "product-comment",
)
REVIEWS_MIN_WORDS = 150
"""A shorter reviews box that holds no schema.org review is the rating's summary ("Very Positive (89% of 728,400)", "0 stars
based on 0 reviews"): part of what the product page says of the product."""
REVIEWS_MAX_SHARE = 0.6
"""A reviews box holding this share of the page's text or more is left alone: then the page
is its reviews (a product's review page) or the names are not what they seem."""

REVIEW_WIDGETS = re.compile(
    r"(?:^|\s)(?:ti-widget|trustindex[\w-]*|eapps-google-reviews[\w-]*|grw-(?:row|reviews?|header)"
    r"|wp-google-reviews|google-reviews(?:-bar|-widget|-slider)?)(?:$|\s)"
)
"""Class names (lower-cased) of the widgets that show a business's Google reviews on its own
pages (Trustindex, Elfsight's, the WordPress Google Reviews plugins): the reviewers' words
and "Based on 318 reviews", "Trustindex verifies ...", on a service page as on any other.
The store's own reviews of a product are ``REVIEWS``, on product pages only."""
REVIEW_WIDGETS_MARKERS = ("ti-widget", "trustindex", "eapps-google", "grw-", "google-reviews")
REVIEW_WIDGETS_MAX_SHARE = 0.3
"""A widget holding this share of the page's text or more is left alone: the page is its
reviews."""

SIGNATURES = re.compile(
    r"(?:^|[\s_-]|post|member|message|user)(?<!digital-)(?<!post-)signatures?(?:$|[\s_-])"
)
"""Class or id names (lower-cased) of a forum member's signature under each post: the forum
software's own ("signature", "postsignature", "message-signature", IPS's
"ipsEntry__signature", "memberSignature"). Not Stack Exchange's "post-signature" (the post's
author and date, which a thread keeps), Sphinx's "sig" (a documented function's signature)
nor a service's "digital-signature" feature."""
SIGNATURE_MARKS = (("data-role", "memberSignature"), ("component", "post/signature"))
"""The attributes and values forum software marks a member's signature with where its class
does not say so: Invision Community's ``data-role="memberSignature"``, NodeBB's
``component="post/signature"`` (whose class, "post-signature", is Stack Exchange's author card
too)."""
SIGNATURES_MAX_SHARE = 0.3
"""A signature box holding this share of the page's text or more is left alone."""

FACETS = re.compile(
    r"(?:^|[\s_-])(?:facets?|filters?|refinements?|sort-?by|sorting|sort-options"
    r"|layered[-_]nav)(?:$|[\s_-])"
)
"""Class or id names (lower-cased) of a collection's or listing's filter and sort panels:
"facets" (Shopify), "filters", "product-filters", "refinements" (Salesforce Commerce),
"sort-by", "widget_layered_nav" (WooCommerce's filter by attribute). The issue's "a
collection or listing keeps the items and drops filters, sorting and pagination"; wcxb-dev's
ground truths mostly agree (Amazon's keep theirs)."""
FACETS_MAX_SHARE = 0.3
"""A filter box holding this share of the page's text or more is left alone: it holds the
items too, or the name is not what it seems."""
FACETS_LINK_SHARE = 0.5
"""A filter box without form controls is a list of links: at least this share of its text."""
FACETS_MARKERS = ("facet", "filter", "refinement", "sort", "layered")


FORUM_STATS = re.compile(
    r"(?:^|[\s_-])(?:online-?list|who-?is-?online|whosonline|wgo(?:_block|_stats)?"
    r"|users-?online|online-?users|members-?online|forum-?stats|board-?stats|stat-block)"
    r"(?:$|[\s_-])"
)
"""Class or id names (lower-cased) of a board's "Who is online", "Users browsing this
thread" and statistics boxes under a thread (phpBB's "stat-block online-list", vBulletin's
"wgo"): the board's, not the thread's. No wcxb-dev page carries one."""
FORUM_STATS_MARKERS = ("online", "wgo", "stat")
FORUM_STATS_MAX_SHARE = 0.3
"""A statistics box holding this share of the page's text or more is left alone."""

DOC_CONTROLS = re.compile(
    r"(?:^|[\s_-])(?:version-?(?:badge|picker|switcher|selector|select|dropdown|menu|banner)"
    r"|rst-versions|rightside|hideme)(?:$|[\s_-])"
)
"""Class names (lower-cased) of a manual's controls: its version pickers, badges and banners
(Docusaurus's ``theme-doc-version-badge``, Read the Docs' ``rst-versions`` flyout), and
rustdoc's ``rightside`` (each item's "source" link and "1.0.0" since-version) and
``hideme`` ("Expand description"). Removed on documentation pages only."""
DOC_CONTROLS_MARKERS = ("version", "rightside", "hideme")
DOC_CONTROLS_MAX_SHARE = 0.3
"""A box holding this share of the page's text or more is left alone."""

BOARD_SIDEBARS = re.compile(r"(?:^|\s)(?:side|sidecontentbox|titlebox)(?:$|\s)")
"""Class names (lower-cased) of a board's sidebar beside a thread: old Reddit's ``side``
(the subreddit's description, its rules, its moderators, "limit my search to r/science")
and its boxes. Removed on forums only: on other pages a box named "side" is as often a
column of the content (an article's aside, a shop's dealer box)."""
BOARD_SIDEBARS_MARKERS = ("side", "titlebox")
BOARD_SIDEBARS_MAX_SHARE = 0.3
"""A sidebar holding this share of the page's text or more is left alone."""


UNPRINTED = re.compile(
    r"(?:^|\s)(?:noprint|no-print|d-print-none|hidden-print|print-hidden|print:hidden"
    r"|mw-editsection)(?:$|\s)"
)
"""Class names (lower-cased) of what the site's own print style leaves out (MediaWiki's
``noprint``, Bootstrap's ``d-print-none``, Tailwind's ``print:hidden``): a site marks this way
what is not part of the document, its edit links, navigation boxes, share buttons and "From
Wikipedia, the free encyclopedia". MediaWiki's section edit links are named apart."""
UNPRINTED_MARKERS = ("print", "editsection")
UNPRINTED_MAX_SHARE = 0.8
"""A box left out of print holding this share of the page's text or more is left alone: then
the page's own wrapper carries the class. A manual's sidebar can hold over half (0685: 0.49
of the page as served, more once its scripts are gone)."""

BROWSER_NOTICES = re.compile(
    r"browser-?upgrade|upgrade-?browser|outdated-?browser|browser-?outdated|unsupported-?browser"
    r"|browser-?unsupported|old-?browser|browsehappy|browser-?(?:warning|notice|update-notice)"
    r"|\bbuorg\b|\bie-?(?:warning|notice|banner)\b"
)
"""Class or id names (lower-cased) of a notice that the reader's browser is out of date or
unsupported ("Please update your browser to take advantage of the latest technology security
enhancements", B&H's ``upgradeBrowserWrapper``; HTML5 Boilerplate's ``browserupgrade``,
browser-update.org's ``buorg``, XenForo's ``js-browserWarning``): a site hides it from the
browsers it supports, and a reader that does not apply its style sheet shows it."""
BROWSER_NOTICES_MARKERS = ("browser", "buorg", "ie-", "iewarning", "ienotice", "iebanner")
BROWSER_NOTICES_MAX_SHARE = 0.5
"""A notice holding this share of the page's text or more is left alone (a page about
browser support)."""
