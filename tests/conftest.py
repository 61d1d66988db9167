"""Shared test helpers: paths to fixtures and the shared corpora, and the check that no
Chromium outlives the suite."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
SHARED = REPO.parent / "shared"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite the expected output files of the golden tests (review the diff!)",
    )


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """No Chromium may outlive the suite: every browser the tests started must be shut down.

    Here and not in tests/browser/conftest.py: with pytest-xdist the controller loads this file
    only, and the controller's process tree holds every worker's browsers. Chromium takes a
    moment to exit after its driver (longer on a busy machine), so the check waits until they
    are gone; a browser left running never goes, and fails the run after the backstop."""
    from tests.browser.conftest import chromium_descendants, wait_until_gone

    pid = os.getpid()
    gone = wait_until_gone(lambda: chromium_descendants(pid))
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.ensure_newline()
    if not gone:
        leftover = chromium_descendants(pid)
        if reporter is not None:
            reporter.write_line(
                f"FAILED: {len(leftover)} Chromium process(es) left running after the suite: "
                f"{leftover}",
                red=True,
            )
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    elif reporter is not None:
        reporter.write_line("browser suite: no Chromium process left running")
