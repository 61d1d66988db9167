"""Property tests of ``extractor.extract`` on random, hostile, broken and binary pages.

Inputs come from ``strategies``: random trees of realistic markup with hostile attributes and
URLs, mutated (sliced, spliced) pages, pages encoded in several charsets, raw bytes, lxml trees
and renderer snapshots carrying a (just as hostile) Readability.js result; each is extracted
with the default options or with one stage / no pre-clean rules. One test per property:

1. any input gives an Extraction or a ReadermodeError, nothing else
2. a caller's lxml tree is left exactly as it was
3. the same input twice gives the same to_dict() (but the trace's wall-clock ``ms``)
4. output HTML has no executable markup or dangerous URL; Markdown has no dangerous link
5. every word of the output text is made of whole words of the input's text nodes
6. to_dict()/to_json() agree with the attributes; every word of .text is in the Markdown
7. the text's whitespace is tidy (no blank-line runs, no stray or double spaces)
8. our own stages never crash, and no path lets control characters through

An ``@example`` is a page that broke a property once (kept so it is always tried).
"""

from __future__ import annotations

import html as html_lib
import json
import re

import lxml.etree
import lxml.html
import strategies as s
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

import extractor
from extractor import Extraction, PageSnapshot, ReadabilityResult, ReadermodeError

# Pages that broke a property at some point: kept as explicit examples so they are always tried.
# (Fixed: alt/title text breaking out into live Markdown links, stripped <div>s gluing words,
# "Wow!" before a link reading as an image.)
MARKDOWN_ALT_INJECTION = (
    '<p>Some words here <img src="http://example.com/i.png" '
    'alt="x](javascript:alert(1)) [click me](javascript:alert(1)) ![y"> and more.</p>'
)
MARKDOWN_TITLE_INJECTION = (
    '<p>Some words here <a href="http://example.com/" '
    'title="x&quot;) [click](javascript:alert(1)">a link</a> and more.</p>'
)
MARKDOWN_ALT_AUTOLINK = '<p>Some words <img src="a.png" alt="&lt;javascript:alert(1)&gt;"></p>'
MARKDOWN_DIV_GLUE = "<div>first<div>second</div> third words</div>"
MARKDOWN_BANG_LINK = '<p>Wow!<a href="http://example.com/">link text</a> and more.</p>'

# Bugs these properties found, fixed since (control characters in the Readability.js result
# crashed its stage or reached the output; a link wrapping blocks glued the next words to it).
BUG_MARKDOWN_IMAGE_LINK_GLUE = (
    '<a href="http://example.com/x"><p><img src="http://example.com/i.png" alt=""></p></a>one two'
)
# An empty table between two words glued them in the Markdown ("quietthe").
BUG_MARKDOWN_EMPTY_TABLE_GLUE = "<div>the quiet<table></table>the end</div>"
BUG_CONTROL_CHAR_IN_READABILITY_CONTENT = PageSnapshot(
    html="<p>one two three</p>",
    readability=ReadabilityResult(content="<p>four\x08five six</p>"),
)
BUG_CONTROL_CHAR_IN_READABILITY_TITLE = PageSnapshot(
    html="<p>one two three</p>",
    readability=ReadabilityResult(content="<p>four five six</p>", title="Title\x08"),
)
BUG_CONTROL_CHAR_IN_READABILITY_PRE = PageSnapshot(
    html="<p>one two three</p>",
    readability=ReadabilityResult(content="<pre>four\x08five six</pre>"),
)

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# ---------------------------------------------------------------- helpers


def try_extract(source, url=None, options=None) -> Extraction | None:
    """Extract, or None when the product refuses the input with one of its own errors."""
    try:
        result = extractor.extract(source, url=url, options=options)
    except ReadermodeError as exc:
        event(f"refused: {type(exc).__name__}")
        return None
    event(f"accepted by {result.stage}")
    return result


# The documented input normalisation of the parser (browsers drop these characters too).
_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)
_ORACLE_PARSER = lxml.html.HTMLParser(remove_comments=True, remove_pis=True)


