"""Hypothesis strategies for realistic, hostile and broken web pages.

Pages are built as HTML *strings* from a random tree: article-ish containers, chrome (nav,
header, footer, aside), lists, tables, code, images, links, executable and embedded content
(script, style, iframe srcdoc, template, svg), with random attributes (hidden, aria-hidden,
display:none, sr-only/comment/sidebar class names, on* handlers, hostile URL schemes) and text
mixing English, Korean, Japanese, Chinese, punctuation, entities and arbitrary unicode.

Words that must never reach the output (script and style bodies, srcdoc, attribute values,
comments) are drawn from ``LEAK_WORDS`` only, which never occur in text, so a leak is visible.
"""

from __future__ import annotations

import codecs
import gzip
import html

from hypothesis import strategies as st

from extractor import (
    ExtractOptions,
    PageSnapshot,
    ReadabilityLxmlStage,
    ReadabilityResult,
    ScorerStage,
)

ENGLISH = (
    "the quiet harbour town woke slowly while fishermen mended their nets and "
    "children walked to school along the narrow cobbled streets past bakeries "
    "reader mode extracts article content from noisy pages with menus adverts "
    "river mountain library window morning evening coffee garden letter"
).split()
KOREAN = ["서울", "새벽시장의", "젊은", "상인들이", "전통을", "새롭게", "잇고", "있다"]
JAPANESE = [
    "東京の",
    "古い",
    "書店街で",
    "若い店主たちが",
    "新しい試みを",
    "始めている",
    "ひらがな",
    "カタカナ",
]
CHINESE = ["这座城市的", "老街", "正在经历", "一场安静的变化", "年轻人", "回来开店"]
PUNCTUATION = [
    ".",
    ",",
    "!",
    "?",
    ";",
    ":",
    "…",
    "—",
    "–",
    "(",
    ")",
    "«",
    "»",
    "「",
    "」",
    "。",
    "、",
    "！",
]
ENTITIES = [
    "&amp;",
    "&lt;",
    "&gt;",
    "&quot;",
    "&#39;",
    "&nbsp;",
    "&eacute;",
    "&copy;",
    "&mdash;",
    "&hellip;",
    "&#x263A;",
    "&#1234;",
    "&#x1F600;",
    "&amp;eacute;",  # must stay the text "&eacute;", never become "é"
    "&amp;lt;script&amp;gt;",
    "&bogus;",
    "&amp",
    "&",
]

# Words that appear only where the output must never show them (never in page text).
LEAK_WORDS = ["zqscriptleak", "zqstyleleak", "zqsrcdocleak", "zqattrleak", "zqcommentleak"]

CLASS_WORDS = [
    "comment",
    "comments",
    "comment-list",
    "sidebar",
    "sr-only",
    "visually-hidden",
    "screen-reader-text",
    "content",
    "article-body",
    "post",
    "entry",
    "nav",
    "menu",
    "footer",
    "ad-banner",
    "related",
    "share",
    "social",
    "newsletter",
    "main",
    "story",
]

# href/src values: relative, absolute, protocol-relative and hostile ones. Written verbatim
# into double-quoted attributes, so none of them contains a double quote.
URLS = [
    "page.html",
    "../img/photo.jpg",
    "/abs/path?q=1&amp;r=2",
    "#section-2",
    "http://example.com/article",
    "https://example.org/a/b.png",
    "HTTPS://EXAMPLE.NET/UPPER",
    "//cdn.example.com/lazy.jpg",
    "mailto:someone@example.com",
    "javascript:alert(1)",
    " JaVaScRiPt:alert(1)",
    "\tjava\nscript:alert(1)",
    "java&#x09;script:alert(1)",
    "&#106;avascript:alert(1)",
    "&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;alert(1)",
    "javascript&colon;alert(1)",
    "\x01javascript:alert(1)",
    "data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;",
    "data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=",
    " DATA:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "vbscript:msgbox(1)",
    "VBScript:msgbox(1)",
    "",
    " ",
]

# Attribute values that become Markdown (img alt, link and image titles): each tries to break out
# into a live link. Double quotes are written as &quot; so the HTML attribute stays intact.
MARKDOWN_TRAPS = [
    "x](javascript:alert(1)) [click me](javascript:alert(1)) ![y",
    "x&quot;) [click](javascript:alert(1)",
    "*zqattrleak* `zqattrleak` _zqattrleak_",
    "\\](data:text/html,x)",  # escaped: stays text
    "\\\\](data:text/html,x)",  # an escaped backslash, then a live "]("
    "zqattrleak\n\n[ref]: javascript:alert(1)",
    "&lt;javascript:alert(1)&gt;",
]

