"""Refinements of every candidate: link farms pruned, blocks outside the page's <article> dropped."""

from __future__ import annotations

import lxml.etree
import lxml.html

from extractor._pagetype import PageType
from extractor._refine import (
    LINK_FARM_DENSITY,
    LINK_FARM_MIN_LINKS,
    PRUNABLE_TAGS,
    REFINEMENT_NAMES,
    RefineContext,
    _link_farms,
    article_boundary,
    refine,
    shingles,
)
from extractor._scorer import block_features
from extractor._typed import typed_rules

PROSE = (
    "The harbour master said the new ferry schedule, agreed after months of talks, would start "
    "in spring. Fishermen worried about the early departures; shop owners welcomed them. "
)
NO_BOUNDARY = RefineContext(boundary=None)


def fragment(html: str) -> lxml.html.HtmlElement:
    return lxml.html.fragment_fromstring(html, create_parent="div")


def test_link_farms_pruned_inline_links_kept() -> None:
    farm = "<ul>" + "".join(f'<li><a href="/t/{i}">tag {i}</a></li>' for i in range(12)) + "</ul>"
    root = fragment(
        f'<p>{PROSE} See <a href="/x">the report</a>.</p>'
        '<p>Previous: <a href="/a">Older story title</a> Next: <a href="/b">Newer story</a></p>'
        + farm
    )
    trace = refine(root, NO_BOUNDARY, REFINEMENT_NAMES)
    text = root.text_content()
    assert "tag 3" not in text and "Older story title" not in text
    assert [a.get("href") for a in root.iter("a")] == ["/x"]
    assert [(entry.name, entry.count) for entry in trace] == [("link-farms", 2)]


def test_switched_off_refinement_does_nothing() -> None:
    root = fragment(
        '<p>Previous: <a href="/a">Older story</a> Next: <a href="/b">Newer one</a></p>'
    )
    assert refine(root, NO_BOUNDARY, frozenset()) == []
    assert "Older story" in root.text_content()


def test_article_boundary_trims_merged_siblings() -> None:
    page = lxml.html.document_fromstring(
        f"<html><body><article><h1>Ferry plan</h1><p>{PROSE}</p><p>{PROSE[::-1]}</p></article>"
        "<div><p>Thanks for reading, write to the address on the about page, I answer all mail.</p></div>"
        "</body></html>"
    )
    context = RefineContext(boundary=article_boundary(page))
    assert context.boundary
    candidate = fragment(
        f"<div><h1>Ferry plan</h1><p>{PROSE}</p><p>{PROSE[::-1]}</p></div>"
        "<div><p>Thanks for reading, write to the address on the about page, I answer all mail.</p></div>"
    )
    trace = refine(candidate, context, REFINEMENT_NAMES - {"headline"})
    assert "Thanks for reading" not in candidate.text_content()
    assert "Ferry plan" in candidate.text_content()  # short headings are kept
    assert trace[0].name == "article-boundary"


def test_a_list_written_without_spaces_is_inside_its_article() -> None:
    """A site builder writes list items side by side ("£14</p></li><li><p>5-class pass"):
    the article's text ran them together ("145"), so the list in the candidate, whose items
    the stage set apart, seemed to lie outside the article and was trimmed."""
    prices = "".join(
        f"<li><p>{name}: £{price}</p></li>"
        for name, price in (("Drop-in", 14), ("5-class pass", 60), ("Monthly", 89), ("Course", 55))
    )
    page = lxml.html.document_fromstring(
        f"<html><body><article><p>{PROSE}</p><p>{PROSE[::-1]}</p><ul>{prices}</ul></article>"
        "</body></html>"
    )
    context = RefineContext(boundary=article_boundary(page))
    assert context.boundary
    items = prices.replace("</li>", "</li>\n")
    candidate = fragment(f"<div><p>{PROSE}</p><p>{PROSE[::-1]}</p><ul>{items}</ul></div>")
    assert refine(candidate, context, frozenset({"article-boundary"})) == []
    assert "Drop-in: £14" in candidate.text_content()


def test_a_shops_single_article_is_no_boundary() -> None:
    # A product's page whose one <article> is the description box: the feature list beside it
    # is the product's too. Listings and collections likewise; articles keep the boundary.
    features = "<ul><li>Colours from plants and spices, tested for heavy metals</li></ul>"
    page = lxml.html.document_fromstring(
        f"<html><body><article><h1>Food colours</h1><p>{PROSE}</p><p>{PROSE[::-1]}</p>"
        f"</article>{features}</body></html>"
    )
    context = RefineContext(boundary=article_boundary(page))
    for kind, kept in (("product", True), ("listing", True), ("article", False)):
        candidate = fragment(f"<div><p>{PROSE}</p><p>{PROSE[::-1]}</p></div>{features}")
        rules = typed_rules(PageType(kind, weights={kind: 3.0}), REFINEMENT_NAMES)
        refine(candidate, context, rules)
        assert ("Colours from plants" in candidate.text_content()) is kept, kind


