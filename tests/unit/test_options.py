"""Content options of ExtractOptions: links, tables, images, include_comments, min_length."""

from __future__ import annotations

import json

import lxml.html
import pytest

from extractor import (
    ALL_RULES,
    ContentTooShortError,
    ExtractOptions,
    count_words,
    extract,
    parse_fragment,
)
from tests.conftest import FIXTURES

URL = "https://pages.example.org/posts/page.html"
STRUCTURE = (FIXTURES / "formats" / "structure.html").read_bytes()
TABLES = (FIXTURES / "formats" / "tables.html").read_bytes()
COMMENTS_PAGE = FIXTURES / "pages" / "comments--restoring-a-1974-sewing-machine" / "source.html"


def run(page: bytes, **options: object):
    return extract(page, url=URL, options=ExtractOptions(**options))


def test_no_links_keeps_link_text_and_drops_targets_everywhere() -> None:
    default, plain = run(STRUCTURE), run(STRUCTURE, links=False)
    link_texts = [a.text_content() for a in parse_fragment(default.html).iter("a")]
    assert link_texts  # the page has links: the test can fail
    assert parse_fragment(plain.html).find(".//a") is None
    assert plain.text == default.text
    for text in link_texts:
        assert f"[{text}](" in default.markdown
        assert f"[{text}](" not in plain.markdown
        assert text in plain.markdown


def test_no_tables_removes_tables_and_only_them() -> None:
    default, trimmed = run(TABLES), run(TABLES, tables=False)
    cells = [cell.text_content() for cell in parse_fragment(default.html).iter("td")]
    assert cells
    assert parse_fragment(trimmed.html).find(".//table") is None
    assert "| ---" not in trimmed.markdown
    assert "The tipping bucket under-reads" in trimmed.text
    assert not any(cell in trimmed.text for cell in cells if len(cell) > 5)


def test_no_images_removes_images_and_the_blocks_they_leave_empty() -> None:
    default, trimmed = run(STRUCTURE), run(STRUCTURE, images=False)
    assert parse_fragment(default.html).find(".//img") is not None
    root = parse_fragment(trimmed.html)
    assert root.find(".//img") is None
    assert "![" not in trimmed.markdown
    empty = [el.tag for el in root.iter("p", "figure") if not el.text_content().strip()]
    assert empty == []
    assert "The ladder hooks" not in trimmed.text  # captions go by default ...
    captioned = run(STRUCTURE, images=False, rules=ALL_RULES - {"captions"})
    assert "The ladder hooks" in captioned.text  # ... and are text when kept


def comment_texts() -> list[str]:
    page = lxml.html.fromstring(COMMENTS_PAGE.read_bytes())
    return [" ".join(p.text_content().split()) for p in page.cssselect(".comment-body p")]


@pytest.mark.parametrize("rules", [ALL_RULES, ALL_RULES - {"comments"}], ids=["default", "keep"])
def test_include_comments_reads_them_apart(rules: frozenset[str]) -> None:
    page = COMMENTS_PAGE.read_bytes()
    result = run(page, include_comments=True, rules=rules)
    expected = comment_texts()
    assert expected and result.comments is not None
    for text in expected:
        assert text in result.comments.text
        assert text in " ".join(result.comments.markdown.split())
        assert text not in result.text
    for furniture in ("Leave a Reply", "Post Comment", "Required fields"):
        assert furniture not in result.comments.text
    assert "Reply\n" not in result.comments.text  # the per-comment reply links
    # The main content is what it is without the option.
    assert result.text == run(page).text
    assert json.loads(result.to_json())["comments"]["text"] == result.comments.text


def test_comments_are_absent_unless_asked_for() -> None:
    result = run(COMMENTS_PAGE.read_bytes())
    assert result.comments is None
    assert "comments" not in result.to_dict()


def test_page_without_a_comment_section_has_none() -> None:
    assert run(STRUCTURE, include_comments=True).comments is None


def test_min_length_rejects_shorter_results() -> None:
    words = count_words(run(STRUCTURE).text)
    assert run(STRUCTURE, min_length=words).text  # exactly long enough passes
    with pytest.raises(ContentTooShortError) as caught:
        run(STRUCTURE, min_length=words + 1)
    assert (caught.value.words, caught.value.minimum) == (words, words + 1)
    assert caught.value.exit_code == 18


def test_min_length_counts_what_is_output() -> None:
    words = count_words(run(TABLES).text)
    with pytest.raises(ContentTooShortError):
        run(TABLES, tables=False, min_length=words)


def test_negative_min_length_is_refused() -> None:
    with pytest.raises(ValueError, match="min_length"):
        ExtractOptions(min_length=-1)
