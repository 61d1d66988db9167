"""The Reader View QA report (renderer/qa: align.py, report.py, summary.py) from hand-made
comparisons, no browser: both columns, highlights only where the texts differ, page HTML
sanitised and page text escaped, the F1 histogram's bars, the summary's rows, and the terminal
summary."""

from __future__ import annotations

import re
import struct
import zlib
from html.parser import HTMLParser

from extractor import Metadata, TraceEntry
from renderer.qa.align import align, blocks_of, word_diff
from renderer.qa.compare import (
    PageComparison,
    PageFailure,
    ReadermodeSide,
    ReaderViewSide,
    Scores,
)
from renderer.qa.report import f1_bins, histogram_svg, html_report
from renderer.qa.summary import text_overview, text_summary

ARTICLE = (
    "<h1>The harbour wall</h1>"
    "<p>The harbour wall was rebuilt over the winter by a team of twelve masons.</p>"
    "<p>They used stone from the old quarry above the town, cut by hand.</p>"
    "<ul><li>First item of the list</li><li>Second item of the list</li></ul>"
)


def png() -> bytes:
    """A valid 1x1 PNG."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\xff\x00\x00")
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


def comparison(
    reader_view_html: str = ARTICLE,
    readermode_html: str = ARTICLE,
    *,
    f1: float = 1.0,
    target: str = "https://site.test/story",
    title: str = "The harbour wall",
    screenshot: bytes | None = None,
    stage: str | None = "readability-js",
) -> PageComparison:
    return PageComparison(
        target=target,
        url=target,
        final_url=target,
        reader_view=ReaderViewSide(
            found=True,
            title=title,
            byline="By Ann Mason",
            excerpt="The harbour wall was rebuilt.",
            readerable=True,
            text="(not used by the report)",
            html=reader_view_html,
        ),
        readermode=ReadermodeSide(
            stage=stage,
            stage_reason="Readability.js result from the page",
            text="(not used by the report)",
            html=readermode_html,
            metadata=Metadata(title=title, authors=("Ann Mason",), lang="en"),
        ),
        scores=Scores(precision=f1, recall=f1, f1=f1),
        trace=(
            TraceEntry(kind="rule", name="hidden", outcome="removed", count=1),
            TraceEntry(kind="stage", name="readability-js", outcome="accepted", words=40),
        ),
        screenshot_png=screenshot,
    )


class Elements(HTMLParser):
    """Every start tag with its attributes, to check what the report's markup holds."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {name: value or "" for name, value in attrs}))

    def all(self, tag: str) -> list[dict[str, str]]:
        return [attrs for name, attrs in self.tags if name == tag]


def highlights(report: str) -> tuple[int, int]:
    return report.count('<del class="rem'), report.count('<ins class="add')


# --- blocks and alignment -------------------------------------------------------------------


def test_blocks_are_paragraph_level_pieces() -> None:
    blocks = blocks_of(
        "<div><h2>Head</h2>loose <b>inline</b> text<p>Para</p><ol start='3'><li>a</li>"
        "<li>b</li></ol><table><tr><td>x</td><td>y</td></tr></table></div>"
    )
    assert [(b.tag, b.text) for b in blocks] == [
        ("h2", "Head"),
        ("p", "loose inline text"),
        ("p", "Para"),
        ("li", "a"),
        ("li", "b"),
        ("table", "x y"),
    ]
    assert [b.start for b in blocks if b.tag == "li"] == [3, 4]


def test_align_pairs_similar_blocks_and_marks_the_rest() -> None:
    left = blocks_of("<p>same one</p><p>the quick brown fox jumps</p><p>only left</p>")
    right = blocks_of("<p>same one</p><p>the quick red fox jumps</p><p>quite new text</p>")
    assert [row.kind for row in align(left, right)] == ["equal", "change", "delete", "insert"]


def test_word_diff_marks_only_changed_words() -> None:
    old, new = word_diff("the quick brown fox", "the quick red fox")
    assert old == 'the quick <del class="rem">brown</del> fox'
    assert new == 'the quick <ins class="add">red</ins> fox'
    assert word_diff("a <b>", "a <b>") == ("a &lt;b&gt;", "a &lt;b&gt;")


