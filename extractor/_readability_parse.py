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
"""

from __future__ import annotations

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


def _clean(doc: HtmlElement) -> None:
    """What ``html_cleaner`` changes in a tree ``_needs_cleaner`` passed, in place."""
    for image in doc.iter("image"):
        image.tag = "img"
    # The cleaner's own link test (private, but it is the one it runs: tests/unit pins the
    # equivalence on this version).
    scripted = html_cleaner._remove_javascript_link
    link_attributes = defs.link_attrs
    for element in doc.iter(lxml.etree.Element):
        names = element.keys()
        for name in names:
            if name.startswith("on"):
                del element.attrib[name]
            elif name in link_attributes:
                value = element.get(name)
                new = scripted(value.strip())
                if new != value:
                    element.set(name, new)
    lxml.etree.strip_attributes(doc, "style")


def prepare(doc: HtmlElement, handle_failures: str | None) -> HtmlElement:
    """readability-lxml 0.9's ``Document._parse`` of a tree with no ``url``: ``doc`` (a copy
    the caller owns, changed in place) ready for its scoring, and returned."""
    for element in doc.xpath("//*[@hidden]"):
        element.drop_tree()
    for element in doc.xpath("//*[@style]"):
        if REGEXES["displayNoneRe"].search(element.get("style")):
            element.drop_tree()
    if _needs_cleaner(doc):
        doc = html_cleaner.clean_html(doc)
    else:
        _clean(doc)
    doc.resolve_base_href(handle_failures=handle_failures)
    return doc
