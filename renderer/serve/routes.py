"""The endpoints. Each checks its input (``limits``), answers from the cache when it can, runs
the work (``work``) and writes the answer; errors are raised and written by ``errors``."""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import Awaitable, Callable
from contextlib import suppress
from typing import Any, TypeVar

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.types import Receive

from renderer.formats import render_output
from renderer.qa.report import html_report
from renderer.serve.errors import ServiceError
from renderer.serve.limits import (
    Job,
    job_from_get,
    job_from_json,
    parse_json_object,
    read_body,
)
from renderer.serve.metrics import CONTENT_TYPE_LATEST
from renderer.serve.service import Service
from renderer.serve.work import Outcome

T = TypeVar("T")
CLIENT_CLOSED = 499
"""nginx's status for a request whose client went away first (never sent: it is for the logs
and the metrics)."""
MEDIA_TYPES = {
    "markdown": "text/markdown; charset=utf-8",
    "text": "text/plain; charset=utf-8",
    "html": "text/html; charset=utf-8",
    "json": "application/json",
    "screenshot": "image/png",
}
CONTENT_POLICY = "default-src 'none'; img-src http: https: data:; style-src 'unsafe-inline'; sandbox"
"""On every answer that is a page's content: sanitised already, and still never allowed to run
anything or load more than its images on this server's origin."""


class ClientGone(Exception):
    """The client disconnected before its answer was ready."""


def service_of(request: Request) -> Service:
    service: Service = request.app.state.service
    return service


