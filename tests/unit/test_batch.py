"""The batch runner (renderer/batch/runner.py): host limits on a fake clock, failures that do not stop
the batch, the site-wide hold-back, Ctrl-C; and its outputs (renderer/batch/output.py).

No browser and no network: ``run_batch`` gets a fake ``capture``. Coroutines run on a worker
thread's loop, never in pytest's main thread (pytest-playwright owns a loop there).
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections import defaultdict
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest

from extractor import Extraction, FetchError, HTTPStatusError, extract
from renderer.batch.output import FolderSink, JsonLinesSink, page_file_name, resume_jsonl
from renderer.batch.runner import (
    BatchOptions,
    HostScheduler,
    PageRecord,
    SiteBuffer,
    host_of,
    run_batch,
)

T = TypeVar("T")

TEMPLATE_LINE = "Read more on example.com: every story from the valley, every day."


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to its end on a fresh loop in a worker thread."""
    box: dict[str, Any] = {}

    def work() -> None:
        try:
            box["value"] = asyncio.run(coroutine)
        except BaseException as exc:  # noqa: BLE001 (re-raised in the caller's thread)
            box["error"] = exc

    thread = threading.Thread(target=work)
    thread.start()
    thread.join(timeout=60)
    if "error" in box:
        raise box["error"]
    return box["value"]


class FakeClock:
    """Virtual time: ``sleep`` moves the clock on at once (and lets other tasks run)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds
        await asyncio.sleep(0)


def page(number: int, *, template: bool = True) -> Extraction:
    """An article page of example.com; with the site's template line inside its content."""
    extra = f"<p>{TEMPLATE_LINE}</p>" if template else ""
    html = (
        f"<html><body><article><h1>Story number {number}</h1><p>This is the story with number "
        f"{number} and its own words about the valley {'and more ' * number}today.</p>{extra}"
        "</article></body></html>"
    )
    return extract(html, url=f"https://example.com/{number}")


# Scheduler ---------------------------------------------------------------------------------


def test_per_host_cap_and_jobs_cap() -> None:
    in_flight: dict[str | None, int] = defaultdict(int)
    peak: dict[str | None, int] = defaultdict(int)
    total_peak = [0]

    async def main() -> None:
        scheduler = HostScheduler(jobs=3, per_host=2, delay=0)

        async def one(host: str | None) -> None:
            async with scheduler.slot(host):
                in_flight[host] += 1
                peak[host] = max(peak[host], in_flight[host])
                total_peak[0] = max(total_peak[0], sum(in_flight.values()))
                for _ in range(5):
                    await asyncio.sleep(0)
                in_flight[host] -= 1

        hosts = ["a.example"] * 6 + ["b.example"] * 6 + [None] * 4
        await asyncio.gather(*(one(host) for host in hosts))

    run_async(main())
    assert peak["a.example"] == 2 and peak["b.example"] == 2
    assert total_peak[0] == 3


def test_delay_spaces_starts_on_one_host_only() -> None:
    clock = FakeClock()
    starts: dict[str | None, list[float]] = defaultdict(list)

    async def main() -> None:
        scheduler = HostScheduler(jobs=8, per_host=3, delay=1.5, clock=clock, sleep=clock.sleep)

        async def one(host: str | None) -> None:
            async with scheduler.slot(host):
                starts[host].append(clock())
                await asyncio.sleep(0)

        hosts = ["a.example", "b.example", "a.example", None, "a.example", None, "b.example"]
        await asyncio.gather(*(one(host) for host in hosts))

    run_async(main())
    for host in ("a.example", "b.example"):
        gaps = [
            later - earlier for earlier, later in zip(starts[host], starts[host][1:], strict=False)
        ]
        assert gaps and all(gap >= 1.5 for gap in gaps), (host, starts[host])
    assert starts["b.example"][0] == 0.0  # another host's first page does not wait for a.example
    assert len(starts[None]) == 2 and len(set(starts[None])) == 1  # files: no host, no delay
    assert clock.sleeps and all(0 < wait <= 1.5 for wait in clock.sleeps)  # waits, not polls


def test_scheduler_refuses_nonsense() -> None:
    async def main() -> None:
        HostScheduler(jobs=0, per_host=1, delay=0)

    with pytest.raises(ValueError):
        run_async(main())


@pytest.mark.parametrize(
    ("target", "host"),
    [
        ("https://Example.com/a", "example.com"),
        ("http://127.0.0.1:8000/x", "127.0.0.1:8000"),
        ("page.html", None),
        ("-", None),
    ],
)
def test_host_of(target: str, host: str | None) -> None:
    assert host_of(target) == host


# Runner ------------------------------------------------------------------------------------


def fake_capture(
    pages: dict[str, Extraction | BaseException], delays: dict[str, int] | None = None
):
    delays = delays or {}

    async def capture(target: str) -> Extraction:
        for _ in range(delays.get(target, 0)):
            await asyncio.sleep(0)
        outcome = pages[target]
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome

    return capture


