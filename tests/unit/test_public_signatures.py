"""The public entry points spell out their parameters: no ``**kwargs`` and no ``Any``, so an
editor and mypy can check every call (``Renderer.render(target, **kwargs: Any)`` could not)."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable

import pytest

import extractor
import renderer
from renderer.capture import api
from renderer.capture.api import AsyncRenderer, Renderer
from renderer.qa.compare import compare_page_sync

PUBLIC: list[Callable[..., object]] = [
    extractor.extract,
    extractor.snapshot_from_bytes,
    # From their module: once renderer.capture (the sub-package) is imported, renderer.capture
    # is that module, not the function.
    api.capture,
    api.capture_async,
    api.render,
    api.render_async,
    renderer.static_snapshot,
    renderer.fetch_url,
    renderer.run_batch,
    compare_page_sync,
    *(
        getattr(cls, name)
        for cls in (Renderer, AsyncRenderer)
        for name in ("render", "capture", "capture_bundle")
    ),
]


@pytest.mark.parametrize("function", PUBLIC, ids=lambda function: function.__qualname__)
def test_every_parameter_is_named_and_typed_without_any(function: Callable[..., object]) -> None:
    signature = inspect.signature(function)
    for parameter in signature.parameters.values():
        if parameter.name == "self":
            continue
        assert parameter.kind not in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD), parameter
        assert parameter.annotation is not parameter.empty, parameter
        # Annotations are strings here (postponed evaluation): look for the name Any in them.
        assert "Any" not in re.findall(r"\w+", str(parameter.annotation)), parameter
    assert "Any" not in re.findall(r"\w+", str(signature.return_annotation))


def test_sync_renderer_takes_the_same_keywords_as_the_async_one() -> None:
    for name in ("render", "capture", "capture_bundle"):
        sync = inspect.signature(getattr(Renderer, name)).parameters
        core = inspect.signature(getattr(AsyncRenderer, name)).parameters
        assert list(sync) == list(core), name
        assert [p.default for p in sync.values()] == [p.default for p in core.values()], name
