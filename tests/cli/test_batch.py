"""``readermode`` batches without a browser: files and loopback URLs with --no-render, through
``renderer.cli.main`` in this process (its stdout, stderr and exit code; the ``run_cli`` fixture
of tests/cli/conftest.py). A batch as a real process, with a terminal and Ctrl-C, is
tests/browser/test_batch_render.py's. Nothing leaves the machine."""

from __future__ import annotations

import http.server
import json
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from extractor import EmptyInputError, HTTPStatusError, InputNotFoundError
from renderer.cli import main
from tests.cli.conftest import RunCli
from tests.conftest import FIXTURES

SITES = FIXTURES / "sites"
COURIER = sorted((SITES / "kelvik-courier").glob("page-*.html"))
PLOT = sorted((SITES / "plot-fourteen").glob("page-*.html"))
TEMPLATE = (
    "Independent news from the fjord towns since 1911",
    "We use cookies to remember your text size",
    "The Courier in your inbox",
    "Read more on kelvik-courier.example",
    "Get the diary by post",
    "About the writer",
    "Maren Holt has worked plot fourteen",
)
OWN = {  # one sentence of each page's own text, by fixture page
    COURIER[0].name: "the 22:40 crossing from Kelvik to Nordvik",
    PLOT[2].name: "built a cage of four posts and chicken wire",
}


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """fixtures/sites over HTTP; /flaky/... answers 503 the first time. Counts every GET."""

    hits: Counter[str] = Counter()

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, directory=str(SITES), **kwargs)  # type: ignore[arg-type]

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        path = urlsplit(self.path).path
        SiteHandler.hits[path] += 1
        if path.startswith("/flaky/"):
            if SiteHandler.hits[path] == 1:
                self.send_error(503)
                return
            self.path = path.removeprefix("/flaky")
        super().do_GET()


@pytest.fixture(scope="module")
def sites_server() -> Iterator[str]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), SiteHandler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def jsonl(text: str) -> list[dict]:
    lines = text.splitlines()
    assert lines and all(line.startswith("{") for line in lines)
    return [json.loads(line) for line in lines]


def test_file_batch_with_failures_in_the_middle(tmp_path: Path, run_cli: RunCli) -> None:
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    listing = tmp_path / "urls.txt"
    listing.write_text(
        "# two fixture sites, a missing file and an empty one among them\n"
        + "\n".join(map(str, COURIER[:3]))
        + f"\n{tmp_path / 'missing.html'}\n\n{empty}\n"
        + "\n".join(map(str, COURIER[3:] + PLOT))
        + "\n",
        encoding="utf-8",
    )
    result = run_cli("-i", str(listing), "--jobs", "3")
    records = jsonl(result.stdout)
    assert len(records) == 12
    # The first failure in input order decides the exit code.
    assert result.returncode == InputNotFoundError.exit_code, result.stderr
    failed = {r["target"]: r for r in records if not r["ok"]}
    assert failed[str(tmp_path / "missing.html")]["error_kind"] == "InputNotFoundError"
    assert failed[str(empty)]["exit_code"] == EmptyInputError.exit_code
    assert len(failed) == 2
    # stderr is not a terminal: no progress bar, one line per failure.
    assert (
        "\r" not in result.stderr and "page/s" not in result.stderr and "it/s" not in result.stderr
    )
    assert sorted(result.stderr.splitlines()) == sorted(
        f"readermode: {target}: {record['error']}" for target, record in failed.items()
    )
    pages = {Path(r["target"]).name + r["target"].split("/")[-2]: r for r in records if r["ok"]}
    assert len(pages) == 10
    for record in (r for r in records if r["ok"]):
        for phrase in TEMPLATE:
            assert phrase not in record["text"]
        assert record["trace"][-1]["name"] == "sitewide"
        # The page's own headline is its title, not a line of its text.
        assert record["title"] and not record["text"].startswith(record["title"])
    texts = {
        Path(r["target"]).name: r["text"] for r in records if r["ok"] and "courier" in r["target"]
    }
    assert OWN[COURIER[0].name] in texts[COURIER[0].name]


def test_no_sitewide_keeps_the_template(run_cli: RunCli) -> None:
    result = run_cli(*map(str, PLOT), "--no-sitewide")
    assert result.returncode == 0, result.stderr
    records = jsonl(result.stdout)
    assert len(records) == 5
    for record in records:
        assert "Get the diary by post" in record["text"] and "About the writer" in record["text"]
        assert all(entry["name"] != "sitewide" for entry in record["trace"])
    # --sitewide-min-share 0 is the same switch.
    same = jsonl(run_cli(*map(str, PLOT), "--sitewide-min-share", "0").stdout)
    assert sorted(r["text"] for r in same) == sorted(r["text"] for r in records)