# --- one page -------------------------------------------------------------------------------


def test_both_columns_are_present() -> None:
    report = html_report([comparison()])
    assert 'class="colhead rv"' in report and 'class="colhead rm"' in report
    elements = Elements(report)
    cells = [a["class"] for a in elements.all("div") if a.get("class", "").startswith("cell ")]
    assert cells.count("cell rv equal") == cells.count("cell rm equal") == 5
    assert "By Ann Mason" in report and "Readability.js result from the page" in report


def test_no_highlights_when_the_texts_are_equal() -> None:
    assert highlights(html_report([comparison()])) == (0, 0)
    assert "0 changed, " in html_report([comparison()])


def test_highlights_where_the_texts_differ() -> None:
    changed = ARTICLE.replace("twelve masons", "eleven stonemasons").replace(
        "<p>They used stone", "<p>Advertisement: buy now</p><p>They used stone"
    )
    missing = changed.replace("<li>Second item of the list</li>", "")
    report = html_report([comparison(ARTICLE, missing, f1=0.8)])
    removed, added = highlights(report)
    assert removed >= 2 and added >= 2  # word level in the changed paragraph, and whole blocks
    assert 'a team of <del class="rem">twelve masons.</del>' in report
    assert 'a team of <ins class="add">eleven stonemasons.</ins>' in report
    assert '<ins class="add blk"><p>Advertisement: buy now</p></ins>' in report
    assert re.search(
        r'<del class="rem blk"><ul><li>Second item of the list</li></ul></del>', report
    )
    assert 'class="legend"' in report


def test_long_identical_runs_fold_but_stay_in_the_report() -> None:
    many = "".join(f"<p>Paragraph number {i} is the same on both sides.</p>" for i in range(20))
    report = html_report([comparison(many, many)])
    assert '<details class="fold"><summary>16 identical blocks</summary>' in report
    assert report.count("Paragraph number 10 is the same") == 2


PAYLOAD = (
    '<p>Hello <a href="javascript:alert(1)">click</a> <img src="x" onerror="alert(2)">'
    '<a href="https://ok.test/page">fine</a></p><script>alert(3)</script>'
    "<style>body{display:none}</style><iframe src='https://evil.test/'></iframe>"
    "<p>&lt;script&gt;alert(4)&lt;/script&gt; as text</p>"
    '<p onclick="alert(5)" style="color:red">styled</p>'
)


def test_page_html_is_sanitised_and_page_text_escaped() -> None:
    report = html_report(
        [
            comparison(
                PAYLOAD,
                PAYLOAD.replace("styled", "styled differently"),
                title='<script>alert("title")</script>',
                target="javascript:alert(6)",
            )
        ]
    )
    lowered = report.lower()
    assert "<script" not in lowered and "<iframe" not in lowered
    assert "javascript:" not in lowered.replace("javascript:alert(6)", "")  # the target is text
    assert 'href="javascript' not in lowered and "onerror" not in lowered
    assert "onclick" not in lowered and "evil.test" not in lowered
    assert "&lt;script&gt;alert(&quot;title&quot;)&lt;/script&gt;" in report
    assert "&lt;script&gt;alert(4)&lt;/script&gt; as text" in report
    elements = Elements(report)
    for tag, attrs in elements.tags:
        assert not any(name.startswith("on") for name in attrs), (tag, attrs)
        if tag == "a" and "href" in attrs:  # a javascript: link keeps its text, not its href
            assert attrs["href"].startswith(("https://", "http://", "#")), attrs
        assert tag != "img" or attrs["src"].startswith("data:image/png;base64,")
    # The only style element is ours, in <head>; page style attributes are gone.
    assert [tag for tag, _ in elements.tags].count("style") == 1
    assert not any("style" in attrs for _, attrs in elements.tags)


