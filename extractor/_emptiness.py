"""Pages with no main content say so: an error page, a login wall, a paywall, an age gate,
a bot check, an empty listing.

Such a page still has words (a "Page not found" line, a sign-in form, a "No results found"
notice, the site's menus), and the cascade reads them as if they were the page. A RAG index
fed that reading fills with boilerplate. ``judge_emptiness`` looks at what was read (short)
and at what the page says it is (its title, headings and form fields): when both agree the
page has no content, the extraction raises ``NoContentError`` with the reason; when only the
page's title says so ("Page not found" over a long reading), the reading stands with a
warning. The switch is ``no-content`` in ``ExtractOptions.rules`` (``--keep no-content``
reads such pages as any other).

Every sign needs the reading to be short (``SHORT_READING`` words): a long article whose
title says "404" (a story about an error code) or whose sidebar holds a sign-in form is
read as usual.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml.html import HtmlElement

from ._text import count_words

SHORT_READING = 150
"""A reading of fewer words can be an error page's, a login wall's or a bot check's notice
with the site's leftovers; a longer one is read as content, whatever its title says."""

LOGIN_READING = 60
"""A reading this short that speaks of signing in, on a page with a password field, is the
sign-in form's own text ("Sign in to continue reading", "Forgot your password?"); one this
short over a paywall's pitch is the headline and the pitch, and one asking the reader's age
is an age gate."""

EMPTY_LISTING_WORDS = 80
"""A listing that says "No results found" is empty when its reading is shorter than this: a
search page keeps its filters and suggestions beside the notice, not records."""

_STATUS = r"(?:40[0-4]|410|451|50[0-4])"
_MISSING_PAGE = (
    r"page (?:not|cannot be|can ?not be|could not be|can't be) found|"
    r"(?:page|file|content|article) (?:does not|doesn't|no longer) exists?|"
    r"(?:can't|cannot|can not|couldn't|could not|unable to) (?:find|locate) "
    r"(?:that|this|the|your) page|(?:this|that|the) page (?:isn't|is not|is no longer) available|"
    r"page you(?: requested|(?: are| were|'re) looking for) (?:was not|wasn't|could not be|"
    r"can't be|cannot be|does not|doesn't|no longer|is not|isn't|may have|has been)"
)

_ERROR_TITLE = re.compile(
    rf"\b{_STATUS}\b.*\b(?:error|not found|forbidden|unavailable|gone|unauthori[sz]ed|"
    rf"bad request|bad gateway|timeout)\b|\b(?:error|not found|forbidden)\b.*\b{_STATUS}\b|"
    rf"{_MISSING_PAGE}|\bnot found\W*$|^not found\b|page unavailable|internal server error|"
    r"service (?:temporarily )?unavailable|something went wrong|"
    r"(?:scheduled|planned|under|undergoing|down for) maintenance|maintenance mode|"
    r"we(?:'ll| will) be back (?:soon|shortly|online)|"
    r"(?:this|the) (?:listing|job|job posting|posting|offer|ad|advert|event) (?:is no longer "
    r"available|has expired|has been removed)|"
    r"an? (?:unexpected |unknown |internal )?error (?:has )?occurred",
    re.IGNORECASE,
)
"""A title or top heading that names an HTTP error, a missing page or a failure ("404 Not
Found", "Page not found", "Error 500", "This page doesn't exist", "Oops! We can't find that
page", "Something went wrong"), or a site down for maintenance ("Scheduled maintenance",
"We'll be back soon!")."""

_ERROR_TITLE_ITSELF = re.compile(rf"^\W*(?:error\W*)?{_STATUS}\b|{_MISSING_PAGE}", re.IGNORECASE)
"""The same, said as the page's own title (it begins with the code, or says the page is not
found): only this earns a warning on a long reading, as a story about "404 errors" is not
an error page."""

