"""Where a batch's records go: JSON Lines (stdout or a file), or a folder of one file per page
with a JSON Lines index; ``--resume`` reading them back; the progress bar on stderr.

A JSON Lines line is written and flushed as soon as its page is ready, so a crash or Ctrl-C
loses nothing already written and ``--resume`` picks up from there. Resuming keeps the lines
of successful targets and drops failed ones (and a half-written last line), which are then
captured again.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, TextIO
from urllib.parse import urlsplit

from tqdm import tqdm

from extractor import Extraction, csv_header, csv_line, to_csv_row, to_xml_batch
from renderer.batch.runner import PageRecord
from renderer.fetch.static import is_url

INDEX_NAME = "index.jsonl"
"""The index a folder output keeps beside its page files."""

JSONL_SUFFIXES = (".jsonl", ".ndjson")
"""An output path ending so is a JSON Lines file; any other path is a folder."""

MAX_SLUG_CHARS = 80
"""File names stay well under the 255-byte limit of common file systems."""

HASH_CHARS = 10
"""Hex digits of the target's hash in its file name: tells apart targets with the same slug."""

_NOT_SLUG = re.compile(r"[^a-z0-9]+")


FILE_FORMATS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv", ".xml": "xml"}
"""A batch's -o path with one of these suffixes is one file in that format, else a folder."""


def is_jsonl_path(path: str | Path) -> bool:
    return str(path).lower().endswith(JSONL_SUFFIXES)


def batch_file_format(path: str | Path) -> str | None:
    """The format a batch's single output file is written in, or None for a folder."""
    return FILE_FORMATS.get(Path(path).suffix.lower())


def open_batch_sink(
    output_format: str, stream: TextIO, *, owns_stream: bool, append: bool = False
) -> JsonLinesSink | CsvSink | XmlSink:
    """The sink that writes a whole batch as one stream in ``output_format``."""
    if output_format == "csv":
        return CsvSink(stream, owns_stream=owns_stream, header=not append)
    if output_format == "xml":
        return XmlSink(stream, owns_stream=owns_stream)
    return JsonLinesSink(stream, owns_stream=owns_stream)


def page_file_name(target: str, extension: str) -> str:
    """A safe, stable file name for a target: host and path as an ASCII slug, then a short
    hash of the whole target (so ``?page=2`` and ``?page=3`` differ), then ``extension``."""
    if is_url(target):
        parts = urlsplit(target)
        stem = f"{(parts.hostname or '').removeprefix('www.')} {parts.path} {parts.query}"
    else:
        stem = Path(target).name.removesuffix(".gz").removesuffix(".html").removesuffix(".htm")
    slug = _NOT_SLUG.sub("-", stem.lower()).strip("-")[:MAX_SLUG_CHARS].strip("-") or "page"
    digest = hashlib.sha256(target.encode("utf-8", "surrogatepass")).hexdigest()[:HASH_CHARS]
    return f"{slug}-{digest}{extension}"


