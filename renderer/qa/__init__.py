"""Reader View QA: readermode next to Firefox Reader View on one page (``compare``), the HTML
and text reports of that comparison (``report``), and the fidelity check of our in-page
Readability.js pass against Mozilla's own test pages (``fidelity``)."""
