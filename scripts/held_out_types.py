"""wcxb-dev benchmarks with models that never saw the page being read.

The shipped page-type model (``extractor/models/pagetype.json``) and block model
(``blocks.json``) were fitted on every page of wcxb-dev, so a benchmark on wcxb-dev that uses
them reads each page in-sample. With the two half models written by
``train_pagetype_model.py --fold-models DIR`` (``HeldOutTypes``) and by
``train_block_model.py --fold-models DIR`` (``HeldOutBlocks``), the model fitted on the other
half (both trainers' folds, by a hash of the page id) is put in before each page, so the
figures are what a page never seen would get.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from train_pagetype_model import fold  # noqa: E402

import extractor._blockvote as blockvote  # noqa: E402
import extractor._pagetype as pagetype  # noqa: E402
from extractor._blockmodel import BlockModel  # noqa: E402
from extractor._blockmodel import from_dict as block_model_from_dict  # noqa: E402
from extractor._pagemodel import PageModel, from_dict  # noqa: E402


class HeldOutTypes:
    """The two half models; ``select(page_id)`` makes detection use the one not fitted on
    that page (in this process and in any worker forked after ``__init__``)."""

    def __init__(self, fold_dir: Path) -> None:
        self.models: list[PageModel] = [
            from_dict(json.loads((fold_dir / f"fold{half}.json").read_text(encoding="utf-8")))
            for half in (0, 1)
        ]
        self.current = self.models[0]
        pagetype.page_model = lambda: self.current  # type: ignore[assignment]

    def select(self, page_id: str) -> None:
        self.current = self.models[fold(page_id)]


class HeldOutBlocks:
    """The two half block models; ``select(page_id)`` makes the block vote use the one not
    fitted on that page (in this process and in any worker forked after ``__init__``)."""

    def __init__(self, fold_dir: Path) -> None:
        self.models: list[BlockModel] = [
            block_model_from_dict(
                json.loads((fold_dir / f"fold{half}.json").read_text(encoding="utf-8"))
            )
            for half in (0, 1)
        ]
        self.current = self.models[0]
        blockvote.block_model = lambda: self.current  # type: ignore[assignment]

    def select(self, page_id: str) -> None:
        self.current = self.models[fold(page_id)]
