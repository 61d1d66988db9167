"""Pages served inside <noscript> (Discourse's crawler view) are unwrapped, others untouched."""

from __future__ import annotations

from extractor import extract, may_hold_noscript_page
from extractor._noscript import NOSCRIPT_MIN_CHARS, reveal_noscript_page
from extractor._parse import parse_html

POSTS = "".join(
    f"<div class='post'><p>Post {i}: the new release fixed the sync bug for me after the "
    f"upgrade, and the settings page finally loads quickly on the old laptop.</p></div>"
    for i in range(6)
)
DISCOURSE = (
    "<html><head><title>Sync bug</title></head><body><script>var app = {};</script>"
    f"<noscript><div id='main-outlet' role='main'>{POSTS}</div></noscript></body></html>"
)


def test_a_page_inside_noscript_is_unwrapped_and_read() -> None:
    document = parse_html(DISCOURSE)
    entry = reveal_noscript_page(document)
    assert entry is not None and entry.name == "noscript-page" and entry.count == 1
    assert document.find(".//noscript") is None
    assert document.get_element_by_id("main-outlet") is not None
    extraction = extract(DISCOURSE)
    assert extraction.text.count("Post ") == 6
    assert any(e.name == "noscript-page" for e in extraction.trace)


def test_a_noscript_pages_notice_to_enable_javascript_goes_with_its_wrapper() -> None:
    # Flarum's served thread: the notice and the posts share the <noscript>
    notice = (
        "<div class='Alert'><div class='container'>This site is best viewed in a modern"
        " browser with JavaScript enabled.</div></div>"
    )
    html = DISCOURSE.replace("<noscript>", f"<noscript>{notice}")
    document = parse_html(html)
    assert reveal_noscript_page(document) is not None
    text = document.text_content()
    assert "best viewed" not in text and "Post 5" in text
    # a post that talks of JavaScript is no notice
    talk = "<p>Please enable JavaScript in the settings first, then the sync works again.</p>"
    kept = parse_html(DISCOURSE.replace("<noscript>", f"<noscript>{talk}"))
    reveal_noscript_page(kept)
    assert "settings first" in kept.text_content()


def test_a_small_noscript_beside_the_page_stays() -> None:
    html = (
        f"<html><body><article>{POSTS}</article>"
        "<noscript><p>Please enable JavaScript to comment.</p></noscript></body></html>"
    )
    assert reveal_noscript_page(parse_html(html)) is None


def test_a_long_noscript_with_more_text_outside_stays() -> None:
    inside = "<p>" + "fallback words " * (NOSCRIPT_MIN_CHARS // 10) + "</p>"
    html = f"<html><body><article>{POSTS * 3}</article><noscript>{inside}</noscript></body></html>"
    document = parse_html(html)
    assert reveal_noscript_page(document) is None
    assert document.find(".//noscript") is not None


def test_the_markup_scan_finds_a_page_in_noscript_and_not_a_pixel() -> None:
    """The renderer's cheap test of a served document (no parse) before the extractor reads it."""
    assert may_hold_noscript_page(DISCOURSE)
    assert may_hold_noscript_page(DISCOURSE.replace("noscript", "NOSCRIPT"))
    pixel = "<noscript><img src='https://t.example/p.gif'></noscript>"
    enable = "<noscript><p>Please enable JavaScript to comment.</p></noscript>"
    assert not may_hold_noscript_page(f"<html><body>{POSTS}{pixel}{enable}</body></html>")
