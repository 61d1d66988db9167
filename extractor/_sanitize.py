"""The one HTML sanitiser every emitted HTML goes through.

Built on nh3 (Python bindings to the Rust ammonia crate): an allowlist parser (html5ever, the
browser's parsing algorithm) that re-serialises what it keeps, so script, on* handlers,
javascript:/data: URLs, srcdoc, SVG/MathML tricks and mutation-XSS nesting cannot survive. We
chose it over lxml-html-clean, whose blocklist approach has had repeated bypasses, and over
bleach, which is deprecated.

On top of ammonia: every kept URL is normalised the way a browser reads it and its scheme
checked (ammonia leaves ``cite`` alone), characters that could end a Markdown link are
percent-encoded, and alt text loses the "<" that Markdown would read as raw HTML. The corpus in
fixtures/xss proves it (tests/unit/test_xss_corpus.py, tests/browser/test_xss_browser.py).

Three entry points: ``sanitize_html`` (content fragments: the extraction, the QA report's
blocks), ``sanitize_document`` (a whole page made a viewable, script-free document, for capture
bundles) and ``inert_page_html`` (``--save-html``: the captured page kept raw, a policy forbidding
its scripts put first).
"""

from __future__ import annotations

import html as html_escaping
import re

import nh3

from ._errors import EmptyInputError
from ._parse import parse_html

# Inert text structure and formatting only: nothing that loads or runs anything (script, style,
# link, iframe, object, embed, media), submits (form and its controls), changes how the rest of
# the page is parsed or resolved (base, meta, template, noscript, svg, math, raw-text elements)
# or draws over the page (dialog).
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
    # Language and direction change how text reads (right-to-left scripts): content, kept.
    # No title: tooltips carry no content, and Markdown link titles were one more way for page
    # text to break out of its quotes. No style, class (but see code/pre), id or data-*: they
    # carry presentation or script hooks, never content.
    "*": {"lang", "dir"},
    "a": {"href"},  # the link itself (its scheme checked, see URL_SCHEMES)
    "img": {"src", "alt", "width", "height"},  # the image, its text, its size (no srcset)
    "td": {"colspan", "rowspan"},  # table shape: without them cells land in the wrong column
    "th": {"colspan", "rowspan", "scope"},
    "ol": {"start", "reversed"},  # list numbering is content ("3." means something)
    "time": {"datetime"},  # the machine-readable date
    "q": {"cite"},  # the source of a quotation (a URL: its scheme checked like href)
    "blockquote": {"cite"},
    "code": {"class"},  # only language-* tokens survive (see _keep_language_class)
    "pre": {"class"},
}
URL_ATTRIBUTES = frozenset({"href", "src", "cite"})
"""Every allowed attribute that holds a URL: each is normalised and its scheme checked."""
_LANGUAGE_TOKEN = re.compile(r"^(?:language|lang)-[A-Za-z0-9_+#.-]{1,30}$")
URL_SCHEMES = frozenset(
    {
        "http",  # the web
        "https",
        "mailto",  # an author's address: opens a mail client, runs nothing
    }
)
"""Schemes a URL may have; relative URLs (no scheme) are kept. Left out on purpose: javascript:
and vbscript: (script), data: (script in SVG/HTML documents, and a page's placeholder images),
file: (the reader's own disk), blob:, filesystem:, about: and every app-specific scheme."""
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*):")
_C0_AND_SPACE = "".join(chr(code) for code in range(0x21))
_TAB_OR_NEWLINE = re.compile(r"[\t\n\r]")
# Percent-encoded in kept URLs: the characters a browser's URL parser encodes anyway (so the
# URL means the same), and which would otherwise let a URL end a Markdown link destination and
# start raw HTML there ("<img\tsrc=x\tonerror=...>" inside an href).
_URL_UNSAFE = re.compile(r"[\x00-\x20\x7f\"<>`]")
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
        attribute_filter=_filter_attribute,
    )


def safe_url(value: str) -> str | None:
    """``value`` normalised as a browser reads it, or None when its scheme is not allowed.

    The browser's URL parser strips leading and trailing control characters and spaces and
    drops every tab and newline before it reads the scheme ("jav&#9;ascript:" is javascript:);
    ammonia checks the scheme too, but not on every URL attribute (it keeps cite="javascript:").
    """
    url = _TAB_OR_NEWLINE.sub("", value.strip(_C0_AND_SPACE))
    scheme = _SCHEME.match(url)
    if scheme and scheme.group(1).lower() not in URL_SCHEMES:
        return None
    # Most URLs need no encoding: search first (cheap) rather than always rebuild the string.
    if _URL_UNSAFE.search(url):
        url = _URL_UNSAFE.sub(_percent_encoded, url)
    return url


