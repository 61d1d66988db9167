"""Words that ran together where two inline elements touch get their space back, on the
final reading; a word's own parts, drop caps and code stay as they are."""

from __future__ import annotations

import pytest

from extractor import extract
from extractor._postprocess import CleanContent, html_to_text
from extractor._spacing import space_touching_words


def spaced(html: str) -> str:
    return space_touching_words(CleanContent(html=html, text=html_to_text(html))).text.strip()


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        # A brand over the product's name, a badge after a name.
        ("<p><span>Merrell</span><span>Moab 3 Mid</span></p>", "Merrell Moab 3 Mid"),
        ("<p><b>In Stock</b><em>Get it by Friday</em></p>", "In Stock Get it by Friday"),
        # A space already there, or text between them: nothing to do.
        ("<p><span>Merrell</span> <span>Moab</span></p>", "Merrell Moab"),
        ("<p><span>Merrell</span>-<span>Moab</span></p>", "Merrell-Moab"),
        # No case break: one word split for styling stays one word.
        ("<p><span>Hello</span><span>world</span></p>", "Helloworld"),
        # A drop cap is one letter.
        ("<p><span>T</span><span>He end</span></p>", "THe end"),
        # A control's label after a line, its button unwrapped by the sanitiser (React cards).
        ("<li><span>Monday — Friday</span>Discover</li>", "Monday — Friday Discover"),
        ("<p><span>Experience level</span>Beginner</p>", "Experience level Beginner"),
        # Text that runs on in lower case, or a space already there: one word, or spaced.
        ("<p><b>W</b>ord and <span>Hel</span>lo</p>", "Word and Hello"),
        ("<p><span>Friday</span> Discover</p>", "Friday Discover"),
        # A name and its points (Lemmy), a price and its unit.
        ("<p><span>tinkerbyte</span><span>48</span></p>", "tinkerbyte 48"),
        ("<p><span>$2.50</span><span>per user</span></p>", "$2.50 per user"),
        # A word's own digits, one character alone, or a number that is not all the next
        # element says, stay put.
        ("<p><span>MP</span><span>3</span> <span>H</span><span>2O</span></p>", "MP3 H2O"),
        ("<p><span>size</span><span>10 wide</span></p>", "size10 wide"),  # not a number alone
        # Code is what it says.
        ("<pre><code><span>get</span><span>Value</span>()</code></pre>", "getValue()"),
        ("<p>Call <code><span>get</span><span>Value</span></code> now.</p>", "Call getValue now."),
    ],
)
def test_touching_words_are_spaced_at_a_case_break(html: str, expected: str) -> None:
    assert spaced(html) == expected


def test_a_grid_reads_each_card_brand_apart_from_its_name() -> None:
    cards = "".join(
        f"<li class='card'><a href='/p/{i}'><span class='brand'>Merrell</span>"
        f"<span class='title'>Moab {i} Mid Waterproof Hiking Boots</span></a>"
        f"<p>Sturdy boots for long days on rough trails, number {i} in our range.</p></li>"
        for i in range(8)
    )
    html = (
        "<html><head><title>Hiking boots</title></head><body><main><h1>Hiking boots</h1>"
        f"<ul class='grid'>{cards}</ul></main></body></html>"
    )
    text = extract(html, url="https://shop.example.com/c/hiking-boots").text
    assert "Merrell Moab 3 Mid" in text and "MerrellMoab" not in text
