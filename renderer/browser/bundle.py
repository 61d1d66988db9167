"""Capture bundles: everything one capture produced, in one folder, re-extractable offline.

A bundle holds the snapshot the extractor read (``snapshot.json``: the DOM plus the in-page
Readability.js result, so re-extraction needs no browser and gives the same result), a
viewable copy of that DOM (``snapshot.html``, through the sanitiser: a bundle must not carry
script), an MHTML archive of the live page (``page.mhtml``, Chromium's own
``Page.captureSnapshot``), a full-page screenshot, the extraction as JSON and Markdown, and a
manifest with the versions and options that made it.
"""

from __future__ import annotations

import hashlib
import json
import platform
from dataclasses import asdict, dataclass, fields, is_dataclass
from datetime import UTC, datetime
from importlib import metadata as importlib_metadata
from pathlib import Path
from typing import Any

from extractor import (
    STAGES_BY_NAME,
    Extraction,
    ExtractOptions,
    InputNotFoundError,
    PageSnapshot,
    UndecodableInputError,
    extract,
    sanitize_document,
)
from renderer.browser.options import RenderOptions
from renderer.browser.readability import readability_package_dir
from renderer.fetch.controls import RequestControls

BUNDLE_FORMAT = 1
"""Bumped when a bundle's layout changes; ``read_bundle`` refuses formats it does not know."""

PYTHON_LIBRARIES = (
    "readermode",
    "playwright",
    "lxml",
    "readability-lxml",
    "nh3",
    "html-to-markdown",
    "charset-normalizer",
)


@dataclass(frozen=True)
class BundleLayout:
    """File names inside a bundle folder."""

    snapshot_json: str = "snapshot.json"
    snapshot_html: str = "snapshot.html"
    mhtml: str = "page.mhtml"
    screenshot: str = "screenshot.png"
    extraction_json: str = "extraction.json"
    markdown: str = "content.md"
    manifest: str = "manifest.json"


LAYOUT = BundleLayout()


def _version(distribution: str) -> str | None:
    try:
        return importlib_metadata.version(distribution)
    except importlib_metadata.PackageNotFoundError:
        return None


def readability_js_version() -> str | None:
    """The version of the Readability.js package the renderer would load, if installed."""
    package_json = readability_package_dir() / "package.json"
    if not package_json.is_file():
        return None
    package: dict[str, str] = json.loads(package_json.read_text(encoding="utf-8"))
    return package.get("version")


def software_versions(browser_version: str | None) -> dict[str, Any]:
    """Everything whose version can change a capture's result."""
    return {
        "chromium": browser_version,
        "readability.js": readability_js_version(),
        "python": platform.python_version(),
        **{name: _version(name) for name in PYTHON_LIBRARIES},
    }


def _jsonable(value: Any) -> Any:
    if isinstance(value, RequestControls):  # header values and cookies can be secrets
        return value.redacted()
    if is_dataclass(value) and not isinstance(value, type):  # an --actions step
        return {f.name: _jsonable(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, frozenset | set):
        return sorted(value)
    if isinstance(value, tuple | list):
        return [_jsonable(item) for item in value]
    if isinstance(getattr(value, "name", None), str) and callable(value):  # a cascade stage
        return value.name
    return value


def options_to_dict(options: RenderOptions | ExtractOptions) -> dict[str, Any]:
    """An options dataclass as JSON-ready data (stages by name, sets as sorted lists)."""
    return {f.name: _jsonable(getattr(options, f.name)) for f in fields(options)}


def extract_options_from_dict(data: dict[str, Any]) -> ExtractOptions:
    """The inverse of ``options_to_dict`` for extraction options; unknown keys are ignored so
    a bundle written by a newer readermode still reads."""
    known = {f.name for f in fields(ExtractOptions)}
    values = {key: value for key, value in data.items() if key in known}
    if "rules" in values:
        values["rules"] = frozenset(values["rules"])
    if values.get("stages") is not None:
        unknown = [name for name in values["stages"] if name not in STAGES_BY_NAME]
        if unknown:
            raise UndecodableInputError(f"bundle names unknown cascade stages: {unknown}")
        values["stages"] = tuple(STAGES_BY_NAME[name] for name in values["stages"])
    return ExtractOptions(**values)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_bundle(
    directory: Path,
    snapshot: PageSnapshot,
    extraction: Extraction,
    *,
    render_options: RenderOptions | None,
    extract_options: ExtractOptions,
    browser_version: str | None,
) -> Path:
    """Write the snapshot, extraction and manifest into ``directory`` (created if needed).

    The MHTML archive and the screenshot are written by the render itself (their paths were
    in ``render_options``); the manifest lists whichever of them exist, with checksums.
    """
    directory.mkdir(parents=True, exist_ok=True)
    (directory / LAYOUT.snapshot_json).write_text(snapshot.to_json(), encoding="utf-8")
    (directory / LAYOUT.snapshot_html).write_text(
        sanitize_document(snapshot.page_html), encoding="utf-8"
    )
    (directory / LAYOUT.extraction_json).write_text(extraction.to_json(), encoding="utf-8")
    (directory / LAYOUT.markdown).write_text(extraction.markdown, encoding="utf-8")
    files = {
        name: {"bytes": (directory / name).stat().st_size, "sha256": _sha256(directory / name)}
        for name in asdict(LAYOUT).values()
        if name != LAYOUT.manifest and (directory / name).is_file()
    }
    manifest = {
        "bundle_format": BUNDLE_FORMAT,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "url": snapshot.url,
        "final_url": snapshot.final_url,
        "stage": extraction.stage,
        "versions": software_versions(browser_version),
        "render_options": options_to_dict(render_options) if render_options else None,
        "extract_options": options_to_dict(extract_options),
        "timings": snapshot.timings,
        "warnings": list(snapshot.warnings),
        "files": files,
    }
    (directory / LAYOUT.manifest).write_text(
        json.dumps(manifest, ensure_ascii=False, indent=2), encoding="utf-8"
    )
    return directory


def read_bundle(directory: Path) -> tuple[PageSnapshot, ExtractOptions]:
    """The snapshot and extraction options a bundle was made with."""
    manifest_path = directory / LAYOUT.manifest
    snapshot_path = directory / LAYOUT.snapshot_json
    if not manifest_path.is_file() or not snapshot_path.is_file():
        raise InputNotFoundError(
            f"{directory}: not a readermode bundle (needs {LAYOUT.manifest} and "
            f"{LAYOUT.snapshot_json})"
        )
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        snapshot = PageSnapshot.from_json(snapshot_path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError, KeyError, TypeError) as exc:
        raise UndecodableInputError(f"{directory}: damaged bundle ({exc})") from exc
    if manifest.get("bundle_format") != BUNDLE_FORMAT:
        raise UndecodableInputError(
            f"{directory}: bundle format {manifest.get('bundle_format')!r}, this readermode "
            f"reads format {BUNDLE_FORMAT}"
        )
    return snapshot, extract_options_from_dict(manifest.get("extract_options") or {})


def extract_from_bundle(directory: Path, *, options: ExtractOptions | None = None) -> Extraction:
    """Re-extract a bundle offline: by default with the options it was captured with."""
    snapshot, bundled_options = read_bundle(directory)
    return extract(snapshot, options=options or bundled_options)
