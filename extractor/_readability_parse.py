"""readability-lxml's ``Document._parse`` for a tree our pre-clean rules already cleaned.

readability-lxml 0.9 prepares the tree it is given in four steps: drop ``[hidden]`` elements,
drop elements styled ``display:none``/``visibility:hidden``, run lxml_html_clean's ``Cleaner``
(its ``readability.cleaners.html_cleaner``) on a deep copy, and resolve ``<base href>``. The
cleaner walks every link of the page in Python (``rewrite_links``) and was a fifth of the
stage's time. On our tree most of its work is already done, so ``prepare`` does the rest
directly and gives the same tree:

- What the cleaner kills (script, style, link, comments, processing instructions) our parser
  and the ``executable`` rule have removed; when any is left (the rule switched off), or the
  tree holds what its link walk treats specially (object, param, a refresh ``<meta>``), the
  real cleaner runs instead.
- What it rewrites is done here: ``<image>`` becomes ``<img>``, ``on*`` attributes go, every
  link attribute (``lxml.html.defs.link_attrs``) is stripped of surrounding space and emptied
  when the cleaner's own test finds a script scheme in it, and ``style`` attributes go (the
  cleaner rewrites their ``url()``s first, then strips them all, so only the stripping shows).
- Its deep copy is skipped: ``prepare`` gets a copy the caller made for it.
- ``<base href>`` is left unresolved: the cascade makes every result's links absolute
  afterwards, so the summary it reads from is the same once that is done.
"""

from __future__ import annotations

from typing import Literal

import lxml.etree
from lxml.html import XHTML_NAMESPACE, HtmlElement, defs
from readability.cleaners import html_cleaner
from readability.readability import REGEXES

# Elements whose presence sends the tree through the real cleaner: what it kills, and what its
# link walk reads in other ways than the link attributes (object codebase and archive, param
# values, style sheets).
_CLEANER_TAGS = (
    "script",
    "style",
    "link",
    "object",
    "param",
    lxml.etree.Comment,
    lxml.etree.ProcessingInstruction,
    f"{{{XHTML_NAMESPACE}}}*",  # XHTML elements, which the cleaner renames
)


def _needs_cleaner(doc: HtmlElement) -> bool:
    if next(doc.iter(*_CLEANER_TAGS), None) is not None:
        return True
    # The link walk reads a refresh <meta>'s content as a link.
    return any((meta.get("http-equiv") or "").lower() == "refresh" for meta in doc.iter("meta"))


def _drop_hidden(doc: HtmlElement) -> None:
    """readability-lxml's own first step: drop ``[hidden]``, then display:none elements."""
    for element in doc.xpath("//*[@hidden]"):
        element.drop_tree()
    for element in doc.xpath("//*[@style]"):
        if REGEXES["displayNoneRe"].search(element.get("style")):
            element.drop_tree()


def _drop_hidden_and_clean(doc: HtmlElement) -> None:
    """``_drop_hidden`` then what ``html_cleaner`` changes, in place, in one walk over a tree
    ``_needs_cleaner`` passed. Cleaning elements that are dropped afterwards changes nothing
    the tree keeps, and the styles are read before they are stripped."""
    for image in doc.iter("image"):
        image.tag = "img"
    # The cleaner's own link test (private, but it is the one it runs: tests/unit pins the
    # equivalence on this version).
    scripted = html_cleaner._remove_javascript_link
    link_attributes = defs.link_attrs
    hidden: list[HtmlElement] = []
    styled: list[tuple[HtmlElement, str]] = []
    for element in doc.iter(lxml.etree.Element):
        for name in element.keys():
            if name.startswith("on"):
                del element.attrib[name]
            elif name in link_attributes:
                value = element.attrib[name]
                # No ":" even after unquoting: no scheme for the test to find (it is mostly
                # relative links), so only the strip can change the value.
                if ":" in value or "%" in value:
                    new = scripted(value.strip())
                else:
                    new = value.strip()
                if new != value:
                    element.set(name, new)
            elif name == "hidden":
                hidden.append(element)
            elif name == "style":
                styled.append((element, element.attrib[name]))
    for element in hidden:
        element.drop_tree()
    dropped = set(hidden)  # readability-lxml looks for styles after the drop: these are gone
    for element, style in styled:
        if element not in dropped and REGEXES["displayNoneRe"].search(style):
            element.drop_tree()
    lxml.etree.strip_attributes(doc, "style")


def prepare(doc: HtmlElement, handle_failures: Literal["ignore", "discard"] | None) -> HtmlElement:
    """readability-lxml 0.9's ``Document._parse`` of a tree with no ``url``: ``doc`` (a copy
    the caller owns, changed in place) ready for its scoring, and returned."""
    if _needs_cleaner(doc):  # then nothing is skipped, in readability-lxml's order
        _drop_hidden(doc)
        doc = html_cleaner.clean_html(doc)
        doc.resolve_base_href(handle_failures=handle_failures)
        return doc
    _drop_hidden_and_clean(doc)
    # Not resolved here: every stage's result has its links made absolute afterwards
    # (``postprocess``), against the base a browser takes (``resolve_base_url``: the first
    # <base>, itself resolved), and a rendered snapshot's links are absolute already.
    # Resolving them here too walked every link of the page: 4 ms a snapshot.
    return doc
