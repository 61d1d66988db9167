"""Text to an lxml HTML tree, for whole documents and pasted fragments alike."""

from __future__ import annotations

import re
from html import escape as html_escape
from typing import cast

import lxml.etree
import lxml.html
from lxml.html import HtmlElement

from ._depth import flatten_deep_nesting, is_depth_error
from ._errors import EmptyInputError
from ._streaming import may_stream_segments, place_streamed_segments

# libxml2 refuses C0 controls in text; DEL and C1 controls are legal but never readable text
# (they come from mojibake), so they go too.
_CONTROL_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffe\uffff]")
# lxml refuses str input that carries an XML encoding declaration.
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)

# huge_tree: libxml2 otherwise drops everything nested deeper than 255 levels.
_PARSER = lxml.html.HTMLParser(
    remove_comments=True, remove_pis=True, default_doctype=False, huge_tree=True
)


def _html_class_lookup() -> lxml.etree.ElementNamespaceClassLookup:
    """lxml.html's element classes (the form ones by tag, ``HtmlElement`` for the rest), looked
    up in C: lxml.html's own lookup is a Python method run each time an element gets a Python
    proxy, about 7,000 calls a page on the benchmark corpus and a tenth of extract's time."""
    lookup = lxml.etree.ElementNamespaceClassLookup(
        lxml.etree.ElementDefaultClassLookup(
            element=lxml.html.HtmlElement,
            comment=lxml.html.HtmlComment,
            pi=lxml.html.HtmlProcessingInstruction,
            entity=lxml.html.HtmlEntity,
        )
    )
    lookup.get_namespace(None).update(
        {
            "form": lxml.html.FormElement,
            "input": lxml.html.InputElement,
            "label": lxml.html.LabelElement,
            "select": lxml.html.SelectElement,
            "textarea": lxml.html.TextareaElement,
        }
    )
    return lookup


_PARSER.set_element_class_lookup(_html_class_lookup())
# The same, keeping comments: a page streamed by React marks its Suspense boundaries with them
# (``_streaming``); they are stripped once its streamed parts are in place.
_COMMENT_PARSER = lxml.html.HTMLParser(
    remove_comments=False, remove_pis=True, default_doctype=False, huge_tree=True
)
_COMMENT_PARSER.set_element_class_lookup(_html_class_lookup())