async def _disconnected(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def until_disconnect(request: Request, work: Awaitable[T], service: Service) -> T:
    """``work``'s result, or ClientGone once the client hung up (``work`` is then cancelled,
    which closes its page: a render nobody waits for must not hold a slot)."""
    task = asyncio.ensure_future(work)
    gone = asyncio.ensure_future(_disconnected(request.receive))
    try:
        await asyncio.wait({task, gone}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        if not task.done():
            task.cancel()
            with suppress(BaseException):
                await task
            if gone.done():
                service.metrics.cancelled.inc()
        gone.cancel()
    if not task.cancelled() and task.exception() is None:
        return task.result()
    if task.cancelled():
        raise ClientGone
    raise task.exception()  # type: ignore[misc]


def extraction_payload(outcome: Outcome, job: Job) -> dict[str, Any]:
    """The CLI's JSON fields; content fields only for the formats asked for (all with
    ``json``), Markdown and text as whole documents with ``with_metadata``, the screenshot as
    base64 PNG."""
    extraction = outcome.extraction
    data = extraction.to_dict()
    for name in ("markdown", "text", "html"):
        if name not in job.formats and "json" not in job.formats:
            data.pop(name, None)
        elif job.with_metadata and name in ("markdown", "text"):
            data[name] = render_output(extraction, name, with_metadata=True)
    if "screenshot" in job.formats:
        png = outcome.screenshot
        data["screenshot"] = base64.b64encode(png).decode("ascii") if png else None
    return data


async def _answer(
    request: Request, job: Job, kind: str, write: Callable[[Outcome], tuple[str, bytes]]
) -> Response:
    """The cached answer, or the work done, written, and cached when it succeeded."""
    service = service_of(request)
    cache = service.cache if job.cache else None
    key = job.cache_key(kind)
    headers = {"X-Cache": "BYPASS" if service.cache is not None else "OFF"}
    if cache is not None:
        hit = await cache.get(key)
        if hit is not None:
            service.metrics.cache_hits.inc()
            hit_headers = {"X-Cache": "HIT", "Age": str(int(hit.age))}
            return Response(hit.body, media_type=hit.media_type, headers=_secure(hit_headers, kind))
        service.metrics.cache_misses.inc()
        headers["X-Cache"] = "MISS"
    try:
        outcome = await until_disconnect(request, service.worker.extract(job), service)
    except ClientGone:
        return Response(status_code=CLIENT_CLOSED)
    media_type, body = write(outcome)
    if cache is not None:
        await cache.put(key, media_type, body)
    return Response(body, media_type=media_type, headers=_secure(headers, kind))


def _secure(headers: dict[str, str], kind: str) -> dict[str, str]:
    headers["X-Content-Type-Options"] = "nosniff"  # a page's text is never taken for script
    if kind.endswith(":html"):
        headers["Content-Security-Policy"] = CONTENT_POLICY
    return headers


async def get_url(request: Request) -> Response:
    """``GET /<url>``: the page's main content, Markdown unless the headers ask otherwise."""
    service = service_of(request)
    target = request.scope.get("raw_path", b"").decode("latin-1").split("?", 1)[0][1:]
    if target.startswith("v1/"):  # GET on a POST endpoint: not a URL to read
        raise ServiceError(405, "MethodNotAllowed", f"/{target} takes POST")
    job = job_from_get(request, target, service.config)
    output = job.formats[0]

    def write(outcome: Outcome) -> tuple[str, bytes]:
        if output == "screenshot":
            if outcome.screenshot is None:
                raise ServiceError(502, "NoScreenshot", "the page gave no screenshot")
            return MEDIA_TYPES[output], outcome.screenshot
        if output == "json":
            return MEDIA_TYPES[output], outcome.extraction.to_json().encode()
        text = render_output(outcome.extraction, output, with_metadata=job.with_metadata)
        return MEDIA_TYPES[output], text.encode()

    if output == "screenshot" and not job.render:
        raise ServiceError(400, "BadRequest", "a screenshot needs a render: drop X-No-Render")
    return await _answer(request, job, f"get:{output}", write)


async def post_extract(request: Request) -> Response:
    """``POST /v1/extract``: ``{"url"}`` or ``{"html", "url"}`` with formats and options."""
    service = service_of(request)
    data = parse_json_object(await read_body(request, service.config.max_body_bytes))
    job = job_from_json(data, service.config)
    if "screenshot" in job.formats and not job.render:
        raise ServiceError(400, "BadRequest", 'the "screenshot" format needs "render": true')

    def write(outcome: Outcome) -> tuple[str, bytes]:
        payload = extraction_payload(outcome, job)
        return "application/json", json.dumps(payload, ensure_ascii=False).encode()

    return await _answer(request, job, "post", write)


async def post_compare(request: Request) -> Response:
    """``POST /v1/compare`` ``{"url"}``: Reader View against readermode, and a report id."""
    service = service_of(request)
    data = parse_json_object(await read_body(request, service.config.max_body_bytes))
    if data.get("url") is None:
        raise ServiceError(400, "BadRequest", 'give "url": the page to compare')
    job = job_from_json({"url": data["url"], "timeout": data.get("timeout")}, service.config)
    try:
        comparison = await until_disconnect(request, service.worker.compare(job), service)
    except ClientGone:
        return Response(status_code=CLIENT_CLOSED)
    report = await asyncio.to_thread(html_report, [comparison])
    report_id = service.reports.add(report)
    body = {
        "comparison": comparison.to_dict(),
        "report_id": report_id,
        "report_url": f"/v1/reports/{report_id}",
    }
    return JSONResponse(body)


async def get_report(request: Request) -> Response:
    """``GET /v1/reports/<id>``: the comparison's self-contained HTML report."""
    report = service_of(request).reports.get(request.path_params["report_id"])
    if report is None:
        raise ServiceError(404, "NotFound", "no such report (ids are kept for a while only)")
    headers = {"Content-Security-Policy": CONTENT_POLICY}
    return Response(report, media_type=MEDIA_TYPES["html"], headers=headers)


async def post_batch(request: Request) -> Response:
    """``POST /v1/batch`` ``{"urls", "formats"}``: ``{"id"}`` at once, the pages later."""
    service = service_of(request)
    service.admission.refuse_if_draining()
    data = parse_json_object(await read_body(request, service.config.max_body_bytes))
    batch_id = await service.batches.start(data)
    return JSONResponse({"id": batch_id, "url": f"/v1/batch/{batch_id}"}, status_code=202)


async def get_batch(request: Request) -> Response:
    """``GET /v1/batch/<id>``: progress as JSON with ``Accept: application/json``; otherwise
    the records as JSON Lines, streamed as pages finish, progress in the headers."""
    batch = service_of(request).batches.store.get(request.path_params["batch_id"])
    if batch is None:
        raise ServiceError(404, "NotFound", "no such batch (ids are kept for a while only)")
    progress = batch.progress()
    if "application/json" in request.headers.get("accept", ""):
        return JSONResponse(progress)
    headers = {f"X-Batch-{name.title()}": str(value) for name, value in progress.items()}
    return StreamingResponse(batch.lines(), media_type="application/x-ndjson", headers=headers)


async def healthz(request: Request) -> Response:
    """Up and taking work (200), or draining (503): for load balancers and the tests."""
    service = service_of(request)
    draining = service.admission.draining
    body = {"status": "draining" if draining else "ok", "browser": service.browser.connected}
    return JSONResponse(body, status_code=503 if draining else 200)


async def info(request: Request) -> Response:
    """What the web page shows about the server (its guard, its limits)."""
    config = service_of(request).config
    return JSONResponse(
        {
            "allow_private": config.allow_private,
            "max_timeout": config.max_timeout,
            "max_body_bytes": config.max_body_bytes,
            "cache": config.cache_dir is not None,
        }
    )


async def metrics(request: Request) -> Response:
    """``GET /metrics``: Prometheus text format."""
    service = service_of(request)
    service.metrics.pages_in_flight.set(service.admission.running)
    service.metrics.queue_length.set(service.admission.waiting)
    return Response(service.metrics.exposition(), media_type=CONTENT_TYPE_LATEST)
