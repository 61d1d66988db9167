"""Comments and docstrings point at documents in the repository (docs/architecture.md), never
at a design document outside it, which a reader of the code does not have."""

from __future__ import annotations

from tests.conftest import REPO

OUTSIDE_DOCUMENT = "DESIGN" + ".md"  # split, so this file does not name it


def test_no_pointer_to_a_design_document_outside_the_repository() -> None:
    pointers = [
        f"{path.relative_to(REPO)}:{number}"
        for folder in ("extractor", "renderer", "tests", "scripts")
        for path in sorted((REPO / folder).rglob("*"))
        if path.is_file() and path.suffix in {".py", ".js", ""}
        for number, line in enumerate(
            path.read_text(encoding="utf-8", errors="replace").splitlines(), 1
        )
        if OUTSIDE_DOCUMENT in line
    ]
    assert pointers == []
