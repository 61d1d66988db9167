"""Batch capture: many targets through one browser, host politeness, site-wide boilerplate,
and the outputs (JSON Lines, CSV, XML, a folder) with ``--resume``."""
