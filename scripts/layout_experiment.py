"""Does the rendered page's layout help the block vote? Prints the cross-validated answer on
wcxb-dev.

Usage: layout_experiment.py [--sample N] [--concurrency N] [--jobs N] [--iterations N]

Every page is rendered once offline with its layout recorded (``RenderOptions(record_layout=
True)``: each block's box and font size) and read both ways, static and rendered, recording
each block's row of the block model's features as ``train_block_model.py`` does, plus the
layout columns of ``layout_features.py`` (all 0 on the static reading). Then, with the same
two folds by page id, block models are grown on one half and rate the other half's rendered
(or static) pages; the table gives the mean F1 of what the shipped code would output
(``shipped@0.35``: the vote where it applies, the reading without it elsewhere) per type:

- ``static -> rendered``: grown on static rows, as the shipped model is;
- ``rendered -> rendered``: grown on rendered rows, no layout;
- ``rendered+layout -> rendered``: grown on rendered rows with the layout columns;
- ``both+layout -> rendered`` and ``-> static``: grown on both readings' rows together.

Needs Chromium and scikit-learn (the ``train`` extra). All 1,497 pages take about 25 minutes
on two cores; ``--sample N`` takes N pages per type.
"""

from __future__ import annotations

import argparse
import copy
import sys
import time
from dataclasses import replace
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import train_block_model as blocks  # noqa: E402
from layout_features import LAYOUT_FEATURES, layout_matrix  # noqa: E402
from wcxb_render import RENDER_OPTIONS, render_snapshots  # noqa: E402

from extractor import PageSnapshot  # noqa: E402
from tests.corpus.wcxb import TYPES, WcxbPage, load_pages, stratified_sample  # noqa: E402

SYSTEM = f"shipped@{blocks.KEEP_AT}"


def _record(job: tuple[WcxbPage, PageSnapshot | None]) -> blocks.PageRows | None:
    page, snapshot = job
    return blocks._record(page, snapshot, extra=layout_matrix)


def _without_layout(pages: list[blocks.PageRows]) -> list[blocks.PageRows]:
    stripped = []
    for page in pages:
        copied = copy.copy(page)
        copied.rows = page.rows[:, : -len(LAYOUT_FEATURES)]
        stripped.append(copied)
    return stripped


def _recorded(
    jobs: list[tuple[WcxbPage, PageSnapshot | None]], workers: int
) -> list[blocks.PageRows]:
    with Pool(workers) as pool:
        found = pool.map(_record, jobs, chunksize=8)
    return [page for page in found if page is not None and len(page.rows)]


def _print_row(label: str, figures: dict[str, float]) -> None:
    print(f"{label:30s}" + "".join(f"{figures.get(k, 0):8.3f}" for k in ("all", *TYPES)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", type=int, default=0, help="N pages per type (0: all)")
    parser.add_argument("--concurrency", type=int, default=2, help="renders at a time")
    parser.add_argument("--jobs", type=int, default=2, help="processes recording rows")
    parser.add_argument("--iterations", type=int, default=200)
    args = parser.parse_args()
    started = time.perf_counter()
    pages = load_pages()
    if args.sample:
        pages = stratified_sample(pages, args.sample)
    snapshots = render_snapshots(
        pages, replace(RENDER_OPTIONS, record_layout=True), args.concurrency
    )
    rendered_pages = [page for page in pages if page.id in snapshots]
    rendered = _recorded([(page, snapshots.pop(page.id)) for page in rendered_pages], args.jobs)
    static = _recorded([(page, None) for page in rendered_pages], args.jobs)
    print(
        f"{len(rendered)} rendered and {len(static)} static pages recorded "
        f"({len(pages)} chosen) in {time.perf_counter() - started:.0f} s"
    )
    plain_static, plain_rendered = _without_layout(static), _without_layout(rendered)
    variants = (
        ("static -> rendered", plain_rendered, plain_static),
        ("rendered -> rendered", plain_rendered, plain_rendered),
        ("rendered+layout -> rendered", rendered, rendered),
        ("both+layout -> rendered", rendered, static + rendered),
        ("static -> static", plain_static, plain_static),
        ("both+layout -> static", static, static + rendered),
    )
    print(f"{SYSTEM} per type; trees grown on one half, rating the other")
    print(f"{'grown on -> rated':30s}" + "".join(f"{kind[:6]:>8s}" for kind in ("all", *TYPES)))
    for label, rated, grown_on in variants:
        figures = blocks.cross_validate(rated, blocks.half_models(grown_on, args.iterations))
        if label.startswith("static ->"):  # the readings without a vote, for reference
            _print_row(f"no vote, {label.split('-> ')[1]}", figures["without"])
        _print_row(label, figures[SYSTEM])
    print(f"total {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