def _percent_encoded(char: re.Match[str]) -> str:
    return f"%{ord(char.group()):02X}"


def _filter_attribute(tag: str, attribute: str, value: str) -> str | None:
    """Check URLs, keep only a code block's language class, and keep alt text from reading as
    Markdown's raw HTML."""
    if attribute in URL_ATTRIBUTES:
        return safe_url(value)
    if attribute == "class":
        return _keep_language_class(value)
    if attribute == "alt":
        # html-to-markdown writes alt text into ![...] without escaping "<", where CommonMark
        # reads raw HTML (commonmark.js even prints it unescaped inside the alt attribute).
        return value.replace("<", "\u2039") if "<" in value else value
    return value


def _keep_language_class(value: str) -> str | None:
    """Keep a code block's language (for fenced Markdown), drop every other class."""
    tokens = [token for token in value.split() if _LANGUAGE_TOKEN.match(token)]
    return " ".join(tokens) or None


SNAPSHOT_CSP = (
    "script-src 'none'; object-src 'none'; frame-src 'none'; worker-src 'none'; "
    "base-uri 'none'; form-action 'none'"
)
"""The policy ``inert_page_html`` gives a saved page: no script (inline, handlers, javascript:
URLs, refresh to them), plugin, frame, worker, <base> or form submission; images and styles
still load, so the page looks as it was captured."""
_ATTRIBUTES = r"""(?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*/?"""
_DOCUMENT_HEAD = re.compile(
    r"^\ufeff?(?:\s|<!--.*?-->)*(?:<!doctype[^>]*>)?(?:\s|<!--.*?-->)*"
    rf"(?:<html{_ATTRIBUTES}>)?(?:\s|<!--.*?-->)*(?:<head{_ATTRIBUTES}>)?",
    re.IGNORECASE | re.DOTALL,
)


def inert_page_html(page_html: str) -> str:
    """A captured page (``--save-html``) kept as the page's own markup, so it re-extracts the
    same, but with a Content-Security-Policy first in its head, so opening it in a browser runs
    none of its scripts. This is a capture of the page, not readermode's content: nothing else
    is removed, and a reader other than a browser (an editor, a crawler) sees the raw page."""
    meta = f'<meta http-equiv="Content-Security-Policy" content="{SNAPSHOT_CSP}">'
    start = _DOCUMENT_HEAD.match(page_html)
    end = start.end() if start else 0
    return page_html[:end] + meta + page_html[end:]


DOCUMENT_CSP = (
    "default-src 'none'; img-src http: https:; base-uri 'none'; form-action 'none'"
)
"""The policy of a sanitised document: a second wall behind the sanitiser (nothing in it may
run or load but images)."""
_DIRECTIONS = frozenset({"ltr", "rtl", "auto"})
_LANGUAGE_TAG = re.compile(r"^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$")


def sanitize_document(page_html: str) -> str:
    """A whole page as a viewable, script-free document: its body through ``sanitize_html``,
    its title (as text) and language kept, a Content-Security-Policy in its head (for the
    viewable copy in a capture bundle)."""
    title = lang = direction = ""
    try:
        document = parse_html(page_html)
    except EmptyInputError:  # an empty page is an empty document, not an error here
        document = None
    if document is not None:
        title = " ".join((document.findtext(".//title") or "").split())
        lang = (document.get("lang") or "").strip()
        direction = (document.get("dir") or "").strip().lower()
    root_attributes = (f' lang="{lang}"' if _LANGUAGE_TAG.match(lang) else "") + (
        f' dir="{direction}"' if direction in _DIRECTIONS else ""
    )
    return (
        f"<!DOCTYPE html>\n<html{root_attributes}><head><meta charset=\"utf-8\">"
        f'<meta http-equiv="Content-Security-Policy" content="{DOCUMENT_CSP}">'
        '<meta name="referrer" content="no-referrer">'
        f"<title>{html_escaping.escape(title)}</title></head>"
        f"<body>{sanitize_html(page_html).strip()}</body></html>\n"
    )
