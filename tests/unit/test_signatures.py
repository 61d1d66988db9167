"""The ``signatures`` rule: a forum member's signature under each post goes, the post and its
author line stay, and boxes that only look like signatures are left alone."""

from __future__ import annotations

import lxml.html

from extractor._rules import PRECLEAN_RULES, apply_rules

POST = (
    "<div class='post'><p class='author'>AUTHORTEXT answered May 2, 2009</p><p>POSTTEXT RAID "
    "guards against one kind of hardware failure and none of the others: file corruption, "
    "human error, a fire in the server room, a virus or a bug that wipes the data.</p>{sig}</div>"
)
SIGNATURE = "<p>SIGTEXT Tip of the week: be careful with copy-paste snippets from forums.</p>"


def text_after_rules(body: str, rules: frozenset[str] = PRECLEAN_RULES) -> tuple[str, set]:
    root = lxml.html.document_fromstring(f"<html><body>{body}</body></html>")
    trace = apply_rules(root, rules)
    return root.text_content(), {entry.name for entry in trace}


def thread(label: str) -> str:
    return "".join(POST.format(sig=f"<div {label}>{SIGNATURE}</div>") for _ in range(4))


def test_the_rule_removes_the_signatures_forum_software_names_and_says_so() -> None:
    for label in (
        'class="signature"',
        'class="ipsEntry__signature memberSignature"',
        'class="postsignature postmsg"',
        'class="message-signature signature-collapsed"',
        'id="msg_4175227_signature"',
        'data-role="memberSignature" class="ipsResponsive_hidePhone"',  # Invision Community
        'component="post/signature" data-uid="318" class="post-signature"',  # NodeBB
    ):
        text, names = text_after_rules(thread(label))
        assert "SIGTEXT" not in text, label
        assert "POSTTEXT" in text and "AUTHORTEXT" in text
        assert "signatures" in names
        kept, _ = text_after_rules(thread(label), PRECLEAN_RULES - {"signatures"})
        assert "SIGTEXT" in kept


def test_an_author_card_a_function_signature_and_a_feature_are_kept() -> None:
    for label in (
        'class="post-signature owner"',  # Stack Exchange: the post's author and date
        'class="sig sig-object py"',  # Sphinx: a documented function's signature
        'class="feature-digital-signature"',  # a service's feature
    ):
        text, names = text_after_rules(thread(label))
        assert "SIGTEXT" in text, label
        assert "signatures" not in names


def test_a_box_holding_most_of_the_page_is_left_alone() -> None:
    body = "<div class='signature'>" + POST.format(sig=SIGNATURE) + "</div><p>Forum rules</p>"
    text, names = text_after_rules(body)
    assert "POSTTEXT" in text and "signatures" not in names
