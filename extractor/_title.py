"""The article's title from <title> and <h1>: the site's name and other suffixes cut off."""

from __future__ import annotations

import re
from collections.abc import Sequence

SEPARATORS = (" | ", " - ", " – ", " — ", " :: ", " · ", " • ", " » ", " / ")
"""What sits between a title and the site's name in <title> ("Story | Site")."""
MIN_TITLE_WORDS = 3
"""A split that leaves fewer words than this took part of the title, not a suffix."""
MAX_SUFFIX_WORDS = 4
"""Site names and section names are short; a longer tail is part of the title."""
MAX_SPLITS = 3
"""Suffixes peeled off at most ("Story | Section | Site")."""


def strip_site_name(title: str, site_name: str | None) -> str:
    """``title`` without the site's name as a suffix or prefix after a separator."""
    if not site_name:
        return title
    lowered, site = title.casefold(), site_name.casefold()
    for separator in SEPARATORS:
        suffix, prefix = separator + site, site + separator
        if lowered.endswith(suffix) and len(title) > len(suffix):
            return title[: -len(suffix)].strip()
        if lowered.startswith(prefix) and len(title) > len(prefix):
            return title[len(prefix) :].strip()
    return title


_SQUASH = re.compile(r"[\W_]+")
MIN_HOST_LABEL = 4
"""A host's label shorter than this ("bbc", "nyt") is too likely to be a word of a title."""
_HOST_PREFIXES = frozenset({"www", "m", "en", "shop", "store", "blog", "docs", "support"})


def strip_host_suffix(title: str, host: str | None) -> str:
    """``title`` without a tail after its last separator that names the page's host ("GAME
    CHANGER | Newegg.com" on www.newegg.com, "... | Road Runner Sports" on
    roadrunnersports.com): a site's name that no <meta> gives, said the way its address does."""
    if not host or (split := _last_split(title)) is None:
        return title
    head, tail = split
    squashed_tail = _SQUASH.sub("", tail.casefold())
    labels = [label for label in host.split(".")[:-1] if label not in _HOST_PREFIXES]
    squashed_host = "".join(labels)
    named = (len(squashed_tail) >= MIN_HOST_LABEL and squashed_tail in squashed_host) or any(
        len(label) >= MIN_HOST_LABEL and label.replace("-", "") in squashed_tail for label in labels
    )
    # A site's name is a proper noun ("Road Runner Sports"); a subtitle has lower-case words
    # ("iPhone review - Apple's best yet" on apple.com).
    proper = all(not word[0].islower() for word in tail.split())
    short = len(tail.split()) <= MAX_SUFFIX_WORDS
    return head if named and proper and short and head else title


def _last_split(title: str) -> tuple[str, str] | None:
    """``title``'s head and tail around its last separator, or None without one."""
    cut = max(
        ((title.rfind(sep), sep) for sep in SEPARATORS if title.rfind(sep) > 0),
        default=None,
    )
    if cut is None:
        return None
    index, separator = cut
    return title[:index].strip(), title[index + len(separator) :].strip()


def _split_suffix(title: str) -> str | None:
    """``title`` without its last separator's tail, if what is left is a plausible title."""
    split = _last_split(title)
    if split is None:
        return None
    head, tail = split
    if (
        len(head.split()) >= MIN_TITLE_WORDS
        and len(tail.split()) <= MAX_SUFFIX_WORDS
        and len(tail) < len(head)
    ):
        return head
    return None


def _is_suffix(h1: str, title: str) -> bool:
    """Is this <h1> a short tail after a separator, behind a head long enough to be the title:
    the site's or the book's name ("What is Ownership? - The Rust Programming Language")? A
    long tail is the title after the site's name ("Gazette - Island school reopens its doors")."""
    for separator in SEPARATORS:
        if title.endswith(separator + h1):
            head = title[: -len(separator + h1)]
            return len(h1.split()) <= MAX_SUFFIX_WORDS and len(head.split()) >= MIN_TITLE_WORDS
    return False


def _corroborated(h1: str, title: str) -> bool:
    """Is this <h1> the article's title inside <title>, and not the site's name in it?"""
    if len(h1.split()) < 2 or h1 not in title:
        return False
    if _is_suffix(h1, title):
        return False
    return title.startswith(h1) or len(h1) * 2 >= len(title)


def title_from_page(
    title: str | None, h1s: Sequence[str], site_names: Sequence[str]
) -> tuple[str, str] | None:
    """The title and its source ("h1" or "title") from <title> and the first <h1>s.

    An <h1> that starts the <title> (or is most of it) is the title without whatever the site
    added ("Story" in "Story | Site", not "Site" in "Story - Site: news for all"); else
    <title> with a site name cut (``site_names``: the one the page's metadata gives, what its
    links to the front page say), or, with none of them in it, a short tail after a separator;
    with no <title>, the first <h1>; None when the page has neither.
    """
    if title:
        folded = title.casefold()
        for h1 in h1s:
            if _corroborated(h1.casefold(), folded):
                return h1, "h1"
        stripped = title
        for site_name in site_names:
            stripped = strip_site_name(title, site_name)
            if stripped != title:
                break
        else:
            for _ in range(MAX_SPLITS):
                shorter = _split_suffix(stripped)
                if shorter is None:
                    break
                stripped = shorter
        return stripped, "title"
    if h1s:
        return h1s[0], "h1"
    return None