_BOT_CHECK = re.compile(
    r"just a moment\b|attention required|verify (?:that )?you are (?:a )?human|"
    r"are you a (?:robot|human)|pardon our interruption|access (?:to this page has been )?"
    r"denied|checking (?:if the site connection is secure|your browser)|"
    r"enable (?:javascript and )?cookies to continue|unusual traffic|press (?:&|and) hold|"
    r"captcha",
    re.IGNORECASE,
)
"""A bot check's or a firewall's words: Cloudflare's "Just a moment...", "Attention
Required!", PerimeterX's "Press & Hold", Distil's "Pardon Our Interruption", "Access
Denied"."""

_SIGN_IN = re.compile(
    r"\b(?:sign|log)[ -]?in\b|\blogin\b|\bpassword\b|\bauthenticat|create (?:an |your )?account",
    re.IGNORECASE,
)
"""Words of a sign-in form: its title, heading, labels or button."""

_RECORDS = r"(?:results|matches|products|items|listings|jobs|posts|articles|entries|records)"
_NO_RESULTS = re.compile(
    rf"\bno {_RECORDS}(?: were)? (?:found|match|matched|matching|available)|"
    r"\b0 (?:results|matches|products|listings|jobs)\b|"
    r"(?:your search|search for .{1,80}) (?:returned|did not match|found) no|"
    rf"there (?:are|were) no {_RECORDS}|"
    r"nothing (?:matched|found|to show)|no (?:results|products) to (?:show|display)|"
    r"(?:couldn't|could not|can't|cannot|didn't|did not|were unable to) find "
    rf"(?:anything|any {_RECORDS}|{_RECORDS}) (?:matching|for|that match)|"
    r"(?:this|the) (?:collection|category|list) is (?:currently )?empty",
    re.IGNORECASE,
)
"""An empty listing's notice ("No results found", "0 items", "Your search returned no
matches", "There are no products in this category", "Sorry, we couldn't find any products
matching ...", Magento's "We can't find products matching the selection.", "This collection
is empty"). A cart's "Your cart is empty" or "0 items" is not
one: shops print it in the drawer of every page."""


_PAYWALL = re.compile(
    r"subscribe (?:now |today )?to (?:keep|continue) reading|"
    r"(?:subscribe|sign up|register|log ?in|sign in) (?:now |today )?to (?:read|unlock|access) "
    r"(?:the full|the rest of|this|the whole) (?:article|story)|"
    r"(?:reached|used) (?:your|all (?:of )?your|the) (?:limit|maximum|monthly limit|\d+)"
    r"(?: number)?(?: of)? free (?:articles|stories|reads)|"
    r"(?:this|the) (?:article|story|content) is (?:only |exclusively )?(?:available|reserved) "
    r"(?:to|for) (?:subscribers|members|premium)|"
    r"to (?:continue|keep) reading,? (?:please )?(?:subscribe|sign in|log in|register|"
    r"become a (?:member|subscriber))",
    re.IGNORECASE,
)
"""A subscription wall's pitch, where the story stops: "Subscribe to keep reading", "You have
reached your limit of free articles", "This article is available to subscribers only", "To
continue reading, please subscribe"."""


_AGE_GATE = re.compile(
    r"\b(?:are you|you must be|you need to be) (?:of (?:the )?legal (?:drinking |smoking )?age|"
    r"(?:over|at least|aged?) 1[89]|(?:over|at least|aged?) 21|1[89] or older|21 or older)|"
    r"\bverify your age\b|\benter your (?:date of )?birth\b",
    re.IGNORECASE,
)
"""An age gate's question: "Are you of legal drinking age?", "You must be 18 or older to
enter", "Verify your age", "Enter your date of birth". Asked of the reader: a story about
age verification laws names them otherwise."""


@dataclass(frozen=True)
class Emptiness:
    """What a page with no main content is, and why we think so."""

    kind: str
    """``error page``, ``bot check``, ``login wall``, ``paywall``, ``age gate`` or ``empty
    listing``."""
    reason: str
    certain: bool
    """True: the page has nothing to read (``NoContentError``); False: a warning only."""

    def message(self) -> str:
        """The error's or the warning's text."""
        if self.certain:
            return f"no main content: the page is {_article(self.kind)} ({self.reason})"
        return f"low confidence: the page may be {_article(self.kind)} ({self.reason})"


