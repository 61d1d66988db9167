"""The one HTML sanitiser every emitted HTML goes through.

Built on nh3 (Python bindings to the Rust ammonia crate): an allowlist parser that re-serialises
what it keeps, so script, on* handlers, javascript:/data: URLs, srcdoc, SVG/MathML tricks and
mutation-XSS nesting cannot survive. We chose it over lxml-html-clean, whose blocklist approach
has had repeated bypasses, and over bleach, which is deprecated.
"""

from __future__ import annotations

import re

import nh3

ALLOWED_TAGS = frozenset(
    {
        "a",
        "abbr",
        "b",
        "bdi",
        "bdo",
        "blockquote",
        "br",
        "caption",
        "cite",
        "code",
        "col",
        "colgroup",
        "dd",
        "del",
        "details",
        "dfn",
        "div",
        "dl",
        "dt",
        "em",
        "figcaption",
        "figure",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "hr",
        "i",
        "img",
        "ins",
        "kbd",
        "li",
        "mark",
        "ol",
        "p",
        "pre",
        "q",
        "rp",
        "rt",
        "ruby",
        "s",
        "samp",
        "small",
        "span",
        "strong",
        "sub",
        "summary",
        "sup",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "time",
        "tr",
        "u",
        "ul",
        "var",
        "wbr",
    }
)
ALLOWED_ATTRIBUTES = {
    # No title: tooltips carry no content, and Markdown link titles were one more way for page
    # text to break out of its quotes.
    "*": {"lang", "dir"},
    "a": {"href"},
    "img": {"src", "alt", "width", "height"},
    "td": {"colspan", "rowspan"},
    "th": {"colspan", "rowspan", "scope"},
    "ol": {"start", "reversed"},
    "time": {"datetime"},
    "q": {"cite"},
    "blockquote": {"cite"},
    "code": {"class"},  # only language-* tokens survive (see _keep_language_class)
    "pre": {"class"},
}
_LANGUAGE_TOKEN = re.compile(r"^(?:language|lang)-[A-Za-z0-9_+#.-]{1,30}$")
URL_SCHEMES = frozenset({"http", "https", "mailto"})
# Tags whose content is dropped with them (not unwrapped into text).
CLEAN_CONTENT_TAGS = frozenset(
    {
        "script",
        "style",
        "template",
        "noscript",
        "iframe",
        "svg",
        "math",
        "textarea",
        "select",
        "object",
        "embed",
        "title",
        "head",
        "frameset",
        "noembed",
        "noframes",
        "xmp",
        "plaintext",
    }
)


def sanitize_html(html: str) -> str:
    """Return ``html`` with everything outside the allowlist removed."""
    return nh3.clean(
        html,
        tags=set(ALLOWED_TAGS),
        clean_content_tags=set(CLEAN_CONTENT_TAGS),
        attributes={tag: set(attrs) for tag, attrs in ALLOWED_ATTRIBUTES.items()},
        url_schemes=set(URL_SCHEMES),
        link_rel=None,
        strip_comments=True,
        attribute_filter=_keep_language_class,
    )


def _keep_language_class(tag: str, attribute: str, value: str) -> str | None:
    """Keep a code block's language (for fenced Markdown), drop every other class."""
    if attribute != "class":
        return value
    tokens = [token for token in value.split() if _LANGUAGE_TOKEN.match(token)]
    return " ".join(tokens) or None