def test_failures_are_recorded_and_do_not_stop_the_batch() -> None:
    targets = [f"https://example.com/{n}" for n in range(1, 7)]
    outcomes: dict[str, Extraction | BaseException] = {t: page(n) for n, t in enumerate(targets, 1)}
    outcomes[targets[1]] = HTTPStatusError(404, targets[1])
    outcomes[targets[3]] = FetchError("connection refused")
    outcomes[targets[4]] = KeyError("a bug")
    emitted: list[PageRecord] = []
    finished: list[PageRecord] = []
    options = BatchOptions(jobs=3, per_host=3, delay=0, sitewide=None)
    # The first failure in input order (the 404) finishes last: the exit code is still its.
    capture = fake_capture(outcomes, delays={targets[1]: 50})
    summary = run_async(
        run_batch(
            targets + targets[:2],
            options,
            emit=emitted.append,
            on_done=finished.append,
            capture=capture,
        )
    )
    assert (summary.total, summary.ok, summary.failed) == (6, 3, 3)
    assert summary.exit_code == HTTPStatusError.exit_code
    assert sorted(r.target for r in emitted) == sorted(targets)  # duplicates captured once
    assert finished[-1].target == targets[1]
    by_target = {r.target: r for r in emitted}
    assert by_target[targets[3]].to_dict() == {
        "target": targets[3],
        "ok": False,
        "status": "fetch",
        "error_kind": "FetchError",
        "error": "connection refused",
        "exit_code": FetchError.exit_code,
    }
    bug = by_target[targets[4]]
    assert bug.error_kind == "KeyError" and bug.exit_code == 70 and "internal error" in bug.error
    good = by_target[targets[0]].to_dict()
    assert good["ok"] is True and "story with number 1" in good["text"] and good["stage"]


def test_pages_captured_already_are_not_captured_again() -> None:
    targets = [f"https://example.com/{n}" for n in range(1, 4)]
    captured = {targets[0]: page(1), targets[1]: HTTPStatusError(404, targets[1])}
    asked: list[str] = []

    async def capture(target: str) -> Extraction:
        asked.append(target)
        return page(3)

    emitted: list[PageRecord] = []
    options = BatchOptions(jobs=2, per_host=2, delay=0, sitewide=None)
    summary = run_async(
        run_batch(targets, options, emit=emitted.append, capture=capture, captured=captured)
    )
    assert asked == [targets[2]]  # only the page nobody captured before
    by_target = {r.target: r for r in emitted}
    assert by_target[targets[0]].extraction is captured[targets[0]]
    assert by_target[targets[1]].error_kind == "HTTPStatusError"
    assert summary.exit_code == HTTPStatusError.exit_code


def test_all_ok_exits_zero() -> None:
    targets = ["https://example.com/1", "https://example.com/2"]
    capture = fake_capture({t: page(n) for n, t in enumerate(targets, 1)})
    options = BatchOptions(delay=0)
    summary = run_async(run_batch(targets, options, emit=lambda r: None, capture=capture))
    assert summary.exit_code == 0 and summary.ok == 2


def test_site_pages_wait_for_their_site_then_lose_the_template() -> None:
    site = [f"https://www.example.com/{n}" for n in range(1, 5)]
    other = "https://elsewhere.example/1"
    outcomes: dict[str, Extraction | BaseException] = {t: page(n) for n, t in enumerate(site, 1)}
    outcomes[other] = page(9)
    outcomes[site[2]] = FetchError("timeout")
    emitted: list[str] = []
    finished: list[str] = []
    records: dict[str, PageRecord] = {}

    def emit(record: PageRecord) -> None:
        emitted.append(record.target)
        records[record.target] = record

    def on_done(record: PageRecord) -> None:
        # Nothing of the site is written before its last page is done, except the failure.
        finished.append(record.target)
        if record.target in site and len([t for t in finished if t in site]) < len(site):
            assert [t for t in emitted if t in site] in ([], [site[2]])

    options = BatchOptions(jobs=2, per_host=1, delay=0)
    run_async(
        run_batch(
            [*site, other], options, emit=emit, on_done=on_done, capture=fake_capture(outcomes)
        )
    )
    assert sorted(emitted) == sorted([*site, other])
    for target in (site[0], site[1], site[3]):  # 3 of 4 pages carry it: at least 3, half
        text = records[target].extraction.text  # type: ignore[union-attr]
        assert TEMPLATE_LINE not in text and "story with number" in text
        assert records[target].extraction.trace[-1].name == "sitewide"  # type: ignore[union-attr]
    # A site with one page in the batch keeps everything (no statistics to go on).
    assert TEMPLATE_LINE in records[other].extraction.text  # type: ignore[union-attr]