def test_url_batch_to_a_folder_with_resume(
    sites_server: str, tmp_path: Path, run_cli: RunCli
) -> None:
    urls = [f"{sites_server}/kelvik-courier/{path.name}" for path in COURIER]
    urls[2] = urls[2].replace("/kelvik-courier/", "/flaky/kelvik-courier/")
    urls.append(f"{sites_server}/kelvik-courier/gone.html")  # 404 every time
    folder = tmp_path / "out"
    args = ["--no-render", *urls, "-o", str(folder), "-f", "markdown", "--delay", "0"]

    first = run_cli(*args)
    assert first.returncode == HTTPStatusError.exit_code, first.stderr
    assert first.stdout == ""
    index = jsonl((folder / "index.jsonl").read_text(encoding="utf-8"))
    assert len(index) == 6 and sum(entry["ok"] for entry in index) == 4
    for entry in index:
        assert "text" not in entry and "markdown" not in entry
        if entry["ok"]:
            markdown = (folder / entry["file"]).read_text(encoding="utf-8")
            assert entry["file"].endswith(".md") and markdown.startswith("# ")
            assert "Read more on kelvik-courier.example" not in markdown  # 4 of 4 pages
    assert len(list(folder.glob("*.md"))) == 4

    hits_before = SiteHandler.hits.copy()
    second = run_cli(*args, "--resume")
    assert second.returncode == HTTPStatusError.exit_code  # gone.html is still gone
    refetched = SiteHandler.hits - hits_before
    refetched.pop("/robots.txt", None)  # read once per run: politeness, not a page
    assert set(refetched) == {
        urlsplit(urls[2]).path,
        urlsplit(urls[-1]).path,
    }  # the captured pages were not fetched again
    index = jsonl((folder / "index.jsonl").read_text(encoding="utf-8"))
    assert sorted(entry["target"] for entry in index) == sorted(urls)  # each target once
    assert [entry["ok"] for entry in index if entry["target"] == urls[2]] == [True]
    assert len(list(folder.glob("*.md"))) == 5


def test_jsonl_file_output_and_resume(tmp_path: Path, run_cli: RunCli) -> None:
    output = tmp_path / "pages.jsonl"
    late = tmp_path / "late.html"
    targets = [*map(str, COURIER[:2]), str(late)]
    first = run_cli(*targets, "-o", str(output))
    assert first.returncode == InputNotFoundError.exit_code and first.stdout == ""
    assert [r["ok"] for r in jsonl(output.read_text(encoding="utf-8"))].count(True) == 2
    late.write_text(COURIER[2].read_text(encoding="utf-8"), encoding="utf-8")
    second = run_cli(*targets, "-o", str(output), "--resume")
    assert second.returncode == 0, second.stderr
    records = jsonl(output.read_text(encoding="utf-8"))
    assert sorted(r["target"] for r in records) == sorted(targets) and all(r["ok"] for r in records)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("-f", "markdown"), "for one markdown file per page give -o DIR"),
        (("--resume",), "--resume reads the output back"),
        (("--url", "https://example.com/"), "--url takes a single TARGET"),
        (("--screenshot", "x.png"), "--screenshot takes a single TARGET"),
        (("--sitewide-min-share", "1.5"), "must be between 0 and 1"),
        (("--jobs", "0"), "must be a positive integer"),
        (("--delay", "-1"), "must be a number >= 0"),
        (("-i", "-", "-"), "stdin cannot be both the list"),
    ],
)
def test_batch_usage_errors(
    args: tuple[str, ...], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # In-process: argparse exits before anything runs (a process per case costs seconds).
    with pytest.raises(SystemExit) as stopped:
        main([str(COURIER[0]), str(COURIER[1]), *args])
    assert stopped.value.code == 2 and message in capsys.readouterr().err


def test_resume_needs_a_batch(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([str(COURIER[0]), "--resume", "-o", "x.jsonl"])
    assert stopped.value.code == 2 and "--resume goes with a batch" in capsys.readouterr().err


def test_output_path_that_is_a_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    existing = tmp_path / "notes.txt"
    existing.write_text("mine", encoding="utf-8")
    with pytest.raises(SystemExit) as stopped:
        main([str(COURIER[0]), str(COURIER[1]), "-o", str(existing)])
    assert stopped.value.code == 2 and "not a folder" in capsys.readouterr().err
    assert existing.read_text(encoding="utf-8") == "mine"
