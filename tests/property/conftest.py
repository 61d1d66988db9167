"""Hypothesis profiles for the property and fuzz tests, and the fuzz tests' input count.

- ``ci`` (the default): a bounded run, so tests/property stays well under a minute on a loaded
  2-core machine. Tests with their own ``settings(max_examples=...)`` keep their numbers.
- ``fuzz``: ``READERMODE_FUZZ_EXAMPLES`` examples (default 5,000) per fuzz target, for
  ``scripts/fuzz``; failures found are saved in the example database (.hypothesis/) and tried
  first on the next run.

Pick one with ``HYPOTHESIS_PROFILE=fuzz``. No profile sets a Hypothesis deadline: a slow input on
a loaded machine is not a bug; the fuzz tests enforce their own per-input time limit instead.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

CI_EXAMPLES = 15
FUZZ_EXAMPLES = int(os.environ.get("READERMODE_FUZZ_EXAMPLES", "5000"))

_RELAXED = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]

# The ci profile is derandomized: the same examples every run, so a run fails only for a change
# of the code, never for a draw (a draw once found the empty-table bug mid-run and spent five
# minutes shrinking it). Exploration is the fuzz profile's job: HYPOTHESIS_PROFILE=fuzz.
settings.register_profile(
    "ci",
    max_examples=CI_EXAMPLES,
    deadline=None,
    suppress_health_check=_RELAXED,
    derandomize=True,
)
settings.register_profile(
    "fuzz",
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    suppress_health_check=_RELAXED,
    print_blob=True,  # a failure prints the blob that reproduces it with @reproduce_failure
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


FAILED_FUZZ_TARGETS: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.failed and "test_fuzz.py" in report.nodeid:
        FAILED_FUZZ_TARGETS.append(report.nodeid.split("::")[-1])


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say how many inputs the fuzz targets ran (and which failed); with READERMODE_FUZZ_REPORT
    set, write the same as JSON to that file for scripts/fuzz."""
    fuzz = sys.modules.get("test_fuzz")
    counts = dict(getattr(fuzz, "INPUTS_RUN", {}))
    if not counts:
        return
    slowest = getattr(fuzz, "SLOWEST", (0.0, ""))
    terminalreporter.write_line(
        f"fuzz: {sum(counts.values()):,} inputs run "
        f"({', '.join(f'{name} {count:,}' for name, count in sorted(counts.items()))}); "
        f"slowest input {slowest[0]:.2f} CPU s ({slowest[1]}); "
        f"failed targets: {', '.join(FAILED_FUZZ_TARGETS) or 'none'}"
    )
    report = os.environ.get("READERMODE_FUZZ_REPORT")
    if report:
        summary = {
            "inputs_run": counts,
            "total": sum(counts.values()),
            "slowest_cpu_s": slowest[0],
            "slowest_target": slowest[1],
            "failed": FAILED_FUZZ_TARGETS,
        }
        Path(report).write_text(json.dumps(summary, indent=2))
