"""Fixtures of the service tests: a loopback fixture server and pytest-playwright's browser."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

# pytest-playwright's browser is the system Chromium with our flags, as in tests/browser.
from tests.browser.conftest import browser_type_launch_args as browser_type_launch_args
from tests.serve.harness import FixtureServer


@pytest.fixture(scope="module")
def pages() -> Iterator[FixtureServer]:
    server = FixtureServer()
    yield server
    server.close()
