"""Defects a code review found in the command line, each pinned: a bad ``--url`` is a usage
error (it was an internal error, exit 70), an output we cannot write is ``OutputError`` (exit
19; a bare ``except OSError`` turned read and launch errors into exit 1 too), a failure to read
a list file is the list's error, and argparse's namespace is left as argparse made it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from extractor import OutputError
from renderer.cli import main
from renderer.cli.invocation import Mode, check_args
from renderer.cli.parser import build_parser
from tests.cli.test_cli import DEMO, assert_one_line_error, readermode


@pytest.mark.parametrize(
    "bad_url",
    ["http://[::1", "http://example.com:port/", "not a url", "ftp://example.com/a", "http:///a"],
)
def test_a_bad_url_is_a_usage_error(bad_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([str(DEMO), "--no-render", "--url", bad_url])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "--url" in err and "internal error" not in err


def test_a_good_url_still_resolves_links(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(DEMO), "--no-render", "--url", "https://news.example/a/b", "-f", "json"]) == 0
    assert "https://news.example/a/b" in capsys.readouterr().out


def test_an_output_file_that_cannot_be_written_is_exit_19(tmp_path: Path) -> None:
    missing_folder = tmp_path / "no" / "such" / "folder" / "out.md"
    result = readermode(str(DEMO), "--no-render", "-o", str(missing_folder))
    assert_one_line_error(result, OutputError.exit_code)
    assert "cannot write" in result.stderr and str(missing_folder) in result.stderr


def test_a_save_html_path_that_is_a_folder_is_exit_19(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(DEMO), "--no-render", "--save-html", str(tmp_path)]) == 19
    assert capsys.readouterr().err.startswith("readermode: cannot write")


def test_a_batch_output_file_in_a_folder_that_is_a_file_is_exit_19(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    code = main([str(DEMO), str(DEMO), "--no-render", "-o", str(blocker / "pages.jsonl")])
    assert code == 19
    assert "cannot write" in capsys.readouterr().err


def test_an_unexpected_os_error_is_an_internal_error_not_exit_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only writing the output is OutputError: any other OSError escaping the pipeline is a
    bug of ours, reported as one (exit 70), not as an exit code the table does not list."""

    def broken(*_: object, **__: object) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr("renderer.cli.page.static_snapshot", broken)
    assert main([str(DEMO), "--no-render"]) == 70
    assert "internal error: OSError" in capsys.readouterr().err


def test_a_list_file_without_read_permission_is_an_input_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    unreadable = tmp_path / "list.txt"
    unreadable.write_text(str(DEMO), encoding="utf-8")
    unreadable.chmod(0)
    if os.access(unreadable, os.R_OK):  # root reads anything: use a folder instead
        unreadable = tmp_path
    assert main(["-i", str(unreadable), "--no-render"]) == 4
    assert "not a readable text file" in capsys.readouterr().err


def test_check_args_leaves_the_namespace_as_argparse_made_it() -> None:
    parser = build_parser()
    for argv, mode, targets, output_format in (
        ([str(DEMO)], Mode.PAGE, (str(DEMO),), "markdown"),
        ([str(DEMO), str(DEMO)], Mode.BATCH, (str(DEMO), str(DEMO)), "jsonl"),
        (["--compare", str(DEMO)], Mode.COMPARE, (str(DEMO),), "markdown"),
        ([str(DEMO), "--from-bundle"], Mode.FROM_BUNDLE, (str(DEMO),), "markdown"),
    ):
        args = parser.parse_intermixed_args(argv)
        before = dict(vars(args))
        invocation = check_args(parser, args)
        assert vars(args) == before
        assert (invocation.mode, invocation.targets, invocation.format) == (
            mode,
            targets,
            output_format,
        )