def input_document(source: str | bytes) -> lxml.html.HtmlElement:
    """The input as a browser-like tree, built independently of the extractor's pipeline."""
    text = extractor.decode_html(source).text if isinstance(source, bytes) else source
    text = _XML_DECLARATION.sub("", text, count=1)
    # The extractor drops these; a space instead keeps the words on both sides apart, and
    # derivable() still accepts them glued together.
    text = _XML_ILLEGAL.sub(" ", text)
    text = text.encode("utf-8", "replace").decode("utf-8")  # lone surrogates
    return lxml.html.document_fromstring(text, parser=_ORACLE_PARSER)


_RAW_TEXT = frozenset({"script", "style"})


def text_node_atoms(source: str | bytes | PageSnapshot) -> set[str]:
    """Casefolded words of each text node of the input, except script and style bodies.

    Attribute values (alt, title, srcdoc, on*) and comments are not text nodes, so they are
    not here either: none of them may show up in the output text. A snapshot's input is its
    HTML plus the Readability.js content and title taken from that page.
    """
    if isinstance(source, PageSnapshot):
        atoms = text_node_atoms(source.html)
        readability = source.readability
        if readability and readability.content and readability.content.strip():
            atoms |= text_node_atoms(readability.content)
        if readability and readability.title:  # restored as the heading Readability.js took
            atoms.update(extractor.words(readability.title.casefold()))
        return atoms
    atoms = set()
    try:
        document = input_document(source)
    except (lxml.etree.ParserError, ValueError):
        return atoms
    for node in document.xpath("//text()"):
        owner = node.getparent()
        if (
            node.is_text
            and owner is not None
            and owner.tag in _RAW_TEXT
            # In <svg>/<math> a browser closes <style/> at once and reads what follows as
            # markup; libxml2 takes it all as the style's text (found: "<svg><style/style>").
            and not any(True for _ in owner.iterancestors("svg", "math"))
        ):
            continue
        atoms.update(extractor.words(str(node).casefold()))
    return atoms


def source_html(source: str | bytes | PageSnapshot) -> str:
    """All the markup of a str or snapshot source, for looking at it (not for parsing)."""
    if isinstance(source, PageSnapshot):
        content = source.readability.content if source.readability else None
        return source.html + (content or "")
    return source


def derivable(word: str, atoms: set[str], longest: int) -> bool:
    """Whether ``word`` is a concatenation of whole input words.

    Output text may legitimately glue two text nodes together ("foo<script>x</script>bar"
    reads "foobar"), and blocks may split them, but never cut an input word in two or make up
    characters, so every output word is a sequence of whole words of input text nodes.
    """
    if word in atoms:
        return True
    reachable = [False] * (len(word) + 1)
    reachable[0] = True
    for start in range(len(word)):
        if not reachable[start]:
            continue
        for end in range(start + 1, min(len(word), start + longest) + 1):
            if not reachable[end] and word[start:end] in atoms:
                reachable[end] = True
    return reachable[-1]


def without_timings(data: dict) -> dict:
    """to_dict() minus the trace's wall-clock ``ms``, the one field that is meant to vary."""
    data = dict(data)
    data["trace"] = [{k: v for k, v in entry.items() if k != "ms"} for entry in data["trace"]]
    return data


# URL-bearing attributes of HTML, SVG and MathML: any of them may end up clickable.
URL_ATTRIBUTES = frozenset(
    {
        "href",
        "src",
        "srcset",
        "action",
        "formaction",
        "cite",
        "poster",
        "background",
        "longdesc",
        "data",
        "codebase",
        "xlink:href",
        "manifest",
        "ping",
        "usemap",
        "lowsrc",
        "dynsrc",
    }
)
DANGEROUS_SCHEMES = frozenset({"javascript", "vbscript", "data"})
FORBIDDEN_TAGS = frozenset(
    {"script", "style", "iframe", "frame", "frameset", "object", "embed", "template", "svg"}
    | {"math", "noscript", "link", "meta", "base", "form", "input", "textarea", "applet"}
)
_C0_OR_SPACE = "".join(map(chr, range(0x21)))
_CONTROL = re.compile("[\x00-\x1f\x7f]")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")


def url_scheme(value: str) -> str | None:
    """The scheme a browser reads from an attribute value, lowercased, or None if relative.

    WHATWG URL parsing: strip C0 controls and spaces at both ends, drop tab and newline
    anywhere (we drop every C0 control and DEL anywhere, to be strict), then ASCII letters,
    digits, "+", "-", "." up to the first ":" are the scheme. A space inside ("java script:")
    makes the URL relative, as in every browser.
    """
    value = _CONTROL.sub("", value.strip(_C0_OR_SPACE))
    match = _SCHEME.match(value)
    return match.group(1).lower() if match else None


