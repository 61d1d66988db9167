"""Rendering pages in Chromium: the browser, one page's settle loop and snapshot, the in-page
scripts and Readability.js, the defences against hostile pages, bundles, and the public
``Renderer``/``AsyncRenderer``. Imports ``renderer.fetch`` and the extractor, never the reverse.

This ``__init__`` imports nothing, so ``renderer.browser.options`` can be read (by the CLI's
parser) without loading Playwright."""
