"""The ``readermode`` command line: ``main`` is the console script's entry point."""

from renderer.cli.app import main

__all__ = ["main"]
