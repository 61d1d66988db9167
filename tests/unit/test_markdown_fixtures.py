"""Markdown of the fixtures/formats pages, parsed back with markdown-it-py (GFM tables on) and
compared structurally with the article in the page: table cells, code text byte for byte and
its language, list nesting, quote depth, heading levels, images and links."""

from __future__ import annotations

from typing import Any
from urllib.parse import urljoin

import lxml.html
import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from extractor import ALL_RULES, ExtractOptions, PageSnapshot, ReadabilityResult, extract
from tests.conftest import FIXTURES

PAGES = FIXTURES / "formats"
URL = "https://pages.example.org/posts/page.html"
MARKDOWN = MarkdownIt("commonmark").enable("table")


def article(name: str) -> lxml.html.HtmlElement:
    root = lxml.html.fromstring((PAGES / name).read_bytes())
    return root.find(".//article")


def tokens(name: str, **options: Any) -> list[Token]:
    result = extract((PAGES / name).read_bytes(), url=URL, options=ExtractOptions(**options))
    return MARKDOWN.parse(result.markdown)


def squash(text: str) -> str:
    return " ".join(text.split())


def inline_text(token: Token) -> str:
    """The visible text of an inline token: text, code spans and image alts, no markup."""
    parts = [
        child.content
        for child in token.children or []
        if child.type in ("text", "code_inline", "image")
    ]
    return squash("".join(parts))


# --- tables ---------------------------------------------------------------------------------


def source_tables(name: str) -> list[list[list[str]]]:
    """Each table's rows of cell texts; a colspan=n cell is its text then n-1 empty cells
    (GFM has no spans: the columns stay aligned)."""
    tables = []
    for table in article(name).iter("table"):
        rows = []
        for row in table.iter("tr"):
            cells: list[str] = []
            for cell in row.iterchildren("td", "th"):
                cells.append(squash(cell.text_content()))
                cells.extend([""] * (int(cell.get("colspan", "1")) - 1))
            rows.append(cells)
        tables.append(rows)
    return tables


def markdown_tables(stream: list[Token]) -> list[tuple[int, list[list[str]]]]:
    """Each table as (number of header rows, rows of cell texts)."""
    tables: list[tuple[int, list[list[str]]]] = []
    header_rows = 0
    in_head = False
    for index, token in enumerate(stream):
        if token.type == "table_open":
            tables.append((0, []))
            header_rows = 0
        elif token.type == "thead_open":
            in_head = True
        elif token.type == "thead_close":
            in_head = False
        elif token.type == "tr_open":
            tables[-1][1].append([])
            header_rows += in_head
        elif token.type in ("th_open", "td_open"):
            tables[-1][1][-1].append(inline_text(stream[index + 1]))
        elif token.type == "table_close":
            tables[-1] = (header_rows, tables[-1][1])
    return tables


def test_tables_keep_every_cell_and_one_header_row() -> None:
    expected = source_tables("tables.html")
    found = markdown_tables(tokens("tables.html"))
    assert len(found) == len(expected) == 3
    for (header_rows, rows), source_rows in zip(found, expected, strict=True):
        assert header_rows == 1  # <thead>, a first row of <th>, or a spanning <th>
        assert rows == source_rows


def test_pipes_in_cells_stay_inside_their_cell() -> None:
    rows = markdown_tables(tokens("tables.html"))[2][1]
    assert rows[2][0] == "Reading a|b on the display"
    assert rows[2][1].startswith("Left | right channels")


# --- code -----------------------------------------------------------------------------------

# What each fixture block says about its language, in page order: language-python on <code>,
# GitHub's highlight-source-js wrapper, Hugo's data-lang, Prettify's lang-sql, nothing.
CODE_LANGUAGES = ["python", "js", "go", "sql", ""]


def fences(stream: list[Token]) -> list[Token]:
    return [token for token in stream if token.type == "fence"]


def test_code_text_is_kept_byte_for_byte() -> None:
    sources = [pre.text_content() for pre in article("code.html").iter("pre")]
    found = fences(tokens("code.html"))
    assert len(found) == len(sources) == len(CODE_LANGUAGES)
    for fence, source in zip(found, sources, strict=True):
        # A fence's content always ends with one newline; blank lines and indents are kept.
        assert fence.content == source.rstrip("\n") + "\n"


def test_code_language_is_kept_from_every_marker() -> None:
    assert [fence.info for fence in fences(tokens("code.html"))] == CODE_LANGUAGES


def test_code_language_survives_readability_js() -> None:
    """Readability.js in the page drops every class; the language comes back from the page."""
    page = (PAGES / "code.html").read_text(encoding="utf-8")
    body = lxml.html.tostring(article("code.html"), encoding="unicode")
    stripped = lxml.html.fromstring(body)
    for element in stripped.iter():
        element.attrib.pop("class", None)
        element.attrib.pop("data-lang", None)
    content = lxml.html.tostring(stripped, encoding="unicode")
    snapshot = PageSnapshot(
        html=page, url=URL, final_url=URL, readability=ReadabilityResult(content=content)
    )
    result = extract(snapshot)
    assert result.stage == "readability-js"
    found = [fence.info for fence in fences(MARKDOWN.parse(result.markdown))]
    assert found == CODE_LANGUAGES