def test_article_boundary_needs_exactly_one_long_article() -> None:
    two = lxml.html.document_fromstring(
        f"<html><body><article><p>{PROSE}</p></article><article><p>{PROSE}</p></article></body></html>"
    )
    teaser = lxml.html.document_fromstring(
        "<html><body><article><p>Short teaser card.</p></article></body></html>"
    )
    assert article_boundary(two) is None
    assert article_boundary(teaser) is None


def test_article_boundary_leaves_candidates_that_are_mostly_elsewhere() -> None:
    page = lxml.html.document_fromstring(
        f"<html><body><article><p>{PROSE}</p><p>{PROSE[::-1]}</p></article></body></html>"
    )
    context = RefineContext(boundary=article_boundary(page))
    assert context.boundary
    other = (
        "Completely different prose about mountain railways and their long winter closures here."
    )
    candidate = fragment(f"<p>{other}</p><p>{other[::-1]}</p><p>{PROSE}</p>")
    assert refine(candidate, context, REFINEMENT_NAMES) == []


def test_link_farms_measure_links_as_the_scorer_does() -> None:
    # Nested links, comments between links, tails and whitespace runs: the cut-down sums give
    # the scorer's link count and density wherever a block may be pruned.
    root = fragment(
        "<div><p>A  few   words <a href='/a'>one <a href='/b'>two</a></a><!-- c -->tail</p>"
        "<ul><li><a href='/c'>three</a>  </li><li>four <a href='/d'>five six</a></li></ul>"
        "<section><a href='/e'>seven</a> and <a href='/f'>eight</a> words of prose here</section>"
        "<div>\n  </div></div>"
    )
    elements = list(root.iter(lxml.etree.Element))
    features = block_features(elements)
    expected = [
        el
        for el in elements
        if el is not root
        and el.tag in PRUNABLE_TAGS
        and features[el].link_count >= LINK_FARM_MIN_LINKS
        and features[el].link_density > LINK_FARM_DENSITY
    ]
    assert _link_farms(root, NO_BOUNDARY) == expected and expected


def test_shingles_casefold_every_word() -> None:
    assert shingles("The Harbour MASTER said") == {("the", "harbour", "master", "said")}
    # Casefolding İ adds a combining dot, which is no word character: fold word by word.
    assert shingles("İstanbul Straße ist groß") == {("i̇stanbul", "strasse", "ist", "gross")}


def _headlines(count: int) -> str:
    return "".join(
        f'<p><a href="/story/{n}">Harbour story number {n} that readers also opened</a></p>'
        for n in range(count)
    )


def test_a_run_of_link_lines_goes_with_its_label() -> None:
    # A "you may also like" list written as one-link paragraphs: no single block holds two
    # links, so only the run tells it from the article's own lines.
    root = fragment(
        f"<p>{PROSE}</p><p>A closing line with <a href='/x'>one link</a> in the article's flow.</p>"
        f"<p>You may also like...</p>{_headlines(3)}<p>{PROSE[::-1]}</p>"
    )
    trace = refine(root, NO_BOUNDARY, REFINEMENT_NAMES)
    text = root.text_content()
    assert "Harbour story number" not in text and "You may also like" not in text
    assert "one link" in text and PROSE[::-1] in text
    assert [(entry.name, entry.count) for entry in trace] == [("teasers", 4)]


def test_two_link_lines_or_a_broken_run_stay() -> None:
    two = fragment(f"<p>Read next:</p>{_headlines(2)}<p>{PROSE}</p>")
    assert refine(two, NO_BOUNDARY, REFINEMENT_NAMES) == []
    broken = fragment(f"{_headlines(2)}<p>{PROSE}</p>{_headlines(2)}")
    assert refine(broken, NO_BOUNDARY, REFINEMENT_NAMES) == []
    assert broken.text_content().count("Harbour story number") == 4


def test_a_long_line_before_the_run_is_no_label() -> None:
    root = fragment(f"<p>{PROSE}</p>{_headlines(4)}")
    refine(root, NO_BOUNDARY, REFINEMENT_NAMES)
    assert PROSE in root.text_content() and "Harbour story" not in root.text_content()


