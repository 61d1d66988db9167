"""The sanitiser's own rules (extractor/_sanitize.py): URL normalisation and schemes, the
attributes it rewrites, and the inert copy of a saved page. The corpus-wide proof is
test_xss_corpus.py."""

from __future__ import annotations

import time

import lxml.html
import pytest

from extractor import PageSnapshot, extract, html_to_markdown, sanitize_html
from extractor._sanitize import (
    DOCUMENT_CSP,
    SNAPSHOT_CSP,
    inert_page_html,
    safe_url,
    sanitize_document,
)
from tests.conftest import FIXTURES


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "JAVASCRIPT:alert(1)",
        "  javascript:alert(1)",
        "\x01\x1f javascript:alert(1)",
        "jav\tascript:alert(1)",
        "java\nscript:alert(1)",
        "javascript\r:alert(1)",
        "vbscript:msgbox(1)",
        "data:text/html,<script>alert(1)</script>",
        "DATA:image/svg+xml;base64,PHN2Zz4=",
        "file:///etc/passwd",
        "blob:https://a.test/1",
    ],
)
def test_unsafe_schemes_are_refused_as_a_browser_reads_them(url: str) -> None:
    assert safe_url(url) is None


@pytest.mark.parametrize(
    ("url", "kept"),
    [
        ("https://a.test/x?q=1#top", "https://a.test/x?q=1#top"),
        ("  http://a.test/\n", "http://a.test/"),
        ("mailto:ann@a.test", "mailto:ann@a.test"),
        ("/relative/path", "/relative/path"),
        ("page.html", "page.html"),
        # Characters that could end a Markdown link destination are percent-encoded (a browser
        # encodes them anyway); tabs and newlines go, as in the browser's URL parser.
        ("https://a.test/a b", "https://a.test/a%20b"),
        ('https://a.test/"><img src=x>', "https://a.test/%22%3E%3Cimg%20src=x%3E"),
        ("https://a.test/<b\tonclick=x>", "https://a.test/%3Cbonclick=x%3E"),
        ("https://a.test/`code`\x0c", "https://a.test/%60code%60"),
        ("https://a.test/\x0cx", "https://a.test/%0Cx"),
    ],
)
def test_safe_urls_are_kept_normalised(url: str, kept: str) -> None:
    assert safe_url(url) == kept


def test_cite_urls_are_checked_like_links() -> None:
    clean = sanitize_html(
        '<blockquote cite="javascript:alert(1)">a</blockquote><q cite=" jav&#9;ascript:x">b</q>'
        '<blockquote cite="https://a.test/source">c</blockquote>'
    )
    assert "javascript" not in clean
    assert 'cite="https://a.test/source"' in clean


def test_a_cited_javascript_url_never_becomes_a_markdown_link() -> None:
    """html-to-markdown writes a blockquote's cite as a link: the sanitiser must drop it first."""
    markdown = html_to_markdown(
        sanitize_html('<blockquote cite="javascript:alert(1)"><p>Quoted words.</p></blockquote>')
    )
    assert "javascript" not in markdown and "Quoted words." in markdown


def test_alt_text_cannot_read_as_markdown_html() -> None:
    clean = sanitize_html('<img src="https://a.test/i.png" alt="a <b onclick=x> c > d">')
    image = lxml.html.fragment_fromstring(clean)
    assert image.get("alt") == "a \u2039b onclick=x> c > d"
    assert "<b" not in html_to_markdown(clean)


def test_only_language_classes_survive() -> None:
    clean = sanitize_html(
        '<pre class="highlight language-python x"><code class="lang-js hljs">x</code></pre>'
        '<p class="language-python">p</p>'
    )
    assert clean == '<pre class="language-python"><code class="lang-js">x</code></pre><p>p</p>'


def test_sanitised_output_is_a_fixed_point() -> None:
    clean = sanitize_html(
        '<p lang="en">A <a href="https://a.test/a b">link</a>, <img src="x.png" alt="<i>">, '
        '<q cite="https://a.test/q">quote</q>.</p><!-- note --><script>x()</script>'
    )
    assert sanitize_html(clean) == clean
    assert "<!--" not in clean and "script" not in clean


# --- the inert copy of a saved page ---------------------------------------------------------