# _CONTROL_CHARS in UTF-8: C0 controls and DEL are single bytes, C1 controls \xc2\x80-\x9f and
# U+FFFE/U+FFFF \xef\xbf\xbe/\xbf (lead bytes start a character, so these cannot straddle two).
_C0_AND_DEL = bytes([*range(0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])
_C1_UTF8 = re.compile(rb"\xc2[\x80-\x9f]")
_NONCHARACTERS_UTF8 = (b"\xef\xbf\xbe", b"\xef\xbf\xbf")


def clean_text(text: str) -> str:
    """Text lxml accepts and a reader can read: no control characters, no lone surrogates."""
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates (from broken JSON or a fuzzer)
        text = text.encode("utf-8", "replace").decode("utf-8")
        data = text.encode("utf-8")
    # Checking the UTF-8 bytes first is twice as fast as the regex over the text, which nearly
    # every page passes unchanged.
    if (
        len(data.translate(None, _C0_AND_DEL)) != len(data)
        or _C1_UTF8.search(data)
        or any(found in data for found in _NONCHARACTERS_UTF8)
    ):
        text = _CONTROL_CHARS.sub("", text)
    return text


MISNESTED_VOID_TAGS = ("embed", "source", "track", "wbr", "keygen")
"""Void elements libxml2 does not know as void: it nests everything up to the end of the parent
inside them, so the executable rule's removal of an ``<embed>`` took the rest of its paragraph
(found by the XSS corpus: "a kittiwake nested <embed src=...> and the masons moved ...")."""


def unnest_void_elements(root: HtmlElement) -> HtmlElement:
    """Move what libxml2 nested inside a void element back after it, where the page had it."""
    for element in list(root.iter(*MISNESTED_VOID_TAGS)):
        children = list(element)
        if not children and not element.text:
            continue
        parent = element.getparent()
        if parent is None:
            continue
        tail, element.tail, element.text = element.tail, element.text, None
        position = parent.index(element)
        for offset, child in enumerate(children, 1):
            parent.insert(position + offset, child)
        last = children[-1] if children else element
        last.tail = (last.tail or "") + (tail or "") or None
    return root


def _stopped_at_depth_limit(parser: lxml.html.HTMLParser = _PARSER) -> bool:
    """Whether the last parse gave up at libxml2's nesting limit, dropping the rest."""
    return any(is_depth_error(error.message) for error in parser.error_log.filter_from_fatals())


def _document_fromstring(text: str, parser: lxml.html.HTMLParser = _PARSER) -> HtmlElement:
    """The document's tree; markup nested past libxml2's limit is flattened and parsed again."""
    root = lxml.html.document_fromstring(text, parser=parser)
    if _stopped_at_depth_limit(parser):
        root = lxml.html.document_fromstring(flatten_deep_nesting(text), parser=parser)
    return root


def _streamed_document(text: str) -> HtmlElement:
    """The tree of a page that may be streamed by React, its streamed parts in place
    (``_streaming``), without comments like every other parse."""
    root = _document_fromstring(text, _COMMENT_PARSER)
    place_streamed_segments(root)
    lxml.etree.strip_tags(root, lxml.etree.Comment)
    return root


def parse_fragment(html: str) -> HtmlElement:
    """Parse an HTML fragment (a stage's result) into a new ``<div>`` holding it."""
    text = clean_text(html)
    try:
        nodes = lxml.html.fragments_fromstring(text, parser=_PARSER)
        if _stopped_at_depth_limit():
            text = flatten_deep_nesting(text)
            nodes = lxml.html.fragments_fromstring(text, parser=_PARSER)
    except (AssertionError, lxml.etree.ParserError):
        # lxml asserts the parse has exactly one <body>; a whole document whose <body> was
        # swallowed (an unterminated attribute in <head>) has none. Take what did parse.
        wrapper = _PARSER.makeelement("div")
        try:
            document = _document_fromstring(text)
        except (lxml.etree.ParserError, ValueError):
            return wrapper
        source = document.find("body")
        source = document if source is None else source
        wrapper.text = source.text
        wrapper.extend(list(source))
        return unnest_void_elements(wrapper)
    # fragment_fromstring(create_parent="div") but with the <div> made by our parser: the nodes
    # move into its document, whose parser then gives every element its Python proxy. lxml.html's
    # own <div> would bring its Python class lookup (see _html_class_lookup) to all of them.
    root = _PARSER.makeelement("div")
    if nodes and isinstance(nodes[0], str):
        root.text = cast(str, nodes.pop(0))  # leading text, kept when more than whitespace
    root.extend(cast(list[HtmlElement], nodes))  # only the first node can be text
    return unnest_void_elements(root)


def inner_html(element: HtmlElement) -> str:
    """The HTML inside ``element`` (its text and children), the inverse of ``parse_fragment``."""
    leading = html_escape(element.text or "", quote=False)
    return leading + "".join(lxml.html.tostring(child, encoding="unicode") for child in element)


def parse_html(text: str) -> HtmlElement:
    """Parse HTML text into a new ``<html>`` element; fragments get ``<html><body>`` around."""
    text = clean_text(_XML_DECLARATION.sub("", text, count=1))
    if not text.strip():
        raise EmptyInputError("input is empty")
    try:
        root = _streamed_document(text) if may_stream_segments(text) else _document_fromstring(text)
    except (lxml.etree.ParserError, ValueError) as exc:
        # "Document is empty": the input held only comments, a doctype or similar.
        raise EmptyInputError(f"input has no HTML elements ({exc})") from exc
    body = root.find("body")
    if body is None:
        # A page whose text lives in <head> only, or a frameset: give it a body to score.
        root.append(lxml.html.Element("body"))
    elif not body.attrib:
        _restore_body_attributes(body, text)
    return unnest_void_elements(root)


def _restore_body_attributes(body: HtmlElement, text: str) -> None:
    """The attributes of a ``<body>`` tag libxml2 met after it had opened the body itself
    (an element out of place in ``<head>`` opens it): it drops them, where a browser adds
    them to the body it has. WordPress's ``<body class="single-product woocommerce ...">``
    names the page's template (``_shoptemplates``) and was lost so on a wcxb-dev product."""
    head_end = max(text.find("</head>"), text.find("</HEAD>"), 0)  # past a script's "<body"
    start = text.find("<body", head_end)
    if start < 0:
        start = text.find("<BODY", head_end)
    end = text.find(">", start)
    if start < 0 or end < 0:
        return
    attributes = text[start + len("<body") : end]
    if not attributes.strip() or not attributes[0].isspace() or "<" in attributes:
        return  # a bare <body>, or "<body" in a script's string
    try:
        holder = lxml.html.fragment_fromstring(f"<div{attributes}></div>", parser=_PARSER)
    except (lxml.etree.ParserError, ValueError):
        return
    for name, value in holder.attrib.items():
        body.set(name, value)
