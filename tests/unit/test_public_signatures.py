"""The public entry points spell out their parameters: no ``**kwargs`` and no ``Any``, so an
editor and mypy can check every call (``Renderer.render(target, **kwargs: Any)`` could not)."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable

import pytest

import extractor
import renderer
from renderer.browser.api import AsyncRenderer, Renderer
from renderer.qa.compare import compare_page_sync

PUBLIC: list[Callable[..., object]] = [
    extractor.extract,
    extractor.snapshot_from_bytes,
    extractor.prepare_extraction,
    renderer.capture,
    renderer.capture_async,
    renderer.render,
    renderer.render_async,
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


def test_the_public_names_are_the_functions_whatever_was_imported_before() -> None:
    """A sub-package named like a public function (``renderer.capture`` once was) replaces the
    function with the module as soon as anything inside it is imported."""
    import renderer.browser.api
    import renderer.browser.page  # noqa: F401 - imported for its side effect on renderer

    for name in renderer.__all__:
        value = getattr(renderer, name)
        assert not inspect.ismodule(value), f"renderer.{name} is a module"
    assert renderer.capture is renderer.browser.api.capture
