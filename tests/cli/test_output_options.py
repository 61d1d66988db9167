"""The command line's output formats and content options: ``renderer.cli.main`` in this process
(the ``run_cli`` fixture, tests/cli/conftest.py), which writes what the process would. The
process boundary itself is tests/cli/test_cli.py's."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import lxml.etree as etree
import pytest
import yaml

from extractor import ContentTooShortError, InputNotFoundError, csv_header
from tests.cli.conftest import RunCli
from tests.cli.test_cli import assert_one_line_error
from tests.conftest import FIXTURES, REPO

PAGES = FIXTURES / "pages"
COMET = next(PAGES.glob("chrome--*")) / "source.html"
COMMENTS = next(PAGES.glob("comments--*")) / "source.html"
SITE = sorted((FIXTURES / "sites" / "kelvik-courier").glob("page-*.html"))


def schema() -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(REPO / "docs" / "readermode.xsd")))


def csv_rows(text: str) -> list[dict[str, str]]:
    reader = csv.reader(io.StringIO(text, newline=""))
    header = next(reader)
    assert header == csv_header()
    return [dict(zip(header, row, strict=True)) for row in reader]


def test_xml_output_is_valid(run_cli: RunCli) -> None:
    result = run_cli(str(COMET), "-f", "xml")
    assert result.returncode == 0, result.stderr
    document = etree.fromstring(result.stdout.encode("utf-8"))
    schema().assertValid(document)
    assert "rooftop telescope" in " ".join(document.itertext())


def test_csv_output_is_one_row(run_cli: RunCli) -> None:
    result = run_cli(str(COMET), "-f", "csv")
    assert result.returncode == 0, result.stderr
    (row,) = csv_rows(result.stdout)
    assert row["status"] == "ok"
    assert row["title"].startswith("Pupils' rooftop telescope")
    assert "\n" in row["text"] and "roof of a secondary school" in row["text"]


@pytest.mark.parametrize("output_format", ["markdown", "text"])
def test_with_metadata_front_matter(output_format: str, run_cli: RunCli) -> None:
    result = run_cli(str(COMET), "-f", output_format, "--with-metadata")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("---\n")
    header, body = result.stdout[4:].split("\n---\n", 1)
    fields = yaml.safe_load(header)
    assert fields["title"].startswith("Pupils' rooftop telescope")
    assert str(fields["date_published"]) == "2024-11-02"
    assert "rooftop" in body
    plain = run_cli(str(COMET), "-f", output_format)
    assert not plain.stdout.startswith("---")


def test_min_length_is_its_own_error(run_cli: RunCli) -> None:
    result = run_cli(str(COMET), "--min-length", "5000")
    assert_one_line_error(result, ContentTooShortError.exit_code)
    assert "below --min-length 5000" in result.stderr
    assert run_cli(str(COMET), "--min-length", "50").returncode == 0


def test_no_links_and_no_images(run_cli: RunCli) -> None:
    # The page's only link in the content is its byline's: keep bylines to have one.
    with_links = run_cli(str(COMET), "--keep", "bylines").stdout
    assert "](" in with_links
    without = run_cli(str(COMET), "--keep", "bylines", "--no-links", "--no-images").stdout
    assert "](" not in without and "![" not in without
    assert "Rhys Okafor" in without  # the link's text stays


def test_comments_apart_from_the_article(run_cli: RunCli) -> None:
    plain = run_cli(str(COMMENTS)).stdout
    assert "Sam from Leeds" not in plain
    result = run_cli(str(COMMENTS), "--include-comments")
    article, comments = result.stdout.split("\n## Comments\n", 1)
    assert "Sam from Leeds" not in article and "Sam from Leeds" in comments
    data = json.loads(run_cli(str(COMMENTS), "--include-comments", "-f", "json").stdout)
    assert "Sam from Leeds" in data["comments"]["text"]
    assert "Sam from Leeds" not in data["text"]


def test_batch_csv_on_stdout_has_a_row_per_page_failures_included(run_cli: RunCli) -> None:
    result = run_cli(*map(str, SITE[:3]), "missing.html", "-f", "csv", "--min-length", "1")
    assert result.returncode == InputNotFoundError.exit_code
    rows = csv_rows(result.stdout)
    assert [row["status"] for row in rows].count("ok") == 3
    (failed,) = [row for row in rows if row["status"] != "ok"]
    assert failed["status"] == "input-not-found" and failed["text"] == ""


def test_batch_to_an_xml_file(tmp_path: Path, run_cli: RunCli) -> None:
    output = tmp_path / "pages.xml"
    result = run_cli(*map(str, SITE), "--min-length", "100000", "-o", str(output))
    assert result.returncode == ContentTooShortError.exit_code
    document = etree.parse(str(output))
    schema().assertValid(document)
    statuses = [page.get("status") for page in document.getroot()]
    assert statuses == ["content-too-short"] * len(SITE)


def test_batch_file_format_and_flag_must_agree(tmp_path: Path, run_cli: RunCli) -> None:
    result = run_cli(*map(str, SITE[:2]), "-f", "csv", "-o", str(tmp_path / "x.xml"))
    assert result.returncode == 2
    assert "is a xml file, but -f csv" in result.stderr
