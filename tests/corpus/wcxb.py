"""The wcxb-dev corpus (../shared/corpora/wcxb-dev): its pages, a deterministic stratified
sample, and readermode's static text as the CLI prints it. Shared by the per-type gate
(test_wcxb_gate.py), its pinning script (pin_wcxb_floor.py) and scripts/benchmark_wcxb.py;
the corpus is read where it lies, never copied."""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from extractor import ReadermodeError, extract
from extractor._token_score import TokenScore, mean_scores, token_score
from renderer.cli.output import render_output
from tests.conftest import SHARED

CORPUS = SHARED / "corpora" / "wcxb-dev"
TYPES = ("article", "forum", "product", "collection", "listing", "documentation", "service")
"""The corpus's page types, in the order the tables print them (the README's ``category``
label counts as ``collection``)."""


@dataclass(frozen=True)
class WcxbPage:
    id: str
    type: str
    url: str | None
    reference: str
    with_snippets: tuple[str, ...]
    without_snippets: tuple[str, ...]
    path: Path

    def html_bytes(self) -> bytes:
        return gzip.decompress(self.path.read_bytes())


def page_type(entry: dict) -> str:
    """The ground truth's primary page type, ``category`` folded into ``collection``."""
    primary = entry.get("_internal", {}).get("page_type", {}).get("primary", "")
    return "collection" if primary == "category" else primary


def load_pages(corpus: Path = CORPUS) -> list[WcxbPage]:
    """Every page of the corpus, by id (a missing reference is empty: it scores 0 for all).
    Raises ``FileNotFoundError`` when ``corpus`` holds no page: a benchmark or a model fitted
    on nothing is an error, not a table of zeros."""
    truth_paths = sorted((corpus / "ground-truth").glob("*.json"))
    if not truth_paths:
        raise FileNotFoundError(
            f"no wcxb pages in {corpus} (its ground-truth/*.json): the corpus is read in place"
            " from ../shared/corpora/wcxb-dev beside the checkout"
        )
    pages = []
    for truth_path in truth_paths:
        entry = json.loads(truth_path.read_text(encoding="utf-8"))
        truth = entry.get("ground_truth", {})
        page_id = truth_path.stem
        pages.append(
            WcxbPage(
                id=page_id,
                type=page_type(entry),
                url=entry.get("url"),
                reference=truth.get("main_content") or "",
                with_snippets=tuple(truth.get("with") or ()),
                without_snippets=tuple(truth.get("without") or ()),
                path=corpus / "html" / f"{page_id}.html.gz",
            )
        )
    return pages


def pages_for_script(parser: argparse.ArgumentParser, corpus: Path) -> list[WcxbPage]:
    """``load_pages`` for a script: a corpus with no page is its usage error (exit 2)."""
    try:
        return load_pages(corpus)
    except FileNotFoundError as error:
        parser.error(str(error))


def _sample_key(page_id: str) -> str:
    # A hash of the id, not the id: corpus ids follow collection order, which clusters sites.
    return hashlib.sha256(f"wcxb-sample:{page_id}".encode()).hexdigest()


def stratified_sample(pages: Iterable[WcxbPage], per_type: int) -> list[WcxbPage]:
    """``per_type`` pages of each type (all of a type with fewer), picked by a hash of the id
    so the same corpus always gives the same sample; returned in id order."""
    chosen: list[WcxbPage] = []
    by_type: dict[str, list[WcxbPage]] = {}
    for page in pages:
        by_type.setdefault(page.type, []).append(page)
    for group in by_type.values():
        chosen.extend(sorted(group, key=lambda page: _sample_key(page.id))[:per_type])
    return sorted(chosen, key=lambda page: page.id)


def sample_digest(
    pages: Iterable[WcxbPage], sample: Iterable[WcxbPage], corpus: Path = CORPUS
) -> str:
    """SHA-256 over every page's id and type (what picks the sample) and the sampled pages'
    ground truth and HTML files (names and bytes)."""
    digest = hashlib.sha256()
    for page in pages:
        digest.update(f"{page.id}:{page.type}\n".encode())
    for page in sample:
        for path in (corpus / "ground-truth" / f"{page.id}.json", page.path):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def readermode_text(data: bytes, url: str | None) -> str:
    """What ``readermode FILE --no-render -f text`` prints: the title line, then the body (empty
    where the command fails with one of our errors, e.g. no content)."""
    try:
        extraction = extract(data, url=url)
    except ReadermodeError:
        return ""
    return render_output(extraction, "text")


def score_static(pages: Iterable[WcxbPage]) -> Iterator[tuple[WcxbPage, TokenScore]]:
    """Each page with readermode static's token score."""
    for page in pages:
        yield page, token_score(readermode_text(page.html_bytes(), page.url), page.reference)


def per_type_f1(scored: Iterable[tuple[WcxbPage, TokenScore]]) -> dict[str, float]:
    """Mean F1 per page type, plus ``all`` (the mean over every page)."""
    listed = list(scored)
    means = {"all": mean_scores(score for _, score in listed).f1}
    for kind in TYPES:
        of_type = [score for page, score in listed if page.type == kind]
        if of_type:
            means[kind] = mean_scores(of_type).f1
    return means
