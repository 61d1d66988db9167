"""A page with no main content, from the command line: exit code 15 and one line that says
what the page is; ``--keep no-content`` prints its reading."""

from __future__ import annotations

from extractor import NoContentError
from tests.cli.conftest import RunCli
from tests.conftest import FIXTURES

LOGIN_WALL = FIXTURES / "no-content" / "login-wall.html"


def test_the_command_exits_with_no_content_and_says_why(run_cli: RunCli) -> None:
    result = run_cli(str(LOGIN_WALL), "--no-render", "-f", "text")
    assert result.returncode == NoContentError.exit_code
    assert "login wall" in result.stderr and "Traceback" not in result.stderr
    assert result.stdout == ""


def test_keep_no_content_prints_the_reading(run_cli: RunCli) -> None:
    result = run_cli(str(LOGIN_WALL), "--no-render", "-f", "text", "--keep", "no-content")
    assert result.returncode == 0
    assert "Forgot your password?" in result.stdout