def test_report_is_self_contained() -> None:
    report = html_report(
        [comparison(ARTICLE + '<p><img src="https://cdn.test/a.png" alt="A"></p>')]
    )
    elements = Elements(report)
    assert not elements.all("link") and not elements.all("script")
    assert "https://cdn.test/a.png" not in re.sub(r'title="[^"]*"', "", report)
    assert 'class="img"' in report and "image: A" in report  # a placeholder, not a request
    csp = [a for a in elements.all("meta") if a.get("http-equiv") == "Content-Security-Policy"]
    assert csp and "default-src 'none'" in csp[0]["content"]


def test_screenshot_is_embedded_as_a_data_png() -> None:
    report = html_report([comparison(screenshot=png())])
    sources = [a["src"] for a in Elements(report).all("img")]
    assert len(sources) == 1 and sources[0].startswith("data:image/png;base64,iVBORw0KGgo")
    # Bytes that are not a PNG are not embedded.
    assert not Elements(html_report([comparison(screenshot=b"GIF89a")])).all("img")


def test_metadata_table_and_single_page_has_no_summary() -> None:
    report = html_report([comparison(f1=0.75)])
    assert 'id="summary"' not in report and "<svg" not in report
    table = report[report.index('<table class="meta">') :]
    table = table[: table.index("</table>")]
    for label in ("Title", "Byline / author", "Excerpt / description", "Site name", "Language"):
        assert f"<th>{label}</th>" in table
    assert "readability-js" in table and "F1 <b>0.750</b>" in table and "Readerable" in table


# --- several pages --------------------------------------------------------------------------


def bar_counts(svg: str) -> dict[str, int]:
    return {
        match[0]: int(match[1])
        for match in re.findall(r'data-bin="([\d.]+-[\d.]+)" data-count="(\d+)"', svg)
    }


def test_histogram_bins_and_bars() -> None:
    values = [0.0, 0.05, 0.31, 0.7, 0.95, 0.99, 1.0]
    assert f1_bins(values) == [2, 0, 0, 1, 0, 0, 0, 1, 0, 3]
    svg = histogram_svg(values)
    counts = bar_counts(svg)
    assert len(counts) == 10
    assert counts["0.0-0.1"] == 2 and counts["0.9-1.0"] == 3 and counts["0.3-0.4"] == 1
    assert sum(counts.values()) == len(values)
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert len(re.findall(r'<text class="count"', svg)) == 4  # a label on each non-empty bar


def test_summary_report_rows_links_and_histogram() -> None:
    entries: list[PageComparison | PageFailure] = [
        comparison(target="https://site.test/a", f1=1.0),
        comparison(target="https://site.test/b", f1=0.42),
        comparison(target="https://site.test/c", f1=0.97),
        PageFailure(target="https://site.test/d", error="HTTP 404 for <d>", exit_code=11),
    ]
    report = html_report(entries)
    assert 'id="summary"' in report and report.count("<svg") == 1
    assert bar_counts(report) == {f"{i / 10:.1f}-{(i + 1) / 10:.1f}": 0 for i in range(10)} | {
        "0.4-0.5": 1,
        "0.9-1.0": 2,
    }
    rows = re.findall(r'<tr class="row[^"]*">.*?</tr>', report)
    assert len(rows) == 4
    for number, row in enumerate(rows, 1):
        assert f'href="#page-{number}"' in row
        assert f'id="page-{number}"' in report
    assert "0.420" in rows[1] and "readability-js" in rows[1]
    assert 'class="row failed"' in rows[3] and "HTTP 404 for &lt;d&gt;" in rows[3]
    assert "3 pages compared, 1 failed" in report
    assert report.count('<section class="page') == 4


# --- terminal summary -----------------------------------------------------------------------


def test_text_summary_and_overview() -> None:
    one = comparison(ARTICLE, ARTICLE.replace("<li>Second item of the list</li>", ""), f1=0.9)
    text = text_summary(one)
    assert "F1 0.900" in text and "readability-js" in text
    assert "only in Reader View (missing from readermode):" in text
    assert "- Second item of the list" in text
    overview = text_overview([one, PageFailure(target="https://x.test/", error="boom")])
    assert "0.900" in overview and "https://x.test/: boom" in overview
    assert "mean F1 0.900 over 1 page(s)" in overview