EVENT_HANDLERS = ["onclick", "onerror", "onload", "onmouseover", "ONCLICK", "OnFocus", "onauxclick"]

CONTAINERS = ["div", "article", "main", "section", "nav", "header", "footer", "aside", "span"]
INLINE = ["span", "a", "em", "strong", "b", "i", "code", "small", "mark", "q", "abbr", "time"]
HEADINGS = ["h1", "h2", "h3"]


# ---------------------------------------------------------------- text


def _join(parts: list[str]) -> str:
    return " ".join(parts)


english_text = st.lists(st.sampled_from(ENGLISH), min_size=1, max_size=14).map(_join)
cjk_text = st.lists(
    st.sampled_from(KOREAN + JAPANESE + CHINESE + ENGLISH[:6]), min_size=1, max_size=8
).map(_join)
punctuation = st.sampled_from(PUNCTUATION)
entity = st.sampled_from(ENTITIES)
# Arbitrary unicode, escaped so it stays text (raw "<" and "&" come from the mutations below).
unicode_text = st.text(max_size=20).map(lambda s: html.escape(s, quote=False))
whitespace = st.sampled_from([" ", "  ", "\n", "\n\n\n", "\t", "\u00a0", " \n  \t ", "\r\n", ""])

text = st.lists(
    st.one_of(english_text, english_text, cjk_text, punctuation, entity, unicode_text, whitespace),
    min_size=1,
    max_size=6,
).map("".join)

sentence = st.builds(
    lambda words, end: words + end,
    st.one_of(english_text, english_text, cjk_text),
    st.sampled_from([".", "!", "?", "。", "", ", and"]),
)
paragraph_text = st.lists(sentence, min_size=1, max_size=5).map(" ".join)


# ---------------------------------------------------------------- attributes


def _attr(name: str, value: str | None) -> str:
    return f" {name}" if value is None else f' {name}="{value}"'


url = st.sampled_from(URLS)
leak = st.sampled_from(LEAK_WORDS)

common_attribute = st.one_of(
    st.builds(
        _attr,
        st.sampled_from(["class", "id"]),
        st.lists(st.sampled_from(CLASS_WORDS), min_size=1, max_size=3).map(" ".join),
    ),
    st.just(_attr("hidden", None)),
    st.just(_attr("hidden", "until-found")),
    st.sampled_from([_attr("aria-hidden", "true"), _attr("aria-hidden", "false")]),
    st.sampled_from(
        [
            _attr("style", "display:none"),
            _attr("style", "DISPLAY : NONE"),
            _attr("style", "visibility: hidden"),
            _attr("style", "color: red"),
            _attr("style", "background:url(javascript:alert(1))"),
        ]
    ),
    st.builds(lambda h, w: _attr(h, f"alert(1); {w}"), st.sampled_from(EVENT_HANDLERS), leak),
    st.sampled_from([_attr("role", r) for r in ("main", "navigation", "banner", "contentinfo")]),
    st.sampled_from([_attr("lang", "ko"), _attr("dir", "rtl"), _attr("title", "zqattrleak")]),
    st.builds(lambda w: _attr("data-info", w), leak),
)
attributes = st.lists(common_attribute, max_size=3).map("".join)


# ---------------------------------------------------------------- elements


def _element(tag: str, attrs: str, children: list[str]) -> str:
    return f"<{tag}{attrs}>{''.join(children)}</{tag}>"


def _link(attrs: str, href: str, title: str | None, children: list[str]) -> str:
    title_attr = _attr("title", title) if title is not None else ""
    return f'<a href="{href}"{title_attr}{attrs}>{"".join(children)}</a>'


def _img(attrs: str, src: str, lazy: str | None, alt: str, leak_word: str) -> str:
    lazy_attr = _attr("data-src", lazy) if lazy is not None else ""
    return f'<img src="{src}"{lazy_attr} alt="{alt}" title="{leak_word}"{attrs}>'


images = st.builds(
    _img,
    attributes,
    url,
    st.none() | url,
    st.sampled_from(["", "a photo", "zqattrleak"] + MARKDOWN_TRAPS),
    st.sampled_from(LEAK_WORDS + MARKDOWN_TRAPS),
)