def test_a_link_line_in_capitals_is_a_teaser() -> None:
    # Related headlines set in the kicker's capitals between the paragraphs, and the app plug:
    # each a link and nothing else. A capitalised line of prose, a short capitalised link and
    # a headline-case link line stay.
    root = fragment(
        f"<p>{PROSE}</p>"
        '<p><strong><a href="/a">SEAN SPICER ELIMINATED FROM THE DANCE SHOW</a></strong></p>'
        f"<p>{PROSE[::-1]}</p>"
        '<p><a href="/app">CLICK HERE TO GET THE NEWS APP</a></p>'
        "<p>THE HARBOUR MASTER SAID IT TWICE, AND LOUDLY.</p>"
        '<p><a href="/b">NASA</a> HQ</p>'
        '<p><a href="/c">Harbour master takes the early ferry</a></p>'
    )
    trace = refine(root, NO_BOUNDARY, REFINEMENT_NAMES)
    text = root.text_content()
    assert "SEAN SPICER" not in text and "NEWS APP" not in text
    assert "SAID IT TWICE" in text and "NASA" in text and "early ferry" in text
    assert [(entry.name, entry.count) for entry in trace] == [("teasers", 2)]


def test_teasers_are_off_where_link_lines_are_the_records() -> None:
    # A listing's headlines are lines that are a link alone, in a run: there they are the
    # content, and its type's rules leave the teasers refinement out.
    for kind, kept in (("article", 0), ("listing", 3), ("collection", 3), ("product", 3)):
        root = fragment(f"<p>{PROSE}</p>{_headlines(3)}")
        refine(root, NO_BOUNDARY, typed_rules(PageType(kind), REFINEMENT_NAMES))
        assert root.text_content().count("Harbour story number") == kept, kind


def test_a_collection_keeps_the_text_beside_its_product_pictures() -> None:
    # A product grid's card is a picture with the name and price beside it: on a collection
    # those are the records; on an article the same markup is a caption and goes.
    card = '<figure><img src="/bag.jpg"><div>Canvas gear bag, large: 21.00 dollars</div></figure>'
    for kind, kept in (("article", 0), ("collection", 2)):
        root = fragment(f"<p>{PROSE}</p>{card}{card}")
        refine(root, NO_BOUNDARY, typed_rules(PageType(kind), REFINEMENT_NAMES))
        assert root.text_content().count("Canvas gear bag") == kept, kind


POST_HEADER = (
    '<div class="head"><span class="comhead"><a href="user?id={name}" class="hnuser">{name}</a> '
    '<span class="age"><a href="item?id={n}">{n} hours ago</a></span> '
    '<span class="navs">| <a href="#{n}">parent</a> <a class="togg" href="#">[–]</a></span>'
    '</span></div><div class="commtext">{text}</div>'
)


def test_a_threads_post_headers_keep_their_authors_names() -> None:
    posts = "".join(
        f"<div>{POST_HEADER.format(name=name, n=n, text=PROSE)}</div>"
        for n, name in enumerate(("wren_k", "kpolanski"), start=1)
    )
    thread = RefineContext(boundary=None, keep_authors=True)
    root = fragment(posts)
    refine(root, thread, REFINEMENT_NAMES)
    text = " ".join(root.text_content().split())
    assert "wren_k" in text and "kpolanski" in text
    assert "hours ago" not in text and "parent" not in text and "[–]" not in text
    article = fragment(posts)
    refine(article, NO_BOUNDARY, REFINEMENT_NAMES)  # an article's link lines go whole
    assert "wren_k" not in article.text_content()


def test_a_long_link_block_holding_a_name_goes_whole_on_a_thread() -> None:
    members = (
        "<div>"
        + " | ".join(f'<a href="/members/m{i}.{i}/">member{i}</a>' for i in range(14))
        + "</div>"
    )
    root = fragment(f"<p>{PROSE}</p>{members}")
    refine(root, RefineContext(boundary=None, keep_authors=True), REFINEMENT_NAMES)
    assert "member3" not in root.text_content()


def test_a_center_of_footer_links_is_a_link_farm() -> None:
    root = fragment(
        f"<p>{PROSE}</p><center><span><a href='/g'>Guidelines</a> | <a href='/f'>FAQ</a> | "
        "<a href='/l'>Legal</a> | <a href='/a'>Apply to YC</a></span><br>Search:</center>"
    )
    refine(root, NO_BOUNDARY, REFINEMENT_NAMES)
    assert "Guidelines" not in root.text_content() and "harbour master" in root.text_content()
