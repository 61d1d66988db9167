"""What a request may ask for, checked: the body read under its cap, the JSON parsed, every
option typed, the budget capped by the server's, the formats known. Everything a client sends
goes through here before any work starts, and every refusal is a 400/413 with its reason."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import Request

from extractor import ALL_RULES, STAGES_BY_NAME, ExtractOptions, InputTooLargeError
from renderer.serve.config import ServeConfig
from renderer.serve.controls import Controls, controls_from_json
from renderer.serve.errors import bad_request

FORMATS = ("markdown", "text", "html", "json", "screenshot")
"""What POST /v1/extract can return (``json``: every field of the CLI's ``-f json``)."""
GET_FORMATS = ("markdown", "text", "html", "json", "screenshot")
_SCHEME_SLASHES = re.compile(r"^(https?):/+", re.IGNORECASE)
TRUE_WORDS = frozenset({"1", "true", "yes", "on"})


@dataclass(frozen=True, kw_only=True)
class Job:
    """One extraction a client asked for, checked."""

    url: str | None
    html: str | None = None
    formats: tuple[str, ...] = ("markdown",)
    render: bool = True
    timeout: float
    wait_for: str | None = None
    include_comments: bool = False
    with_metadata: bool = False
    links: bool = True
    tables: bool = True
    images: bool = True
    keep: tuple[str, ...] = ()
    stages: tuple[str, ...] | None = None
    min_length: int = 0
    cache: bool = True
    controls: Controls = Controls()
    """User-Agent, headers, cookies, proxy, locale, viewport and actions (``controls.py``)."""

    def extract_options(self, max_bytes: int) -> ExtractOptions:
        return ExtractOptions(
            max_bytes=max_bytes,
            rules=ALL_RULES - frozenset(self.keep),
            links=self.links,
            tables=self.tables,
            images=self.images,
            include_comments=self.include_comments,
            stages=tuple(STAGES_BY_NAME[name] for name in self.stages) if self.stages else None,
            min_length=self.min_length,
        )

    def cache_key(self, kind: str) -> str:
        """Everything that changes the answer, hashed (the page's HTML by its own hash)."""
        fields = asdict(self)
        fields.pop("cache")
        html = fields.pop("html")
        fields["html_sha256"] = hashlib.sha256(html.encode()).hexdigest() if html else None
        blob = json.dumps([kind, fields], sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()


async def read_body(request: Request, max_bytes: int) -> bytes:
    """The request body, refused (413) as soon as it passes ``max_bytes``: a Content-Length
    over the cap before a byte is read, a body that lies about its length as it streams."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > max_bytes:
        raise InputTooLargeError(int(declared), max_bytes, "the request body")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > max_bytes:
            raise InputTooLargeError(size, max_bytes, "the request body")
        chunks.append(chunk)
    return b"".join(chunks)


def parse_json_object(body: bytes) -> dict[str, Any]:
    try:
        data = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise bad_request(f"the body is not valid JSON: {exc}") from exc
    except RecursionError as exc:  # [[[[...]]]] within the body cap
        raise bad_request("the body's JSON is nested too deeply") from exc
    if not isinstance(data, dict):
        raise bad_request("the body must be a JSON object")
    return data


def checked_url(value: object, what: str = "url") -> str:
    """An absolute http(s) URL (``http:/x`` as some clients collapse ``//`` is repaired)."""
    if not isinstance(value, str) or not value.strip():
        raise bad_request(f"{what} must be an absolute http(s) URL")
    url = _SCHEME_SLASHES.sub(lambda m: m.group(1) + "://", value.strip())
    parts = urlsplit(url)
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise bad_request(f"{what} must be an absolute http(s) URL, not {value[:200]!r}")
    return url


def budget(value: object, config: ServeConfig) -> float:
    """The request's budget in seconds, capped by the server's ``--timeout``."""
    if value is None:
        return config.max_timeout
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise bad_request(f"timeout must be a positive number of seconds, not {value!r}")
    return min(float(value), config.max_timeout)


def formats_of(value: object, allowed: tuple[str, ...] = FORMATS) -> tuple[str, ...]:
    if value is None:
        return ("markdown",)
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        raise bad_request("formats must be a non-empty list of names")
    unknown = [name for name in names if name not in allowed]
    if unknown:
        raise bad_request(f"unknown format {unknown[0]!r}: one of {', '.join(allowed)}")
    return tuple(dict.fromkeys(names))


def _flag(data: dict[str, Any], name: str, default: bool) -> bool:
    value = data.get(name, default)
    if not isinstance(value, bool):
        raise bad_request(f"{name} must be true or false, not {value!r}")
    return value


def _optional_str(data: dict[str, Any], name: str) -> str | None:
    value = data.get(name)
    if value is not None and not isinstance(value, str):
        raise bad_request(f"{name} must be a string")
    return value or None


def wait_selector(data: dict[str, Any]) -> str | None:
    """``wait_for``: a CSS selector the page must match before it is read."""
    return _optional_str(data, "wait_for")


def _keep(value: object) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(rule, str) for rule in value):
        raise bad_request("keep must be a list of rule names")
    unknown = sorted(set(value) - ALL_RULES)
    if unknown:
        raise bad_request(f"unknown rule {unknown[0]!r}: one of {', '.join(sorted(ALL_RULES))}")
    return tuple(sorted(set(value)))


def _stages(value: object) -> tuple[str, ...] | None:
    """``--stages`` as a list: which cascade stages, in order."""
    if value is None:
        return None
    if not isinstance(value, list) or not value or not all(isinstance(n, str) for n in value):
        raise bad_request("stages must be a non-empty list of stage names")
    unknown = [name for name in value if name not in STAGES_BY_NAME]
    if unknown:
        raise bad_request(f"unknown stage {unknown[0]!r}: one of {', '.join(STAGES_BY_NAME)}")
    return tuple(value)


def _min_length(value: object) -> int:
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise bad_request(f"min_length must be a whole number of words, not {value!r}")
    return value


def job_from_json(data: dict[str, Any], config: ServeConfig) -> Job:
    """POST /v1/extract's body: ``{"url"}`` or ``{"html", "url"?}`` and the options."""
    html = data.get("html")
    if html is not None and not isinstance(html, str):
        raise bad_request("html must be a string")
    if html is None and data.get("url") is None:
        raise bad_request('give "url", or "html" (with an optional "url" it came from)')
    url = checked_url(data["url"]) if data.get("url") is not None else None
    return Job(
        url=url,
        html=html,
        formats=formats_of(data.get("formats")),
        render=_flag(data, "render", html is None),  # as the CLI: URLs render, HTML is read
        timeout=budget(data.get("timeout"), config),
        wait_for=wait_selector(data),
        include_comments=_flag(data, "include_comments", False),
        with_metadata=_flag(data, "with_metadata", False),
        links=_flag(data, "links", True),
        tables=_flag(data, "tables", True),
        images=_flag(data, "images", True),
        keep=_keep(data.get("keep")),
        stages=_stages(data.get("stages")),
        min_length=_min_length(data.get("min_length")),
        cache=_flag(data, "cache", True),
        controls=controls_from_json(data),
    )


def _header_flag(request: Request, name: str) -> bool:
    return request.headers.get(name, "").strip().lower() in TRUE_WORDS


def get_format(request: Request) -> str:
    """``X-Return-Format``, else JSON when the client accepts only JSON, else Markdown."""
    named = request.headers.get("x-return-format")
    if named:
        return formats_of(named.strip().lower(), GET_FORMATS)[0]
    accept = request.headers.get("accept", "")
    return "json" if "application/json" in accept and "text/" not in accept else "markdown"


def job_from_get(request: Request, target: str, config: ServeConfig) -> Job:
    """GET /<url>: the URL as the path (its query kept), options as ``X-`` headers."""
    query = request.url.query
    url = checked_url(target + (f"?{query}" if query else ""), "the path")
    raw_timeout = request.headers.get("x-timeout")
    try:
        timeout = budget(float(raw_timeout) if raw_timeout else None, config)
    except ValueError as exc:
        raise bad_request(f"X-Timeout must be a number of seconds, not {raw_timeout!r}") from exc
    output = get_format(request)
    return Job(
        url=url,
        formats=(output,),
        render=not _header_flag(request, "x-no-render"),
        timeout=timeout,
        wait_for=request.headers.get("x-wait-for-selector") or None,
        with_metadata=_header_flag(request, "x-with-metadata"),
        include_comments=_header_flag(request, "x-include-comments"),
        cache=not _header_flag(request, "x-no-cache"),
    )