# --- lists, quotes, headings ----------------------------------------------------------------


def source_lists(element: lxml.html.HtmlElement) -> list[Any]:
    """Top-level lists under ``element`` as (ordered, [(item text, nested lists)])."""
    lists = []
    for child in element.iterchildren():
        if child.tag in ("ul", "ol"):
            items = []
            for item in child.iterchildren("li"):
                own = squash((item.text or "").strip())
                items.append((own, source_lists(item)))
            lists.append((child.tag == "ol", items))
        elif child.tag not in ("li",):
            lists.extend(source_lists(child))
    return lists


def markdown_lists(stream: list[Token]) -> list[Any]:
    """The same shape as ``source_lists``, from the token stream."""
    root: list[Any] = []
    containers: list[list[Any]] = [root]  # where the next list goes: the root or an item
    open_lists: list[list[Any]] = []  # the items of each list being read, innermost last
    for token in stream:
        if token.type in ("bullet_list_open", "ordered_list_open"):
            items: list[Any] = []
            containers[-1].append((token.type == "ordered_list_open", items))
            open_lists.append(items)
        elif token.type in ("bullet_list_close", "ordered_list_close"):
            open_lists.pop()
        elif token.type == "list_item_open":
            nested: list[Any] = []
            open_lists[-1].append(["", nested])
            containers.append(nested)
        elif token.type == "list_item_close":
            containers.pop()
        elif token.type == "inline" and open_lists and not open_lists[-1][-1][0]:
            open_lists[-1][-1][0] = inline_text(token)
    return _as_tuples(root)


def _as_tuples(lists: list[Any]) -> list[Any]:
    return [
        (ordered, [(text, _as_tuples(nested)) for text, nested in items])
        for ordered, items in lists
    ]


def test_list_nesting_and_kinds_are_kept() -> None:
    expected = source_lists(article("structure.html"))
    assert markdown_lists(tokens("structure.html")) == expected
    assert any(nested for _, items in expected for _, nested in items)  # the page nests


def test_nested_quotes_keep_their_depth() -> None:
    expected = [
        (sum(1 for a in p.iterancestors() if a.tag == "blockquote"), squash(p.text_content()))
        for p in article("structure.html").iter("p")
        if any(a.tag == "blockquote" for a in p.iterancestors())
    ]
    found, depth = [], 0
    stream = tokens("structure.html")
    for token in stream:
        depth += {"blockquote_open": 1, "blockquote_close": -1}.get(token.type, 0)
        if token.type == "inline" and depth:
            found.append((depth, inline_text(token)))
    assert found == expected
    assert max(level for level, _ in expected) == 3


def test_headings_keep_their_levels() -> None:
    expected = [
        (int(h.tag[1]), squash(h.text_content()))
        for h in article("structure.html").iter("h1", "h2", "h3", "h4", "h5", "h6")
    ]
    stream = tokens("structure.html", rules=ALL_RULES - {"headline"})  # keep the <h1> too
    found = [
        (int(token.tag[1]), inline_text(stream[index + 1]))
        for index, token in enumerate(stream)
        if token.type == "heading_open"
    ]
    assert found == expected
    assert sorted({level for level, _ in found}) == [1, 2, 3, 4, 5, 6]


def _children(stream: list[Token], kind: str) -> list[Token]:
    return [
        child
        for token in stream
        if token.type == "inline"
        for child in token.children or []
        if child.type == kind
    ]


def test_images_keep_alt_text_and_absolute_source() -> None:
    expected = [
        (img.get("alt"), urljoin(URL, img.get("src")))
        for img in article("structure.html").iter("img")
    ]
    found = [
        (image.content, image.attrs["src"])
        for image in _children(tokens("structure.html"), "image")
    ]
    assert found == expected


def test_links_keep_text_and_absolute_target() -> None:
    paragraph = article("structure.html").findall(".//p")[-1]
    expected = [
        (squash(a.text_content()), urljoin(URL, a.get("href"))) for a in paragraph.iter("a")
    ]
    stream = tokens("structure.html")
    found = []
    for token in stream:
        if token.type != "inline":
            continue
        children = token.children or []
        for index, child in enumerate(children):
            if child.type == "link_open":
                found.append((children[index + 1].content, child.attrs["href"]))
    assert found == expected


# --- content options ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "page", "kind"),
    [
        ("links", "structure.html", "link_open"),
        ("images", "structure.html", "image"),
    ],
)
def test_inline_options_drop_their_markup(option: str, page: str, kind: str) -> None:
    assert _children(tokens(page), kind)  # present by default: the test can fail
    assert not _children(tokens(page, **{option: False}), kind)


def test_no_tables_drops_every_table() -> None:
    assert markdown_tables(tokens("tables.html"))
    assert markdown_tables(tokens("tables.html", tables=False)) == []