def _csp_in_head(page_html: str) -> bool:
    document = lxml.html.document_fromstring(page_html)
    metas = document.findall("head/meta[@http-equiv='Content-Security-Policy']")
    return [meta.get("content") for meta in metas] == [SNAPSHOT_CSP]


@pytest.mark.parametrize(
    "page_html",
    [
        "<!DOCTYPE html><html lang='en'><head><title>t</title></head><body><p>x</p></body></html>",
        '<!doctype html>\n<html data-x="a>b">\n<head profile="p">\n<script>x()</script>',
        "\ufeff<!-- saved --><!DOCTYPE html><HTML><HEAD><script>x()</script></HEAD><p>x</p>",
        "<p>a fragment, no head at all</p><script>x()</script>",
        "<html><body onload=x()><p>no head element</p></body></html>",
    ],
)
def test_inert_page_puts_its_policy_first_in_the_head(page_html: str) -> None:
    inert = inert_page_html(page_html)
    assert _csp_in_head(inert)
    assert inert.index("Content-Security-Policy") < inert.lower().find("<script") or (
        "<script" not in inert.lower()
    )
    # The page's own markup is otherwise untouched: take the policy out, get the page back.
    meta = f'<meta http-equiv="Content-Security-Policy" content="{SNAPSHOT_CSP}">'
    assert inert.replace(meta, "", 1) == page_html


def test_inert_page_keeps_doctype_first() -> None:
    """A policy before the doctype would switch the page into quirks mode."""
    assert inert_page_html("<!DOCTYPE html><p>x</p>").startswith("<!DOCTYPE html><meta ")


def test_inert_page_extracts_the_same() -> None:
    for source in sorted((FIXTURES / "pages").glob("*/source.html"))[:4]:
        page_html = source.read_text(encoding="utf-8", errors="replace")
        url = "https://site.test/article"
        before = extract(PageSnapshot(html=page_html, url=url))
        after = extract(PageSnapshot(html=inert_page_html(page_html), url=url))
        assert (after.html, after.markdown, after.metadata) == (
            before.html,
            before.markdown,
            before.metadata,
        ), source.parent.name


def test_inert_page_is_linear_on_hostile_starts() -> None:
    """Timed in this thread's CPU time: the wall clock of a busy machine measures the neighbours."""
    for page_html in (
        "<html" + " a=b" * 50_000,  # a start tag that never ends
        "<html" + " a" * 50_000 + ">",
        "<!--" * 50_000,  # comments that never close
        " " * 200_000 + "<head",
    ):
        started = time.thread_time()
        assert _csp_in_head(inert_page_html(page_html))
        assert time.thread_time() - started < 1.0


# --- a whole page as a viewable document ----------------------------------------------------


def test_sanitised_document_keeps_title_language_and_body() -> None:
    document = sanitize_document(
        '<html lang="pt-BR" dir="RTL" onload="x()"><head><title> Notícias &amp; </title>'
        "<script>x()</script><style>p{}</style></head><body><p onclick=x>Olá <b>mundo</b></p>"
        "</body></html>"
    )
    root = lxml.html.document_fromstring(document)
    assert root.attrib == {"lang": "pt-BR", "dir": "rtl"}
    assert root.findtext("head/title") == "Notícias &"
    assert lxml.html.tostring(root.find("body"), encoding="unicode") == (
        "<body><p>Olá <b>mundo</b></p></body>"
    )
    assert root.find("head/meta[@http-equiv]").get("content") == DOCUMENT_CSP


def test_sanitised_document_title_and_language_cannot_break_out() -> None:
    document = sanitize_document(
        '<html lang="en&quot; onload=&quot;x()" dir="ltr onclick=x()">'
        "<title></title><script>x()</script></title><p>text</p>"
    )
    root = lxml.html.document_fromstring(document)
    assert not root.attrib
    assert [child.tag for child in root.find("head")] == ["meta", "meta", "meta", "title"]
    assert "<script" not in document


def test_sanitised_document_of_an_empty_page() -> None:
    for page in ("", "  <!-- only a comment -->"):
        root = lxml.html.document_fromstring(sanitize_document(page))
        assert root.findtext("head/title") == ""
        assert not root.find("body").text_content().strip()
