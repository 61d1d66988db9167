"""Getting a page without a browser: the static path (files, stdin, URLs over HTTP) and the
private-network address guard. Nothing here imports Playwright: ``--no-render`` runs on it."""
