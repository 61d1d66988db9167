"""Calls to action and interface controls that stand alone: "Sign in", "Get started",
"Add to cart", "Edit this page on GitHub", "Was this page helpful?".

Service, product and documentation pages put them between their sections, inside the
container every stage keeps, so no container-level judge can drop them; the wcxb-dev ground
truth lists them among the snippets an extraction must not contain. They are told by their
words, and only when nothing else stands beside them in their block: "please contact us for
details" in a sentence is content, a lone "Contact us" button is not. Phrases that annotators
keep as content ("Read more" under a teaser) are left out on purpose. A lone "Learn more" is
in: on all 1,497 wcxb-dev pages it stood beyond the ground truth on 57 and in it on 15, and
taking it moved services 0.8450 -> 0.8454 and all pages 0.8688 -> 0.8689 (``without`` 357 ->
355; three pages lost 0.01 to 0.02).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from lxml.html import HtmlElement

from ._text import HEADING_TAGS

_CONTROL_TAGS = ("a", "button")
BUTTON_MAX_WORDS = 4
"""A button's label of more words is a sentence the page says (a question, a card's title)."""
# Elements whose text the phrases below may be the whole of, besides links and buttons.
_UI_TAGS = ("a", "button", "p", "span", "div", "h2", "h3", "h4", "h5", "h6", "label", "summary")
_INLINE = frozenset({"span", "strong", "b", "em", "i", "small", "font", "u", "mark", "label"})
_INLINE_NEIGHBOURS = _INLINE | {"a", "code", "abbr", "time", "sup", "sub", "cite", "q"}

_EDGES = re.compile(r"^[\W_]+|[\W_]+$")
_SPACES = re.compile(r"\s+")
_ACTION = re.compile(
    r"(?:log|sign) ?(?:in|on|up|out)(?: (?:now|here|free|for free|today))?"
    r"|register(?: (?:now|here|today|for free))?|create (?:an |your |a )?(?:free )?account"
    r"|join (?:now|free|for free|today|us)|my account"
    r"|get started(?: (?:now|free|for free|today|here))?"
    r"|get (?:a |an |your )?(?:free )?(?:quote|demo|estimate|consultation|offer)"
    r"|(?:start|claim|begin) (?:your |a )?(?:free )?(?:trial|demo)|free trial"
    r"|(?:start|try)(?: it| us)? (?:now|free|for free|today|building|sharing|here)"
    r"|(?:book|request|schedule|watch) (?:a |an |your )?(?:free |live )?(?:demo|quote|call"
    r"|consultation|strategy call|pricing|estimate|callback|meeting|tour|appointment|webinar)"
    r"(?: online| now| today)?"
    r"|(?:book|reserve) (?:now|online|today|this room|a table|your (?:stay|room|table|seat))"
    r"|request (?:info|information|more information|a proposal)"
    r"|(?:contact|call|email|message) (?:us|sales|an expert|our team)(?: (?:today|now))?"
    r"|(?:talk|speak|chat) (?:to|with) (?:us|sales|an? (?:expert|specialist|advisor|consultant)"
    r"|our team|someone)|get in touch|let[’']?s (?:talk|connect|chat)"
    r"|see (?:plans|pricing|all plans)|view (?:plans|pricing|webinar|demo)"
    r"|(?:download|apply|subscribe|buy|shop|order|enrol|enroll|install|record|donate) "
    r"(?:now|today|here)|subscribe|apply"
    r"|add to (?:cart|basket|bag|wishlist|wish ?list|compare|comparison|favou?rites|registry)"
    r"|(?:choose|select) options|view profile|report content"
    r"|learn more|edit (?:this page|on github)(?: on github)?|copy (?:for llm|page|link)"
    r"|view as markdown|print(?: view| this (?:page|article|post|topic|thread))?"
    r"|ask about this (?:section|page)|reply with quote|ask (?:a )?question|upvote|downvote"
    # A post's own controls on a thread (Hacker News's "reply" under each comment).
    r"|reply|quote|permalink|report(?: (?:post|comment|abuse))?|flag"
    # The legal links of a site's footer, wherever the page repeats them.
    r"|privacy(?: policy| notice| statement| settings| choices)?|your privacy choices"
    r"|terms(?: of (?:service|use|sale))?|terms (?:and|&) conditions|legal(?: notice)?"
    r"|cookies?(?: policy| settings| preferences| notice)?|accessibility(?: statement)?"
    r"|imprint|impressum|sitemap|refunds?(?: policy)?|(?:\w+ )?(?:subscriber|user) agreement"
    r"|do not sell(?: or share)? my personal information"
)
_INTERFACE = re.compile(
    r"was this (?:page|article|answer) helpful|rate this (?:page|article)|back to top"
    r"|click to expand|open table of contents(?: panel)?|jump to"
    # A results grid's controls and a recommendation box's heading, left behind alone when
    # the box's items go (its links) or stand elsewhere.
    r"|sort(?: by| and filter)?|show (?:more|less|all)|load more|see (?:more|all)"
    # A results list's sort line with its choices (Indeed's "Sort by: relevance - date").
    r"|sort(?:ed)? by:?(?: [\w-]+){1,2}(?: ?[-|·/] ?[\w-]+){1,4}"
    r"|view (?:all|more)|more options|quick view|compare|skip listing|all activity"
    r"|you (?:may|might) (?:also )?like|recommended for you|more like this|product categories"
    r"|(?:we found )?other products you (?:may|might) (?:also )?like"
    r"|related (?:posts|articles|stories|content|reading)|recently viewed|new posts"
    # A post's sharing and liking widgets (WordPress: "Like this:", "Like Loading...").
    r"|share(?: this(?: post| page| article| topic)?)?|like this|like loading"
    r"|leave a (?:comment|reply)|your answer|link to (?:this )?(?:post|comment|reply)"
    r"|did this (?:page|article) help(?: you)?|remember me|write (?:your own|a) review"
    r"|quick reply|post (?:a )?reply"
    # A list's pager, left alone where the facets rule does not run (an article-typed front).
    r"|(?:next|previous|prev) page|(?:older|newer) (?:posts|entries|articles|stories)"
    r"|page \d+ of [\d,]+"
    r"|join (?:the )?(?:waiting ?list|wait-?list)"
)


def normalised(text: str) -> str:
    """``text`` as the phrases match it: lower case, one space, no punctuation at the ends."""
    return _EDGES.sub("", _SPACES.sub(" ", text).strip().lower())


_COPYRIGHT = re.compile(r"\s*(?:©|copyright\b|\(c\)\s*(?:19|20)\d\d)", re.IGNORECASE)
_COPYRIGHT_SIGN = re.compile(r"©|\(c\)|rights reserved", re.IGNORECASE)
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
NOTICE_MAX_WORDS = 8
"""A notice without the sign or "rights reserved" is a name and a year, no sentence."""
COPYRIGHT_MAX_CHARS = 250
"""A copyright notice ("© 2026 Netlify", "Copyright © 2016–2024 Acme Software Foundation. All
rights reserved.") is the site's legal line, as its footer's links are: on wcxb-dev 21
readings held one and no ground truth did. It names a year and bears the sign or reserves the
rights; a line "© guoya / Getty Images" is a picture's credit (the captions refinement's)."""


_NOTICE_TAGS = frozenset({"p", "div", "small", "span"})


def is_copyright_notice(text: str) -> bool:
    """Whether ``text`` is a copyright notice and nothing else."""
    if len(text) > COPYRIGHT_MAX_CHARS or _COPYRIGHT.match(text) is None:
        return False
    if "rights reserved" in text.lower():
        return True
    signed = _COPYRIGHT_SIGN.search(text) is not None or len(text.split()) <= NOTICE_MAX_WORDS
    return signed and _YEAR.search(text) is not None


_LOADING = re.compile(
    r"\W*loading(?: [\w-]+){0,2} ?(?:\.{2,}|…)(?: ?please wait ?(?:\.{2,}|…)?)?", re.IGNORECASE
)
"""A script's loading indicator left as served ("Loading...", "Loading paragraph...",
"Loading image…", "Loading... Please wait..."): its ellipsis says so; "Loading" alone or a
heading "Loading times" may be the page's own words."""