def is_dangerous_url(value: str) -> bool:
    return url_scheme(value) in DANGEROUS_SCHEMES


# A real CommonMark parser decides what is a link in our Markdown (code spans, escapes, entity
# references, reference definitions, autolinks): a regex of our own once mistook a code span for
# a link. Its own link filter is off, so a dangerous target reaches the HTML check.
_COMMONMARK = MarkdownIt("commonmark", {"html": True})
_COMMONMARK.validateLink = lambda url: True


# What a CommonMark renderer shows of our Markdown, roughly: code kept verbatim; elsewhere
# images dropped (their alt is not text), link targets dropped, emphasis markers, backticks and
# brackets dropped, backslash escapes and entity references resolved.
_MD_CODE = re.compile(
    r"^(`{3,}|~{3,})[^\n]*\n.*?^\1[ \t]*$"  # fenced block
    r"|(?<![\\`])(`+)(?!`).*?(?<!`)\2(?!`)",  # code span
    re.S | re.M,
)
_MD_DESTINATION = r"\((?:[^()\s\\]|\\.|\([^()\s]*\))*(?:\s+\"(?:[^\"\\]|\\.)*\")?\s*\)"
_MD_IMAGE = re.compile(r"(?<!\\)!\[(?:[^\[\]\\]|\\.)*\]" + _MD_DESTINATION)
_MD_LINK_TAIL = re.compile(r"(?<!\\)\]" + _MD_DESTINATION)
_MD_MARKERS = re.compile(r"(?<!\\)[*`\[\]]")
_MD_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_MD_ENTITY = re.compile(r"(?<!\\)&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def _markdown_inline_plain(text: str, drop_markers: bool) -> str:
    text = _MD_IMAGE.sub("", text)
    text = _MD_LINK_TAIL.sub("", text)
    # A "*", "`" or bracket is markup (gone) or, unmatched, a literal character (a separator).
    text = _MD_MARKERS.sub("" if drop_markers else " ", text)
    text = _MD_ENTITY.sub(lambda m: html_lib.unescape(m.group()), text)
    return _MD_ESCAPE.sub(r"\1", text)


def markdown_plain(markdown: str, drop_markers: bool = True) -> str:
    """The reading text of our Markdown (see above); code spans and blocks stay as they are."""
    out: list[str] = []
    position = 0
    for match in _MD_CODE.finditer(markdown):
        out.append(_markdown_inline_plain(markdown[position : match.start()], drop_markers))
        code = match.group()
        fence = match.group(1)
        if fence:  # drop the fence lines, keep the code
            code = code.split("\n", 1)[1].rsplit("\n", 1)[0]
        else:
            code = code.strip("`")
        out.append(f" {code} " if fence else code)
        position = match.end()
    out.append(_markdown_inline_plain(markdown[position:], drop_markers))
    return "".join(out)


def markdown_rendered_words(markdown: str) -> set[str]:
    """The words a CommonMark renderer shows of ``markdown`` (image alt text is no text). The
    regex reading above cannot tell a code span inside an image's alt from one in the text:
    ``![`a`](src)word`` once made it glue ``word`` to the alt's last word."""
    rendered = _COMMONMARK.render(markdown)
    if not rendered.strip():
        return set()
    root = lxml.html.fragment_fromstring(rendered, create_parent="div")
    return set(extractor.words(root.text_content()))


def assert_clean_html(fragment: str) -> None:
    if not fragment.strip():
        return
    root = lxml.html.fragment_fromstring(fragment, create_parent="div")
    for element in root.iter(lxml.etree.Element):
        tag = element.tag if isinstance(element.tag, str) else ""
        assert tag.lower() not in FORBIDDEN_TAGS, f"<{tag}> in output: {fragment!r}"
        for name, value in element.attrib.items():
            lowered = name.lower()
            assert not lowered.startswith("on"), f"{name}= in output: {fragment!r}"
            assert lowered != "srcdoc", f"srcdoc in output: {fragment!r}"
            assert lowered != "style", f"style= in output: {fragment!r}"
            if lowered in URL_ATTRIBUTES or lowered.endswith(":href"):
                for candidate in value.split(",") if lowered == "srcset" else [value]:
                    assert not is_dangerous_url(candidate), f"{name}={value!r} in {fragment!r}"


def assert_clean_markdown(markdown: str) -> None:
    """Our Markdown rendered by a CommonMark renderer must pass the same check as our HTML."""
    assert_clean_html(_COMMONMARK.render(markdown))


# ---------------------------------------------------------------- 1. total function


@SETTINGS
@given(source=st.one_of(s.any_source, s.snapshots), url=s.base_urls, options=s.options)
def test_any_input_gives_extraction_or_readermode_error(source, url, options) -> None:
    try:
        result = extractor.extract(source, url=url, options=options)
    except ReadermodeError as exc:
        event(f"refused: {type(exc).__name__}")
        assert str(exc)
        return
    event(f"accepted by {result.stage}")
    assert isinstance(result, Extraction)
    assert isinstance(result.html, str)
    assert isinstance(result.text, str)
    assert isinstance(result.markdown, str)
    assert result.stage in extractor.RESULT_STAGES
    json.loads(result.to_json())


# ---------------------------------------------------------------- 2. caller's tree untouched


@SETTINGS
@given(
    page=st.one_of(s.pages, s.mutated_pages()),
    pick=st.integers(0, 10_000),
    url=s.base_urls,
    options=s.options,
)
def test_lxml_tree_is_not_modified(page: str, pick: int, url, options) -> None:
    try:
        document = input_document(page)
    except (lxml.etree.ParserError, ValueError):
        return  # nothing to build a tree from
    elements = list(document.iter(lxml.etree.Element))
    # The whole document, or one of its elements (whose parent and siblings must not change).
    source = document if pick % 3 == 0 else elements[pick % len(elements)]
    before = lxml.html.tostring(document, encoding="unicode")
    before_source = lxml.html.tostring(source, encoding="unicode")
    before_parent = source.getparent()

    try_extract(source, url=url, options=options)

    assert lxml.html.tostring(document, encoding="unicode") == before
    assert lxml.html.tostring(source, encoding="unicode") == before_source
    assert source.getparent() is before_parent
    assert list(document.iter(lxml.etree.Element)) == elements


# ---------------------------------------------------------------- 3. deterministic


@SETTINGS
@given(source=st.one_of(s.any_source, s.snapshots), url=s.base_urls, options=s.options)
def test_deterministic(source, url, options) -> None:
    first = try_extract(source, url=url, options=options)
    second = try_extract(source, url=url, options=options)
    if first is None or second is None:
        assert first is None and second is None
        return
    assert without_timings(first.to_dict()) == without_timings(second.to_dict())


# ---------------------------------------------------------------- 4. safe output


@SETTINGS
@given(
    source=st.one_of(s.pages, s.pages, s.mutated_pages(), s.encoded_pages(), s.snapshots),
    url=s.base_urls,
    options=s.options,
)
def test_output_html_is_sanitised(source, url, options) -> None:
    result = try_extract(source, url=url, options=options)
    if result is None:
        return
    assert_clean_html(result.html)


@SETTINGS
@example(source=MARKDOWN_ALT_INJECTION, url=None, options=None)
@example(source=MARKDOWN_TITLE_INJECTION, url=None, options=None)
@example(source=MARKDOWN_ALT_AUTOLINK, url=None, options=None)
@given(
    source=st.one_of(s.pages, s.pages, s.mutated_pages(), s.encoded_pages(), s.snapshots),
    url=s.base_urls,
    options=s.options,
)
def test_markdown_has_no_dangerous_links(source, url, options) -> None:
    result = try_extract(source, url=url, options=options)
    if result is None:
        return
    assert_clean_markdown(result.markdown)


# ---------------------------------------------------------------- 5. no made-up words


@SETTINGS
@given(
    source=st.one_of(s.pages, s.pages, s.mutated_pages(), s.encoded_pages(), s.snapshots),
    url=s.base_urls,
    options=s.options,
)
def test_every_output_word_comes_from_input_text(source, url, options) -> None:
    result = try_extract(source, url=url, options=options)
    if result is None:
        return
    atoms = text_node_atoms(source)
    longest = max(map(len, atoms), default=0)
    foreign = [
        word
        for word in dict.fromkeys(extractor.words(result.text.casefold()))
        if not derivable(word, atoms, longest)
    ]
    assert not foreign, f"words not in the input's text: {foreign} in {result.text!r}"


# ---------------------------------------------------------------- 6. outputs agree


@SETTINGS
@given(
    source=st.one_of(s.pages, s.pages, s.mutated_pages(), s.snapshots),
    url=s.base_urls,
    options=s.options,
)
def test_to_dict_and_json_agree_with_the_attributes(source, url, options) -> None:
    result = try_extract(source, url=url, options=options)
    if result is None:
        return
    data = result.to_dict()
    assert data["text"] == result.text
    assert data["markdown"] == result.markdown
    assert data["html"] == result.html
    assert data["stage"] == result.stage
    assert data["url"] == result.url
    assert json.loads(result.to_json()) == data


@SETTINGS
@example(source=MARKDOWN_DIV_GLUE, url=None, options=None)
@example(source=MARKDOWN_BANG_LINK, url=None, options=None)
@example(source=BUG_MARKDOWN_IMAGE_LINK_GLUE, url=None, options=None)
@given(
    source=st.one_of(s.pages, s.pages, s.mutated_pages(), s.snapshots),
    url=s.base_urls,
    options=s.options,
)
def test_markdown_keeps_every_word_of_the_text(source, url, options) -> None:
    """Every word of .text is a word a reader sees in the rendered Markdown."""
    result = try_extract(source, url=url, options=options)
    if result is None:
        return
    markdown_words = (
        set(extractor.words(markdown_plain(result.markdown)))
        | set(extractor.words(markdown_plain(result.markdown, drop_markers=False)))
        | markdown_rendered_words(result.markdown)
    )
    missing = [w for w in dict.fromkeys(extractor.words(result.text)) if w not in markdown_words]
    assert not missing, f"text words missing from the Markdown: {missing}\n{result.to_dict()}"


# ---------------------------------------------------------------- 7. tidy text


@SETTINGS
@given(
    source=st.one_of(s.pages, s.pages, s.mutated_pages(), s.snapshots),
    url=s.base_urls,
    options=s.options,
)
def test_text_whitespace_is_tidy(source, url, options) -> None:
    result = try_extract(source, url=url, options=options)
    if result is None:
        return
    text = result.text
    # <pre> is kept verbatim (its blank lines and indentation are content).
    if "<pre" in source_html(source).lower() or "<pre" in result.html.lower():
        event("skipped: has <pre>")
        return
    assert "\n\n\n" not in text, repr(text)
    for line in text.split("\n"):
        assert line == line.rstrip(), f"trailing whitespace in {line!r}"
        assert line == line.lstrip(), f"leading whitespace in {line!r}"
        assert "  " not in line, f"double space in {line!r}"
    assert text == "" or (text.endswith("\n") and not text.endswith("\n\n")), repr(text)
    assert not text.startswith("\n"), repr(text)


# ---------------------------------------------------------------- 8. no crashing stage

# What the parser strips from every page (extractor._parse): C0 controls but tab, LF, CR.
_STRIPPED_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


@SETTINGS
@example(source=BUG_CONTROL_CHAR_IN_READABILITY_CONTENT, url=None, options=None)
@example(source=BUG_CONTROL_CHAR_IN_READABILITY_TITLE, url=None, options=None)
@given(source=st.one_of(s.any_source, s.snapshots), url=s.base_urls, options=s.options)
def test_builtin_stages_never_fail(source, url, options) -> None:
    """The cascade survives a crashing stage, but our own stages crashing on a page is a bug."""
    result = try_extract(source, url=url, options=options)
    if result is None:
        return
    failed = [e for e in result.trace if e.kind == "stage" and e.reason.startswith("failed:")]
    assert not failed, failed


@SETTINGS
@example(source=BUG_CONTROL_CHAR_IN_READABILITY_PRE, url=None, options=None)
@given(source=st.one_of(s.any_source, s.snapshots), url=s.base_urls, options=s.options)
def test_outputs_have_no_control_characters(source, url, options) -> None:
    """The parser drops C0 controls from pages (as the docs say browsers do); every path must."""
    result = try_extract(source, url=url, options=options)
    if result is None:
        return
    for name in ("text", "markdown", "html"):
        value = getattr(result, name)
        assert not _STRIPPED_CONTROLS.search(value), f"{name}: {value!r}"
