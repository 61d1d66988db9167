"""The one error tree (extractor/_errors.py): every kind has its own exit code, none of them
argparse's 2 or the internal 70, and every kind is exported from ``extractor``."""

from __future__ import annotations

import extractor
from extractor import EXIT_INTERNAL, EXIT_USAGE, ReadermodeError, RenderError


def _kinds() -> list[type[ReadermodeError]]:
    found: list[type[ReadermodeError]] = []
    pending: list[type[ReadermodeError]] = [ReadermodeError]
    while pending:
        kind = pending.pop()
        found.append(kind)
        pending.extend(kind.__subclasses__())
    return [kind for kind in found if kind.__module__.startswith("extractor")]


def test_every_kind_has_an_exit_code_of_its_own() -> None:
    codes = [kind.exit_code for kind in _kinds()]
    assert len(codes) == len(set(codes)), sorted(codes)
    assert EXIT_USAGE not in codes and EXIT_INTERNAL not in codes


def test_every_kind_is_exported() -> None:
    assert all(getattr(extractor, kind.__name__, None) is kind for kind in _kinds())


def test_a_robots_refusal_is_a_render_error_of_its_own() -> None:
    assert issubclass(extractor.RobotsDisallowedError, RenderError)
    assert extractor.RobotsDisallowedError.exit_code == 20
