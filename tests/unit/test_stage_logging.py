"""Importing the extractor leaves the host's logging alone; readability-lxml's failure
traceback is silenced only while our stage runs it (the trace records the failure)."""

from __future__ import annotations

import logging
import subprocess
import sys

import pytest

import extractor._stages
from extractor import ExtractOptions, ReadabilityLxmlStage, ScorerStage, extract

STAGES = ExtractOptions(stages=(ReadabilityLxmlStage(), ScorerStage()))

PAGE = (
    "<html><head><title>Story</title></head><body><article>"
    + "".join(
        f"<p>Paragraph {i} of the story, with enough words to read as prose.</p>" for i in range(6)
    )
    + "</article></body></html>"
)
READABILITY_LOGGER = "readability.readability"


def test_importing_the_extractor_leaves_readability_logging_as_it_was() -> None:
    code = (
        "import logging, extractor, extractor._stages\n"
        "for name in ('readability', 'readability.readability'):\n"
        "    log = logging.getLogger(name)\n"
        "    assert log.propagate, name\n"
        "    assert not log.handlers and not log.filters, (name, log.handlers, log.filters)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def _break_readability_lxml(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: object, **kwargs: object) -> object:
        raise RuntimeError("readability-lxml broke")

    # Inside Document.summary's try, which logs the traceback with log.exception and re-raises.
    monkeypatch.setattr(extractor._stages._TreeDocument, "get_article", fail)


def test_readability_failure_is_traced_not_logged_while_our_stage_runs(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _break_readability_lxml(monkeypatch)
    caplog.set_level(logging.DEBUG)
    result = extract(PAGE, options=STAGES)
    failed = next(entry for entry in result.trace if entry.name == "readability-lxml")
    assert failed.outcome == "skipped" and "readability-lxml broke" in failed.reason
    assert not [
        r for r in caplog.records if r.name == READABILITY_LOGGER and r.levelno >= logging.ERROR
    ]


def test_readability_logs_reach_the_host_outside_our_stage(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _break_readability_lxml(monkeypatch)
    caplog.set_level(logging.DEBUG)
    extract(PAGE, options=STAGES)
    logging.getLogger(READABILITY_LOGGER).error("the host's own use of readability-lxml")
    errors = [
        r for r in caplog.records if r.name == READABILITY_LOGGER and r.levelno >= logging.ERROR
    ]
    assert [r.getMessage() for r in errors] == ["the host's own use of readability-lxml"]
    assert not logging.getLogger(READABILITY_LOGGER).filters


def test_no_traceback_on_stderr_when_the_host_configured_no_logging() -> None:
    # Python's last-resort handler prints unhandled WARNING+ records to stderr: not ours.
    code = (
        "import extractor, extractor._stages as s\n"
        "from extractor import ExtractOptions, ReadabilityLxmlStage, ScorerStage\n"
        "def fail(*a, **k): raise RuntimeError('readability-lxml broke')\n"
        "s._TreeDocument.get_article = fail\n"
        f"r = extractor.extract({PAGE!r}, options=ExtractOptions("
        "stages=(ReadabilityLxmlStage(), ScorerStage())))\n"
        "assert r.stage == 'scorer'\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stderr == ""
