"""The snapshot: ``snapshot.js`` flattens the live page (shadow roots, same-origin iframes),
marks what a reader cannot see and caps the result; this side turns what it reports into
warnings, or an error when the result is over a cap anyway."""

from __future__ import annotations

from typing import Any

from extractor import HIDDEN_MARK, LimitExceededError
from renderer.browser.inpage import HELD
from renderer.browser.options import IDLE_QUIET_MS, RenderOptions
from renderer.browser.session import PageSession

MAX_SNAPSHOT_DEPTH = 500
"""Elements nested deeper are left out of the snapshot (their content is kept). The
extractor's text walk recurses once per level and meets Python's recursion limit (1,000) at
~990 levels; Chromium's HTML parser itself stops nesting at 512, only scripts go deeper."""


BOX_MARK = "data-readermode-box"
"""With ``RenderOptions.record_layout``: a visible block's ``x,y,width,height,fontSize``."""
VIEWPORT_MARK = "data-readermode-viewport"
"""With ``RenderOptions.record_layout``, on ``<html>``: ``width,height,pageWidth,pageHeight``."""


def _snapshot_options(options: RenderOptions) -> dict[str, Any]:
    found: dict[str, Any] = {
        "hiddenAttribute": HIDDEN_MARK,
        "maxElements": options.max_elements,
        "maxBytes": options.max_dom_bytes,
        "maxDepth": MAX_SNAPSHOT_DEPTH,
    }
    if options.record_layout:
        found.update(boxAttribute=BOX_MARK, viewportAttribute=VIEWPORT_MARK)
    return found


async def take_snapshot(session: PageSession, options: RenderOptions) -> dict[str, Any]:
    """One run of ``snapshot.js``: ``{html, baseURI, url, title, stats}``."""
    snap: dict[str, Any] = await session.call("snapshot", _snapshot_options(options), cap=20.0)
    return snap


async def take_first_snapshot(
    session: PageSession,
    options: RenderOptions,
    readability: dict[str, Any] | None,
    *,
    ahead: bool = False,
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any] | str | None]:
    """The page's ``quiet`` state and a snapshot taken in the same synchronous call, and,
    when ``readability`` (Readability.js's run options) is given and the page was idle then,
    that run on the snapshot (``inpage.FIRST_SNAPSHOT``): ``(before, snap, raw run or None)``.
    A page complete at load is read in this one call, and the snapshot's HTML never goes back
    into the page. ``ahead``: the run is held, started in the page's next task, so that the
    snapshot can be read while it goes on (``inpage.HELD`` in its place, ``extras.run_readability``
    takes it)."""
    result: dict[str, Any] = await session.call(
        "first",
        {
            "snapshot": _snapshot_options(options),
            "readability": readability,
            "idleMs": IDLE_QUIET_MS,
            "ahead": ahead,
            "heldMark": HELD,
        },
        cap=40.0,
    )
    return result.get("before") or {}, result["snap"], result.get("readability")


def snapshot_warnings(snap: dict[str, Any], options: RenderOptions, url: str) -> list[str]:
    """Warnings for what the snapshot could not do: a walk that failed (the page's markup was
    read as it is: nothing flattened, nothing hidden left out), elements it could not
    classify, a cut at a cap. LimitExceededError when it is over a cap anyway (a failed walk
    falls back to the whole page's markup, uncapped)."""
    stats = snap.get("stats") or {}
    warnings = []
    failed = stats.get("failed")
    if failed:
        warnings.append(
            f"partial: the snapshot walk failed ({_clip(str(failed))}); the page's markup was "
            "read as it is, without its shadow roots and frames, hidden elements included"
        )
    errors = int(stats.get("errors") or 0)
    if errors:
        warnings.append(
            f"snapshot: {errors:,} element(s) could not be read whole (visibility, attributes or "
            "children) and were kept as they are"
        )
    size = len(snap["html"].encode("utf-8", "surrogatepass"))
    if size > options.max_dom_bytes:
        raise LimitExceededError(
            "max_dom_bytes", options.max_dom_bytes, f"the snapshot of {url} has {size:,} bytes"
        )
    if stats.get("truncatedBy") == "bytes":
        warnings.append(
            f"partial: the snapshot stopped at max_dom_bytes={options.max_dom_bytes:,} bytes"
        )
    elif stats.get("truncated"):
        warnings.append(
            f"partial: the snapshot stopped at max_elements={options.max_elements:,} elements"
        )
    return warnings


def _clip(text: str, limit: int = 120) -> str:
    """One line of at most ``limit`` characters: a page's exception message is page text."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "\u2026"
