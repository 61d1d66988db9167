"""Mozilla's Readability.js, from node_modules (installed by ``npm ci``), run inside the page.

It is evaluated as one function expression, never added as a <script> tag, so it works on pages
with a Content-Security-Policy; contexts also have ``bypass_csp`` for our other scripts.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from extractor import (
    FEED_MARK,
    HIDDEN_MARK,
    READABILITY_JS_BUILDER_NAMES,
    VISIBLE_MARK,
    ReadabilityResult,
)

NODE_MODULES_ENV = "READERMODE_NODE_MODULES"
PACKAGE = Path("@mozilla") / "readability"
_RUNNER = Path(__file__).with_name("js") / "readability_run.js"

CHAR_THRESHOLD = 0
"""Readability.js's default of 500 characters rejects short but real articles; our cascade
decides what is too short (it rejects a result under ``ExtractOptions.min_words`` words, by
default an empty or one-word one: docs/architecture.md, cascade and refinements), so the
in-page pass accepts anything."""


READER_VIEW_CHAR_THRESHOLD = 500
"""Readability.js's default ``charThreshold``, which Firefox Reader View keeps."""

CLASSES_TO_PRESERVE = ["caption"]
"""The extra class Mozilla's expected outputs were generated with."""


class ReadabilityUnavailable(Exception):
    """Readability.js is not installed (``npm ci`` was not run)."""


PROJECT_NODE_MODULES = Path(__file__).resolve().parents[2] / "node_modules"
"""The project's own node_modules, next to the ``renderer`` package folder: the repository root
for a source or editable install, where ``npm ci`` puts it."""


def readability_package_dir() -> Path:
    """The ``@mozilla/readability`` folder the renderer loads: in ``$READERMODE_NODE_MODULES``
    when set, else in the project's own node_modules.

    Only the installation decides: never the working directory or an arbitrary ancestor folder,
    whose node_modules would change the in-page extraction (and the bundle manifest's version)."""
    return node_modules_dir() / PACKAGE


def node_modules_dir() -> Path:
    """``$READERMODE_NODE_MODULES`` when set, else the project's own node_modules."""
    configured = os.environ.get(NODE_MODULES_ENV)
    return Path(configured) if configured else PROJECT_NODE_MODULES


@cache
def readability_expression() -> str:
    """The function expression ``(options) => result`` to pass to ``page.evaluate``."""
    package = readability_package_dir()
    library, readerable = package / "Readability.js", package / "Readability-readerable.js"
    if not (library.is_file() and readerable.is_file()):
        raise ReadabilityUnavailable(
            f"Readability.js not found in {package}: install it with ./scripts/setup (which runs "
            f"npm ci in the project), or set {NODE_MODULES_ENV} to a node_modules folder holding "
            "@mozilla/readability"
        )
    return (
        "(options) => {\n"
        + library.read_text(encoding="utf-8")
        + "\n"
        + readerable.read_text(encoding="utf-8")
        + "\nreturn ("
        + _RUNNER.read_text(encoding="utf-8")
        + ")(options, Readability, isProbablyReaderable);\n}"
    )


@dataclass(frozen=True, kw_only=True)
class ReadabilityRun:
    """One in-page run: the result (None when Readability.js found nothing) and its notes."""

    result: ReadabilityResult | None
    readerable: bool | None
    error: str | None
    removed_hidden: int
    removed_comments: int
    ms: float


def run_options(
    html: str | None,
    *,
    hidden_attribute: str,
    filter_input: bool = True,
    char_threshold: int = CHAR_THRESHOLD,
    classes_to_preserve: list[str] | None = None,
    drop_comments: bool = True,
) -> dict[str, Any]:
    return {
        "dropComments": drop_comments,
        "html": html,
        "hiddenAttribute": hidden_attribute,
        "feedAttribute": FEED_MARK,
        "visibleAttribute": VISIBLE_MARK,
        "removeHidden": filter_input,
        "removeComments": filter_input,
        "charThreshold": char_threshold,
        "classesToPreserve": classes_to_preserve,
        # ours only: Reader View reads the page's classes as Firefox does
        "builderClasses": READABILITY_JS_BUILDER_NAMES if filter_input else None,
    }


def parse_run(raw: dict[str, Any]) -> ReadabilityRun:
    """Turn the in-page result object into typed Python."""
    result = None
    if raw.get("content") is not None:
        result = ReadabilityResult(
            content=raw.get("content"),
            title=raw.get("title"),
            byline=raw.get("byline"),
            excerpt=raw.get("excerpt"),
            site_name=raw.get("siteName"),
            lang=raw.get("lang"),
            dir=raw.get("dir"),
            published_time=raw.get("publishedTime"),
            text_content=raw.get("textContent"),
            length=raw.get("length"),
            readerable=raw.get("readerable"),
        )
    return ReadabilityRun(
        result=result,
        readerable=raw.get("readerable"),
        error=raw.get("error"),
        removed_hidden=int(raw.get("removedHidden") or 0),
        removed_comments=int(raw.get("removedComments") or 0),
        ms=float(raw.get("ms") or 0.0),
    )


def reader_view_options() -> dict[str, Any]:
    """Options for ``readability_run.js`` that make it Firefox Reader View: a clone of the live
    document, no hidden/comment filtering, the default 500-character threshold."""
    return run_options(
        None,
        hidden_attribute=HIDDEN_MARK,
        filter_input=False,
        char_threshold=READER_VIEW_CHAR_THRESHOLD,
        classes_to_preserve=list(CLASSES_TO_PRESERVE),
    )