def _json_line(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"


def resume_jsonl(path: Path, *, folder: Path | None = None) -> set[str]:
    """Targets already captured in the JSON Lines file ``path`` (for a folder's index, only
    those whose page file is still in ``folder``). The file is rewritten to hold just their
    lines, so the targets captured again do not appear twice."""
    if not path.exists():
        return set()
    done: dict[str, str] = {}
    with path.open(encoding="utf-8", errors="replace") as stream:
        for line in stream:
            try:
                data = json.loads(line)
            except json.JSONDecodeError:
                continue  # the half-written last line of an interrupted run
            if not isinstance(data, dict) or not data.get("ok") or "target" not in data:
                continue
            if folder is not None and not (folder / str(data.get("file", ""))).is_file():
                continue
            done[str(data["target"])] = line if line.endswith("\n") else line + "\n"
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text("".join(done.values()), encoding="utf-8")
    os.replace(temporary, path)
    return set(done)


class JsonLinesSink:
    """Writes each record as one JSON line (text, html, markdown included) and flushes it."""

    def __init__(self, stream: TextIO, *, owns_stream: bool = False) -> None:
        self._stream = stream
        self._owns = owns_stream

    @classmethod
    def to_file(cls, path: Path, *, append: bool) -> JsonLinesSink:
        path.parent.mkdir(parents=True, exist_ok=True)
        return cls(path.open("a" if append else "w", encoding="utf-8"), owns_stream=True)

    def write(self, record: PageRecord) -> None:
        self._stream.write(_json_line(record.to_dict()))
        self._stream.flush()

    def close(self) -> None:
        if self._owns:
            self._stream.close()


class CsvSink:
    """Writes a CSV batch: the header once, then one row per page (a failure is a row with its
    status and error and no text), flushed per row."""

    def __init__(self, stream: TextIO, *, owns_stream: bool = False, header: bool = True) -> None:
        self._stream = stream
        self._owns = owns_stream
        self._header_due = header

    def write(self, record: PageRecord) -> None:
        if self._header_due:
            self._stream.write(csv_line(csv_header()))
            self._header_due = False
        self._stream.write(csv_line(to_csv_row(record.as_format_record())))
        self._stream.flush()

    def close(self) -> None:
        if self._header_due:  # an empty batch is still a valid CSV file
            self._stream.write(csv_line(csv_header()))
        if self._owns:
            self._stream.close()
        else:
            self._stream.flush()


class XmlSink:
    """Writes an XML batch (one ``<pages>`` document) when the batch ends: XML cannot be
    appended to a line at a time. Records are kept in input order."""

    def __init__(self, stream: TextIO, *, owns_stream: bool = False) -> None:
        self._stream = stream
        self._owns = owns_stream
        self._records: list[PageRecord] = []

    def write(self, record: PageRecord) -> None:
        self._records.append(record)

    def close(self) -> None:
        records = sorted(self._records, key=lambda record: record.index)
        self._stream.write(to_xml_batch(record.as_format_record() for record in records))
        if self._owns:
            self._stream.close()
        else:
            self._stream.flush()


class FolderSink:
    """One file per captured page (``page_file_name``) in ``folder``, and an index line per
    record (a failure has no file) in ``folder/index.jsonl``."""

    def __init__(
        self,
        folder: Path,
        *,
        extension: str,
        render: Callable[[Extraction], str],
        append: bool,
    ) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self._extension = extension
        self._render = render
        self._index: IO[str] = (folder / INDEX_NAME).open("a" if append else "w", encoding="utf-8")

    def write(self, record: PageRecord) -> None:
        data = record.to_dict(content=False)
        if record.extraction is not None:
            name = page_file_name(record.target, self._extension)
            (self.folder / name).write_text(self._render(record.extraction), encoding="utf-8")
            data["file"] = name
        self._index.write(_json_line(data))
        self._index.flush()

    def close(self) -> None:
        self._index.close()


class BatchProgress:
    """A tqdm bar on stderr (done, failed, rate, ETA), silent when stderr is not a terminal;
    one line per failure either way."""

    def __init__(self, total: int, *, stream: TextIO | None = None) -> None:
        self._stream = stream or sys.stderr
        self.done = 0
        self.failed = 0
        # disable=None: tqdm switches itself off when the stream is not a TTY.
        self._bar = tqdm(
            total=total,
            desc="readermode",
            unit="page",
            file=self._stream,
            disable=None,
            dynamic_ncols=True,
            mininterval=0.2,
        )

    def update(self, record: PageRecord) -> None:
        if record.ok:
            self.done += 1
        else:
            self.failed += 1
            line = f"readermode: {record.target}: {record.error}"
            if self._bar.disable:
                print(line, file=self._stream, flush=True)
            else:
                self._bar.write(line, file=self._stream)
        self._bar.set_postfix(done=self.done, failed=self.failed, refresh=False)
        self._bar.update(1)

    def close(self) -> None:
        self._bar.close()