def _phrase_elements(root: HtmlElement) -> Iterator[HtmlElement]:
    for el in root.iter(*_UI_TAGS, "small"):
        text = el.text_content()
        if el.tag in _NOTICE_TAGS and is_copyright_notice(text):
            yield el
            continue
        if (
            len(text) <= 60
            and "oading" in text.lower()
            and _LOADING.fullmatch(" ".join(text.split()))
        ):
            yield el
            continue
        if len(text) > 60 or not text.strip():
            continue
        words = normalised(text)
        if (el.tag in _CONTROL_TAGS and _ACTION.fullmatch(words)) or _INTERFACE.fullmatch(words):
            yield el
        elif el.tag == "button" and _is_plain_button(el, words):
            yield el


def _is_plain_button(button: HtmlElement, words: str) -> bool:
    """A button that does something, not one that opens a panel (an FAQ's question, an
    accordion's title) or a tab: GitHub's "Go to file" and "Code", a "Copy" over a sample."""
    if button.get("aria-expanded") is not None or button.get("aria-controls"):
        return False
    if button.get("role") == "tab" or not 0 < len(words.split()) <= BUTTON_MAX_WORDS:
        return False
    return not _is_whole_heading(button, words)


def _is_whole_heading(button: HtmlElement, words: str) -> bool:
    """Whether ``button`` is all of the heading it sits in: an accordion's toggle whose script
    sets no ``aria-expanded`` ("<h3><button>Shipping</button></h3>"), its label the title of
    the section below it."""
    heading = _heading_around(button)
    return heading is not None and normalised(heading.text_content()) == words