def _article(kind: str) -> str:
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


def judge_emptiness(document: HtmlElement, reading: str) -> Emptiness | None:
    """Whether the page whose cleaned parse is ``document`` and whose reading (the
    extraction's text) is ``reading`` has no main content, or may have none."""
    words = count_words(reading)
    reading = _plain(reading)
    titles = _titles(document)
    if words >= SHORT_READING:
        error = _first_match(_ERROR_TITLE_ITSELF, titles)
        if error is not None:
            return Emptiness("error page", f"its title says {error!r}", certain=False)
        return None
    for kind, pattern in (("error page", _ERROR_TITLE), ("bot check", _BOT_CHECK)):
        found = _first_match(pattern, titles)
        if found is not None:
            return Emptiness(kind, f"its title says {found!r}, and {words} words", certain=True)
    login = _login_wall(document, titles, reading, words)
    if login is not None:
        return login
    bot = _BOT_CHECK.search(reading)
    if bot is not None:
        return Emptiness("bot check", f"it says {bot.group(0)!r}, and {words} words", certain=True)
    if words < LOGIN_READING and (gate := _AGE_GATE.search(reading)) is not None:
        reason = f"it says {gate.group(0)!r}, and {words} words"
        return Emptiness("age gate", reason, certain=True)
    paywall = _PAYWALL.search(reading)
    if paywall is not None:
        # Under the wall's pitch a short reading is the headline and the pitch; a longer one
        # also holds the story's opening, which is content, if not all of it.
        reason = f"it says {paywall.group(0)!r}, and {words} words"
        return Emptiness("paywall", reason, certain=words < LOGIN_READING)
    if words < EMPTY_LISTING_WORDS and (empty := _NO_RESULTS.search(reading)) is not None:
        reason = f"it says {empty.group(0)!r}, and {words} words"
        return Emptiness("empty listing", reason, certain=True)
    # The notice is often the page's <h1> ("No results found for 'xyzzy'"), which the reading
    # may have dropped as the headline rewording the <title>; over a shelf of bestsellers
    # and search tips the reading runs longer: then only a warning.
    if (headline := _first_match(_NO_RESULTS, titles)) is not None:
        reason = f"its headline says {headline!r}, and {words} words"
        return Emptiness("empty listing", reason, certain=words < EMPTY_LISTING_WORDS)
    return None


def _login_wall(
    document: HtmlElement, titles: list[str], reading: str, words: int
) -> Emptiness | None:
    """A sign-in form is the page: a password field in what is left after the pre-clean
    rules (a header's sign-in box went with the chrome), and the title or the top heading
    speaking of signing in, or a reading of under ``LOGIN_READING`` words that does (a
    short news brief beside a members' login box keeps its title)."""
    password = document.find(".//input[@type='password']")
    if password is None:
        return None
    said = _first_match(_SIGN_IN, titles)
    if said is None and words < LOGIN_READING and (in_reading := _SIGN_IN.search(reading)):
        said = in_reading.group(0)
    if said is None:
        return None
    return Emptiness("login wall", f"a password field, {said!r} and {words} words", certain=True)


def _titles(document: HtmlElement) -> list[str]:
    """The page's ``<title>`` and its first ``<h1>``, whitespace collapsed."""
    found = [document.findtext(".//title") or ""]
    heading = next(document.iter("h1"), None)
    if heading is not None:
        found.append(heading.text_content())
    return [_plain(" ".join(text.split())) for text in found if text and text.strip()]


def _plain(text: str) -> str:
    """``text`` with typographic apostrophes made plain: pages write "can’t" as often as
    "can't", and the patterns spell the plain one."""
    return text.replace("\u2019", "'").replace("\u02bc", "'")


def _first_match(pattern: re.Pattern[str], texts: list[str]) -> str | None:
    for text in texts:
        if pattern.search(text):
            return text
    return None
