"""Merging two readings block by block, in the page's order (extractor/_merge.py)."""

from __future__ import annotations

import lxml.html

from extractor._merge import blocks, merge, restyle, to_element


def keys(selected) -> list[str]:
    return [block.key for block in selected]


def test_blocks_cut_paragraphs_headings_items_and_loose_text() -> None:
    found = blocks(
        "<div><h2>Setup</h2>Loose words here<p>A paragraph.</p>"
        "<ul><li>first item</li><li>second item</li></ul><img src='a.png'></div>"
    )
    assert keys(found) == [
        "setup",
        "loose words here",
        "a paragraph",
        "first item",
        "second item",
        "",
    ]
    assert [block.list_tag for block in found[3:5]] == ["ul", "ul"]


def test_merge_puts_blocks_only_the_second_reading_has_between_their_neighbours() -> None:
    first = blocks("<p>Alpha one two three.</p><p>Gamma seven eight nine.</p>")
    second = blocks(
        "<p>Alpha one two three.</p><p>Beta four five six.</p><p>Gamma seven eight nine.</p>"
    )
    merged, counts = merge(first, second)
    assert keys(merged) == [
        "alpha one two three",
        "beta four five six",
        "gamma seven eight nine",
    ]
    assert (counts.both, counts.first_only, counts.second_only) == (2, 0, 1)


def test_merge_does_not_repeat_a_block_cut_differently() -> None:
    # One paragraph in the first reading is two in the second: nothing new, nothing twice.
    first = blocks("<p>Posted by ada: the new lens focuses quickly and quietly in low light.</p>")
    second = blocks("<p>the new lens focuses quickly</p><p>and quietly in low light</p>")
    merged, counts = merge(first, second)
    assert keys(merged) == keys(first)
    assert counts.second_only == 0 and counts.both == 2


def test_a_block_whose_words_run_together_is_not_repeated() -> None:
    # trafilatura reads a list item's divs without a space between them
    first = blocks(
        "<ul><li><p>Screen Size</p><p>64.5 inches</p></li><li>Weight 40 pounds</li></ul>"
    )
    second = blocks("<ul><li>Screen Size64.5 inches</li><li>Weight40 pounds</li></ul>")
    merged, counts = merge(first, second)
    assert keys(merged) == keys(first) and counts.second_only == 0
    selected, _ = restyle(first, second)
    assert keys(selected) == keys(first)  # the first reading's markup, words apart
    short = blocks("<p>Size M</p>"), blocks("<p>SizeM</p>")  # too short to tell by letters
    assert merge(*short)[1].second_only == 1


def test_merge_keeps_what_only_the_first_reading_has() -> None:
    first = blocks("<p>Only ours, a sentence.</p><p>Shared words in a row.</p>")
    second = blocks("<p>Shared words in a row.</p>")
    merged, counts = merge(first, second)
    assert keys(merged) == keys(first)
    assert counts.first_only == 1


def test_restyle_takes_the_second_selection_in_the_first_markup() -> None:
    first = blocks(
        "<p>Navigation we kept by mistake.</p>"
        '<pre><code class="language-python">total = price * quantity</code></pre>'
    )
    second = blocks("<p>total = price * quantity</p><p>A note only they kept.</p>")
    selected, counts = restyle(first, second)
    assert keys(selected) == ["total price quantity", "a note only they kept"]
    assert selected[0].element.tag == "pre"  # our markup: code and its language survive
    assert (counts.both, counts.first_only, counts.second_only) == (1, 1, 1)


def test_restyle_reads_a_disclosure_once_when_the_second_reader_split_it() -> None:
    first = blocks(
        "<p>Made from flax.</p><details><summary>Shipping &amp; returns</summary>"
        "<p>Free delivery on orders over 75 pounds, returns within 30 days.</p></details>"
    )
    second = blocks(
        "<p>Made from flax.</p><h3>Shipping &amp; returns</h3>"
        "<p>Free delivery on orders over 75 pounds, returns within 30 days.</p>"
    )
    selected, _ = restyle(first, second)
    assert [block.element.tag for block in selected] == ["p", "details"]
    assert " ".join(keys(selected)).count("shipping returns") == 1


def test_restyle_keeps_a_heading_the_next_block_does_not_open_with() -> None:
    first = blocks("<p>Free delivery on orders over 75 pounds, returns within 30 days.</p>")
    second = blocks(
        "<h3>Delivery</h3><p>Free delivery on orders over 75 pounds, returns within 30 days.</p>"
    )
    selected, _ = restyle(first, second)
    assert keys(selected) == ["delivery", keys(first)[0]]


def test_to_element_puts_consecutive_items_back_in_one_list_of_their_kind() -> None:
    found = blocks("<ol><li>one step</li><li>two steps</li></ol><p>After.</p><ul><li>x y</li></ul>")
    root = to_element(found)
    assert [child.tag for child in root] == ["ol", "p", "ul"]
    assert len(root[0]) == 2
    html = lxml.html.tostring(root, encoding="unicode")
    assert html.index("one step") < html.index("two steps") < html.index("After.")


def test_blocks_of_a_deeply_nested_reading_do_not_recurse() -> None:
    html = "<div>" * 1500 + "<p>deep words</p>" + "</div>" * 1500  # past the recursion limit
    assert keys(blocks(html)) == ["deep words"]


def test_merge_does_not_repeat_a_table_whose_cells_touch() -> None:
    # Cells written side by side with no whitespace between them are still separate words: the
    # same table from the other reader (spaced out) is the same block, not a second copy.
    first = blocks(
        "<h3>Flags</h3><table><tr><th>Attribute</th><th>Type</th></tr>"
        "<tr><td>is_eligible</td><td>Boolean <code>true</code>,<code>false</code></td></tr>"
        "</table>"
    )
    second = blocks(
        "<h3>Flags</h3><table>\n<tr>\n<th>Attribute</th>\n<th>Type</th>\n</tr>\n"
        "<tr>\n<td>is_eligible</td>\n<td>Boolean\ntrue, false</td>\n</tr>\n</table>"
    )
    merged, counts = merge(first, second)
    assert keys(merged) == ["flags", "attribute type is_eligible boolean true false"]
    assert counts.second_only == 0


def test_a_block_without_words_is_kept_only_when_it_holds_a_picture_or_a_rule() -> None:
    """trafilatura reads a disclosure's ``<summary>`` as a heading; when the summary held an
    icon and a heading of its own, the first heading came out empty, as ``<h3></h3>`` in the
    HTML output."""
    found = blocks(
        "<h3></h3><h2>Description</h2><p><img src='a.jpg'></p><hr><h3><span></span></h3>"
        "<figure><picture><img src='b.jpg'></picture></figure>"
    )
    assert [block.element.tag for block in found] == ["h2", "p", "hr", "figure"]
