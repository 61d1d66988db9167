"""The house rules of the code layout, held by a test so they stay true: no module over 600
lines and no function over 80 in ``extractor/`` and ``renderer/`` (docs/architecture.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import REPO

MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80
PACKAGES = ("extractor", "renderer")
EXEMPT: frozenset[str] = frozenset()
"""Generated code or data tables allowed past the limits (relative paths); none today."""


def _modules() -> list[Path]:
    return sorted(path for package in PACKAGES for path in (REPO / package).rglob("*.py"))


def _long_functions(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"{node.name} ({node.end_lineno - node.lineno + 1} lines, line {node.lineno})"
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    ]


@pytest.mark.parametrize("path", _modules(), ids=lambda path: str(path.relative_to(REPO)))
def test_module_and_function_sizes(path: Path) -> None:
    if str(path.relative_to(REPO)) in EXEMPT:
        pytest.skip("exempt: generated or a data table")
    lines = path.read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_MODULE_LINES, f"{lines} lines: split it by responsibility"
    assert not _long_functions(path), "split into named steps"


def test_the_size_check_finds_a_long_function(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    module = tmp_path / "long.py"
    module.write_text(f"def long_one():\n{body}\n", encoding="utf-8")
    assert _long_functions(module) == [f"long_one ({MAX_FUNCTION_LINES + 1} lines, line 1)"]
