"""``readermode serve``: the extraction as an HTTP service and a web page, on Starlette and
uvicorn, sharing one Chromium (``renderer.browser``) between every request.

One responsibility a module: ``config`` (the server's settings), ``errors`` (the error tree as
HTTP statuses and JSON), ``auth`` (the bearer token), ``limits`` (body caps, budgets, request
options), ``admission`` (at most N pages at once, a bounded queue, 429, the drain),
``browser`` (the shared browser, restarted when it dies), ``work`` (one extraction),
``cache`` (results by URL and options), ``metrics`` (Prometheus), ``reports`` and ``batches``
(results kept for their id), ``routes`` and ``app`` (the endpoints), ``server`` (uvicorn and
SIGTERM), ``openapi`` (the API's description) and ``static/`` (the web page). The command
line is ``renderer.cli.serve``.
"""