# Executable and embedded content: everything in here is LEAK_WORDS only.
script = st.builds(
    lambda w, kind: {
        "js": f"<script>var {w} = 1; document.write('<p>{w}</p>');</script>",
        "json": f'<script type="application/ld+json">{{"headline": "{w}"}}</script>',
        "unterminated-string": f"<script>if (a < b) {{ x = '{w}' }}</script>",
    }[kind],
    st.just("zqscriptleak"),
    st.sampled_from(["js", "json", "unterminated-string"]),
)
style = st.just(
    "<style>.zqstyleleak { display: block } p::before { content: 'zqstyleleak' }</style>"
)
iframe = st.sampled_from(
    [
        '<iframe srcdoc="&lt;p&gt;zqsrcdocleak&lt;/p&gt;&lt;script&gt;alert(1)&lt;/script&gt;">'
        "</iframe>",
        '<iframe src="javascript:alert(1)"></iframe>',
        '<iframe src="https://example.com/embed" title="zqattrleak"></iframe>',
    ]
)
template = st.just("<template><p>zqtemplateword in a template</p></template>")
svg = st.sampled_from(
    [
        '<svg width="10"><script>alert("zqscriptleak")</script><a href="javascript:alert(1)">'
        "<text>zqsvgword</text></a></svg>",
        '<svg><foreignObject><p onclick="alert(1)">zqsvgword</p></foreignObject></svg>',
        '<svg><style>.zqstyleleak{}</style><animate attributeName="href" '
        'to="javascript:alert(1)"/></svg>',
    ]
)
comment = st.just("<!-- zqcommentleak <p>zqcommentleak</p> -->")
noscript = st.just("<noscript><p>zqnoscriptword</p></noscript>")
void = st.sampled_from(["<br>", "<hr>", "<wbr>", "<br/>"])
hostile = st.one_of(script, style, iframe, template, svg, comment, noscript)

leaf = st.one_of(text, text, text, images, void, hostile)


def _extend(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    kids = st.lists(children, max_size=5)
    return st.one_of(
        st.builds(_element, st.sampled_from(CONTAINERS), attributes, kids),
        st.builds(_element, st.sampled_from(CONTAINERS), attributes, kids),
        st.builds(_element, st.just("p"), attributes, st.lists(children, max_size=4)),
        st.builds(_element, st.sampled_from(INLINE), attributes, kids),
        st.builds(_link, attributes, url, st.none() | st.sampled_from(MARKDOWN_TRAPS), kids),
        st.builds(_element, st.sampled_from(HEADINGS), attributes, st.lists(text, max_size=2)),
        st.builds(
            lambda tag, attrs, items: _element(tag, attrs, [f"<li>{i}</li>" for i in items]),
            st.sampled_from(["ul", "ol"]),
            attributes,
            st.lists(children, max_size=4),
        ),
        st.builds(
            lambda attrs, rows: _element(
                "table",
                attrs,
                ["<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows],
            ),
            attributes,
            st.lists(st.lists(children, min_size=1, max_size=3), max_size=3),
        ),
        st.builds(
            lambda lang, code: f'<pre><code class="language-{lang}">{code}</code></pre>',
            st.sampled_from(["python", "js", "c++"]),
            st.lists(st.one_of(text, whitespace), max_size=4).map("".join),
        ),
    )


tree = st.recursive(leaf, _extend, max_leaves=25)

# A page most extractions can succeed on: real paragraphs inside some container, plus noise.
paragraphs = st.lists(
    st.builds(lambda attrs, body: f"<p{attrs}>{body}</p>", attributes, paragraph_text),
    min_size=1,
    max_size=6,
).map("".join)

body = st.lists(st.one_of(tree, tree, paragraphs), min_size=1, max_size=5).map("".join)


def _page(kind: str, title: str, head_extra: str, body_html: str) -> str:
    if kind == "fragment":
        return body_html
    if kind == "body-only":
        return f"<body>{body_html}</body>"
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
        f"{head_extra}</head><body>{body_html}</body></html>"
    )


head_extra = st.lists(
    st.sampled_from(
        [
            '<meta name="description" content="zqattrleak description">',
            '<meta property="og:title" content="zqattrleak">',
            '<base href="https://example.com/base/">',
            '<base href="javascript:alert(1)//">',
            '<link rel="stylesheet" href="zqattrleak.css">',
            "<script>var zqscriptleak;</script>",
            "<style>body{}</style>",
        ]
    ),
    max_size=3,
).map("".join)

pages = st.builds(
    _page,
    st.sampled_from(["document", "document", "fragment", "body-only"]),
    st.one_of(english_text, st.just("")),
    head_extra,
    body,
)

base_urls = st.sampled_from(
    [None, "https://example.com/news/2024/story.html", "http://example.org/", "file:///tmp/a.html"]
)


# ---------------------------------------------------------------- broken and binary input

INSERTIONS = [
    "<",
    ">",
    "</div>",
    "</p>",
    "<p>",
    "<div",
    "<!--",
    "-->",
    "<![CDATA[",
    "]]>",
    "<script>",
    "</script>",
    "<style>",
    "<textarea>",
    "<plaintext>",
    "<xmp>",
    "<title>",
    "&",
    "&#",
    "&#x;",
    '"',
    "'",
    "=",
    "\x00",
    "\x0c",
    "\ufeff",
    "\ud800",
    '<?xml version="1.0" encoding="utf-8"?>',
    "<!DOCTYPE html>",
    "<body>",
    "</html>",
    "<frameset>",
    "<math><mi>x</mi></math>",
    "<select><option>",
    "<table><td>",
]


@st.composite
def mutated_pages(draw: st.DrawFn) -> str:
    """A valid page, then a few random deletions, insertions, duplications and truncations."""
    page = draw(pages)
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["delete", "insert", "duplicate", "truncate"]))
        i = draw(st.integers(0, len(page)))
        j = draw(st.integers(i, min(len(page), i + 80)))
        if op == "delete":
            page = page[:i] + page[j:]
        elif op == "insert":
            piece = draw(st.one_of(st.sampled_from(INSERTIONS), st.text(max_size=8)))
            page = page[:i] + piece + page[i:]
        elif op == "duplicate":
            page = page[:j] + page[i:j] + page[j:]
        else:
            page = page[:i] if draw(st.booleans()) else page[i:]
    return page