def test_sitewide_off_keeps_the_template() -> None:
    site = [f"https://example.com/{n}" for n in range(1, 5)]
    capture = fake_capture({t: page(n) for n, t in enumerate(site, 1)})
    kept: list[PageRecord] = []
    run_async(
        run_batch(site, BatchOptions(delay=0, sitewide=None), emit=kept.append, capture=capture)
    )
    assert all(TEMPLATE_LINE in r.extraction.text for r in kept)  # type: ignore[union-attr]


def test_site_buffer_flush_cleans_what_it_has() -> None:
    targets = [f"https://example.com/{n}" for n in range(1, 6)]
    buffer = SiteBuffer(targets, BatchOptions().sitewide)
    for index, target in enumerate(targets[:3]):
        assert buffer.add(PageRecord(index=index, target=target, extraction=page(index))) == []
    flushed = buffer.flush()
    assert len(flushed) == 3
    assert all(TEMPLATE_LINE not in r.extraction.text for r in flushed)  # type: ignore[union-attr]
    assert buffer.flush() == []


def test_cancelling_emits_captured_pages_and_stops_the_rest() -> None:
    site = [f"https://example.com/{n}" for n in range(1, 7)]
    never = asyncio.Event()
    emitted: list[PageRecord] = []

    async def capture(target: str) -> Extraction:
        if target in site[3:]:
            await never.wait()  # a page that hangs until Ctrl-C
        return page(site.index(target) + 1)

    async def main() -> None:
        task = asyncio.create_task(
            run_batch(
                site,
                BatchOptions(jobs=6, per_host=6, delay=0),
                emit=emitted.append,
                capture=capture,
            )
        )
        for _ in range(50):
            await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    run_async(main())
    assert sorted(r.target for r in emitted) == site[:3]
    assert all(TEMPLATE_LINE not in r.extraction.text for r in emitted)  # type: ignore[union-attr]


# Outputs -----------------------------------------------------------------------------------


def test_page_file_names_are_safe_stable_and_distinct() -> None:
    first = page_file_name("https://www.example.com/news/Å story?page=2", ".md")
    assert first == page_file_name("https://www.example.com/news/Å story?page=2", ".md")
    assert first.startswith("example-com-news-story-page-2-") and first.endswith(".md")
    assert first != page_file_name("https://www.example.com/news/Å story?page=3", ".md")
    assert page_file_name("/tmp/site/page-1.html", ".json").startswith("page-1-")
    weird = page_file_name("https://example.com/" + "../" * 50 + "x" * 300, ".txt")
    assert "/" not in weird and ".." not in weird and len(weird) < 120
    assert page_file_name("https://例え.jp/", ".md").startswith("jp-")  # hash tells them apart
    assert page_file_name("-", ".md").startswith("page-")


def test_resume_keeps_successes_and_drops_the_rest(tmp_path: Path) -> None:
    output = tmp_path / "out.jsonl"
    output.write_text(
        '{"target": "a", "ok": true, "text": "A"}\n'
        '{"target": "b", "ok": false, "error_kind": "FetchError"}\n'
        '{"target": "c", "ok": true, "text": "C"}\n'
        '{"target": "d", "ok": tr',  # the half-written line of an interrupted run
        encoding="utf-8",
    )
    assert resume_jsonl(output) == {"a", "c"}
    lines = [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines()]
    assert [line["target"] for line in lines] == ["a", "c"]
    assert resume_jsonl(tmp_path / "missing.jsonl") == set()


def test_folder_sink_and_its_resume(tmp_path: Path) -> None:
    folder = tmp_path / "pages"
    sink = FolderSink(folder, extension=".md", render=lambda e: e.markdown, append=False)
    sink.write(PageRecord(index=0, target="https://example.com/1", extraction=page(1)))
    sink.write(
        PageRecord(
            index=1,
            target="https://example.com/2",
            error_kind="FetchError",
            error="x",
            exit_code=10,
        )
    )
    sink.write(PageRecord(index=2, target="https://example.com/3", extraction=page(3)))
    sink.close()
    index = [json.loads(line) for line in (folder / "index.jsonl").read_text().splitlines()]
    assert [entry["ok"] for entry in index] == [True, False, True]
    assert "text" not in index[0] and "markdown" not in index[0] and index[0]["stage"]
    assert "file" not in index[1]
    assert "story with number 1" in (folder / index[0]["file"]).read_text()
    (folder / index[2]["file"]).unlink()  # a page file lost since: captured again
    assert resume_jsonl(folder / "index.jsonl", folder=folder) == {"https://example.com/1"}


def test_jsonl_sink_writes_one_line_per_record(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "out.jsonl"
    sink = JsonLinesSink.to_file(path, append=False)
    sink.write(PageRecord(index=0, target="https://example.com/1", extraction=page(1)))
    sink.write(
        PageRecord(
            index=1, target="x.html", error_kind="InputNotFoundError", error="no\nfile", exit_code=4
        )
    )
    sink.close()
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    assert json.loads(lines[1])["error"] == "no\nfile"
    assert json.loads(lines[0])["markdown"].startswith("This is the story with number 1")
