"""Our preparation of a pre-cleaned tree for readability-lxml gives the tree its own would."""

from __future__ import annotations

import copy

import lxml.html
import pytest
from readability import Document

from extractor import ExtractOptions, PageSnapshot, extract
from extractor._parse import parse_html
from extractor._readability_parse import _needs_cleaner, prepare
from extractor._rules import PRECLEAN_RULES, apply_rules
from extractor._stages import STAGES_BY_NAME

# Everything the cleaner rewrites on a tree the rules leave it: scripted links (spaced out,
# percent-encoded, their colon too, in SVG's xlink:href, in a form action), unsafe and safe
# data: images, event handlers, inline styles (with a url()), an SVG <image>, links with
# surrounding space, a <base href> and readability's own hidden and display:none drops.
TRICKY = """<html><head><title>t</title><meta http-equiv="content-type" content="text/html">
<base href="https://example.org/dir/"></head><body onload="go()">
<div class="content" style="color: red; background: url(javascript:alert(1))">
<p onclick="x()">A paragraph with <a href=" javascript:alert(1) ">a scripted link</a>,
<a href="java%73cript:alert(2)">an encoded one</a>, <a href="java script:x">a spaced one</a>,
<a href="javascript%3Aalert(4)">one with its colon encoded</a>,
<a href="  relative/page.html  ">a spaced relative one</a> and <a href="mailto:a@b.c">mail</a>.</p>
<img src="data:image/svg+xml;base64,PHN2Zz4=" alt="svg"><img src="data:image/png;base64,iVBO">
<img src="photo.jpg" onerror="bad()" style="width:10px">
<svg><image xlink:href="javascript:alert(3)" href="pic.png"></image></svg>
<form action="vbscript:x"><button formaction="javascript:y">go</button></form>
<div hidden><p>hidden text</p></div><p style="display: none">gone</p>
<p style="visibility:hidden;">also gone</p><blockquote cite=" https://q.example/ ">q</blockquote>
</div></body></html>"""


def _cleaned(html: str) -> lxml.html.HtmlElement:
    document = parse_html(html)
    apply_rules(document, PRECLEAN_RULES)
    return document


def _readability_own(document: lxml.html.HtmlElement) -> bytes:
    tree = copy.deepcopy(document)
    return lxml.html.tostring(Document(tree)._parse(tree))


def _base_resolved(tree: lxml.html.HtmlElement) -> lxml.html.HtmlElement:
    """What readability-lxml's own parse does last, and ``prepare`` leaves to the cascade."""
    tree.resolve_base_href(handle_failures="discard")
    return tree


def test_fast_path_matches_readability_own_parse_but_for_the_base() -> None:
    document = _cleaned(TRICKY)
    assert not _needs_cleaner(document)
    ours = prepare(copy.deepcopy(document), "discard")
    assert ours.find(".//base") is not None  # the cascade's postprocess resolves links
    assert 'href="relative/page.html"' in lxml.html.tostring(ours, encoding="unicode")
    assert lxml.html.tostring(_base_resolved(ours)) == _readability_own(document)


def test_the_stage_result_links_resolve_against_the_base() -> None:
    prose = "A paragraph of the article that readability-lxml keeps as it is. " * 4
    page = (
        '<html><head><base href="https://example.org/dir/"></head><body><article>'
        f'<p>{prose}<a href="relative/page.html">a relative link</a></p>'
        f'<p>{prose}<img src="photo.jpg"></p><p>{prose}</p></article></body></html>'
    )
    result = extract(
        PageSnapshot(html=page, url="https://example.org/a/post.html"),
        options=ExtractOptions(stages=(STAGES_BY_NAME["readability-lxml"],)),
    )
    assert 'href="https://example.org/dir/relative/page.html"' in result.html
    assert 'src="https://example.org/dir/photo.jpg"' in result.html


@pytest.mark.parametrize(
    "extra",
    [
        "<script>var a = 1;</script>",
        "<style>p { color: red }</style>",
        '<object data="javascript:x" codebase="https://c.example/"><param name="movie" '
        'value="m.swf" valuetype="ref"></object>',
        '<meta http-equiv="Refresh" content="0; url=javascript:alert(1)">',
    ],
)
def test_what_the_rules_leave_goes_through_the_real_cleaner(extra: str) -> None:
    # Without the executable rule these stay in the tree: the cleaner itself must handle them.
    document = parse_html(TRICKY.replace("<body", extra + "<body", 1))
    apply_rules(document, PRECLEAN_RULES - {"executable"})
    assert _needs_cleaner(document)
    ours = prepare(copy.deepcopy(document), "discard")
    assert lxml.html.tostring(ours) == _readability_own(document)


def test_hidden_and_styled_elements_left_by_the_rules_drop_once() -> None:
    # With the hidden rule off, an element both [hidden] and display:none reaches readability.
    page = TRICKY.replace(
        "<div hidden>", '<div hidden="until-found" style="display:none"><p>x</p></div><div hidden>'
    )
    document = parse_html(page)
    apply_rules(document, PRECLEAN_RULES - {"hidden"})
    assert not _needs_cleaner(document)
    ours = prepare(copy.deepcopy(document), "discard")
    assert lxml.html.tostring(_base_resolved(ours)) == _readability_own(document)
