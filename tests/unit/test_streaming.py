"""Pages streamed by React's server renderer (``extractor/_streaming.py``): each hidden
``<div hidden id="S:x">`` goes where React's ``$RC``/``$RS`` scripts put it, as a browser shows
the page, and its fallback goes."""

from __future__ import annotations

import extractor
from extractor._parse import parse_html

ARTICLE = "<h2>Why the bridge closed</h2>" + "".join(
    f"<p>Paragraph {n} of the streamed report explains how engineers inspected the old "
    "river crossing, which cables had corroded and what the repair will cost the town.</p>"
    for n in range(6)
)
RC_SCRIPT = '<script>$RC("B:0","S:0")</script>'


def _page(main: str, tail: str) -> str:
    return (
        "<html><head><title>The bridge</title></head><body>"
        f"<header><nav><a href='/'>Home</a></nav></header><main>{main}</main>{tail}</body></html>"
    )


def test_a_boundary_gets_its_streamed_part_and_loses_its_fallback() -> None:
    html = _page(
        '<h1>The bridge</h1><!--$?--><template id="B:0"></template>'
        "<div class='skeleton'>FALLBACK loading<!--$--><span>NESTED fallback</span><!--/$--></div>"
        "<!--/$--><p>AFTERBOUNDARY closing line.</p>",
        f'<div hidden id="S:0">{ARTICLE}</div>{RC_SCRIPT}',
    )
    document = parse_html(html)
    main = document.find(".//main")
    text = main.text_content()
    assert "Paragraph 5 of the streamed report" in text
    assert "FALLBACK" not in text and "NESTED" not in text
    assert text.index("Why the bridge") < text.index("AFTERBOUNDARY")
    assert document.find(".//div[@hidden]") is None
    assert document.find(".//template") is None


def test_a_placeholder_gets_its_segment_with_the_text_around_it() -> None:
    html = _page(
        '<p>Before <template id="P:1"></template> AFTERTEXT</p>',
        '<div hidden id="S:1">SEGMENTLEAD <b>bold part</b> end</div>'
        '<script>$RS("S:1","P:1")</script>',
    )
    paragraph = parse_html(html).find(".//main/p")
    assert " ".join(paragraph.text_content().split()) == (
        "Before SEGMENTLEAD bold part end AFTERTEXT"
    )


def test_without_the_boundary_comments_only_the_template_is_replaced() -> None:
    # a page saved without comments: the fallback's extent is unknown, so it stays
    html = _page(
        '<template id="B:0"></template><p>KEPTFALLBACK</p>',
        f'<div hidden id="S:0">{ARTICLE}</div>',
    )
    text = parse_html(html).find(".//main").text_content()
    assert "Paragraph 0 of the streamed report" in text and "KEPTFALLBACK" in text


def test_a_hidden_part_with_nowhere_to_go_stays_hidden() -> None:
    html = _page(ARTICLE, '<div hidden id="S:7"><p>ORPHANPART never placed</p></div>')
    document = parse_html(html)
    orphan = document.find(".//div[@id='S:7']")
    assert orphan is not None and orphan.get("hidden") is not None
    assert "ORPHANPART" not in extractor.extract(html, url="https://news.example/bridge").text


def test_the_extraction_reads_the_streamed_article() -> None:
    html = _page(
        '<h1>The bridge</h1><!--$?--><template id="B:0"></template><p>Loading…</p><!--/$-->',
        f'<div hidden id="S:0">{ARTICLE}</div>{RC_SCRIPT}',
    )
    text = extractor.extract(html, url="https://news.example/bridge").text
    assert "Paragraph 0 of the streamed report" in text
    assert "Paragraph 5 of the streamed report" in text
    assert "Loading" not in text