def _heading_around(element: HtmlElement) -> HtmlElement | None:
    return next((a for a in element.iterancestors() if a.tag in HEADING_TAGS), None)


def _rest(element: HtmlElement, found: set[HtmlElement]) -> tuple[str, int]:
    """The words of ``element`` outside the phrase elements in it, and how many those are."""
    rest, count = element.text_content(), 0
    for inner in element.iter(*_UI_TAGS):
        if inner in found:
            rest = rest.replace(inner.text_content(), " ", 1)
            count += 1
    return normalised(rest), count


def _line_of(element: HtmlElement, found: set[HtmlElement]) -> tuple[HtmlElement, int]:
    """The outermost inline wrapper of ``element`` holding no words but phrase elements'
    (``<strong><a>…``, a ``<span>`` of legal links), and how many phrase elements it holds."""
    line, count = element, 1
    while (parent := line.getparent()) is not None and parent.tag in _INLINE:
        words, held = _rest(parent, found)
        if words:
            break
        line, count = parent, held
    return line, count


def stands_alone(element: HtmlElement, found: set[HtmlElement]) -> bool:
    """Whether ``element`` is a line of its own: in a group of phrase elements with nothing
    else, or with no words before or after it and no inline neighbour with words."""
    line, count = _line_of(element, found)
    if count > 1:
        return True
    if (parent := line.getparent()) is None:
        return False
    before, after = line.getprevious(), line.getnext()
    text_before = before.tail if before is not None else parent.text
    if normalised(text_before or "") or normalised(line.tail or ""):
        return False
    return not any(
        neighbour is not None
        and neighbour.tag in _INLINE_NEIGHBOURS
        and neighbour not in found
        and normalised(neighbour.text_content())
        for neighbour in (before, after)
    )


def select_standalone_actions(root: HtmlElement) -> list[HtmlElement]:
    """The phrase elements of ``root`` that stand on a line of their own, and the plain
    buttons inside a heading (rustdoc's "Copy item path" in its ``<h1>``, a heading's "Copy
    link"): a heading's words are its title, never its controls."""
    found = list(_phrase_elements(root))
    chosen = set(found)
    return [el for el in found if stands_alone(el, chosen) or _in_heading_button(el)]


def _in_heading_button(element: HtmlElement) -> bool:
    """A plain button inside a heading that says more than the button does (a heading that
    is all button is an accordion's toggle: its label is the section's title)."""
    if element.tag != "button":
        return False
    heading = _heading_around(element)
    if heading is None:
        return False
    return normalised(heading.text_content()) != normalised(element.text_content())
