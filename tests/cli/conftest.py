"""The command run inside the test process, for tests of what it writes and returns.

Why: each ``python -m renderer.cli`` subprocess costs an interpreter start and the imports,
about a second on the 2-core machine. Tests of output formats, options and batches that do not
test the process boundary call ``renderer.cli.main`` instead, with stdout and stderr captured.
What needs a real process stays one (tests/cli/test_cli.py and the browser tests): exit codes
of a process, signals, the bytes on a stdout pipe, and "no Chromium left running".
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest

from renderer.cli import main

RunCli = Callable[..., "subprocess.CompletedProcess[str]"]


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]) -> RunCli:
    """``run_cli(*args)``: main(args) in this process, as a CompletedProcess (exit code, stdout,
    stderr), so a test reads the same as with the subprocess helper ``readermode``."""

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        capsys.readouterr()  # whatever the test printed before is not the command's
        # On a thread of its own: pytest-playwright's sync fixtures may leave an event loop
        # running on this thread (another module of the same xdist worker), and the batch
        # runner's asyncio.run refuses to start inside one.
        try:
            with ThreadPoolExecutor(max_workers=1) as pool:
                code = pool.submit(main, list(args)).result()
        except SystemExit as exc:  # argparse's usage errors: exit code 2
            code = exc.code if isinstance(exc.code, int) else 1
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess(["readermode", *args], code, out, err)

    return run