ENCODINGS = ["utf-8", "utf-16", "utf-8-sig", "cp949", "shift_jis", "gb18030", "cp1252", "latin-1"]


@st.composite
def encoded_pages(draw: st.DrawFn) -> bytes:
    """A page as bytes: some encoding, maybe a (true or false) meta charset, maybe gzipped."""
    page = draw(st.one_of(pages, mutated_pages()))
    encoding = draw(st.sampled_from(ENCODINGS))
    declared = draw(st.sampled_from([None, encoding, "utf-8", "euc-kr", "shift_jis", "bogus"]))
    if declared is not None:
        page = f'<meta charset="{declared}">' + page
    data = page.encode(encoding, "surrogatepass" if encoding.startswith("utf") else "replace")
    if encoding == "utf-8" and draw(st.booleans()):
        data = codecs.BOM_UTF8 + data
    if draw(st.integers(0, 9)) == 0:
        data = gzip.compress(data, mtime=0)
    return data


@st.composite
def mutated_bytes(draw: st.DrawFn) -> bytes:
    """Encoded pages with random bytes spliced in or cut out."""
    data = draw(encoded_pages())
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(data)))
        if draw(st.booleans()):
            data = data[:i] + draw(st.binary(max_size=16)) + data[i:]
        else:
            data = data[:i] + data[i + draw(st.integers(0, 64)) :]
    return data


raw_bytes = st.one_of(
    st.binary(max_size=300),
    st.builds(
        lambda magic, rest: magic + rest,
        st.sampled_from(
            [
                b"%PDF-",
                b"\x89PNG",
                b"GIF89a",
                b"\xff\xd8\xff",
                b"PK\x03\x04",
                b"\x1f\x8b",
                codecs.BOM_UTF16_LE,
                codecs.BOM_UTF32_BE,
                b"\xef\xbb\xbf",
            ]
        ),
        st.binary(max_size=100),
    ),
)

any_str = st.one_of(pages, mutated_pages(), st.text(max_size=200))
any_bytes = st.one_of(encoded_pages(), mutated_bytes(), raw_bytes)
any_source = st.one_of(any_str, any_bytes)


# ---------------------------------------------------------------- options and snapshots

# Every property must hold whichever stage wins and whichever pre-clean rules are on: the
# sanitiser and the text/Markdown conversion run after any stage.
options = st.sampled_from(
    [
        None,
        ExtractOptions(stages=(ScorerStage(),)),
        ExtractOptions(stages=(ReadabilityLxmlStage(),)),
        ExtractOptions(rules=frozenset()),
        ExtractOptions(rules=frozenset(), stages=(ScorerStage(),)),
        ExtractOptions(min_words=1),
    ]
)

# What the renderer hands over: the page's final DOM, maybe with Readability.js's result
# (which comes from the page and is as hostile as the page itself).
snapshots = st.builds(
    lambda html, content, title, url: PageSnapshot(
        html=html,
        url=url,
        final_url=url,
        readability=None if content is None else ReadabilityResult(content=content, title=title),
    ),
    st.one_of(pages, mutated_pages()),
    st.none() | st.one_of(tree, pages, mutated_pages(), st.just(""), st.just("   ")),
    st.none() | english_text | st.text(max_size=30),
    base_urls,
)
