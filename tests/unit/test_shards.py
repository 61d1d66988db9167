"""``--ray -o DIR``'s shards (renderer/batch/shards.py) without a cluster: a partition is one
whole shard and its index lines; ``--resume`` reads the shards back, drops failure lines and
never counts a shard that was not renamed into place."""

from __future__ import annotations

import json
from pathlib import Path

from extractor import Extraction, HTTPStatusError, extract
from renderer.batch.output import FolderSink
from renderer.batch.runner import PageRecord
from renderer.batch.shards import INDEX_NAME, SHARDS_DIR, ShardSink, resume_shards

PROSE = " ".join(f"Sentence {n} about the ferry crossing the fjord at dawn." for n in range(12))


def _page(number: int) -> Extraction:
    html = f"<html><body><article><h1>Page {number}</h1><p>{PROSE}</p></article></body></html>"
    return extract(html, url=f"https://example.com/{number}")


def _ok(number: int) -> PageRecord:
    return PageRecord(
        index=number, target=f"https://example.com/{number}", extraction=_page(number)
    )


def _failed(number: int) -> PageRecord:
    error = HTTPStatusError(500, f"https://example.com/{number}")
    return PageRecord(
        index=number,
        target=f"https://example.com/{number}",
        error_kind=type(error).__name__,
        error=str(error),
        exit_code=error.exit_code,
        exception=error,
    )


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_partition_is_one_shard_with_the_plain_records_and_folder_index(tmp_path: Path) -> None:
    records = [_ok(0), _failed(1), _ok(2)]
    sink = ShardSink(tmp_path / "out", append=False, run_id="run")
    shard = sink.write_partition(records)
    sink.close()
    assert shard is not None and shard.name == "part-run-00001.jsonl"
    assert list((tmp_path / "out" / SHARDS_DIR).iterdir()) == [shard]  # no temporary left
    assert _lines(shard) == [json.loads(json.dumps(r.to_dict())) for r in records]
    plain = FolderSink(
        tmp_path / "plain", extension=".md", render=lambda e: e.markdown, append=False
    )
    for record in records:
        plain.write(record)
    plain.close()
    index = _lines(tmp_path / "out" / INDEX_NAME)
    for line, expected in zip(index, _lines(tmp_path / "plain" / INDEX_NAME), strict=True):
        if expected["ok"]:
            assert line.pop("file") == f"{SHARDS_DIR}/{shard.name}"
            expected.pop("file")
        assert line == expected


def test_resume_keeps_captures_and_drops_failures_and_unfinished_shards(tmp_path: Path) -> None:
    out = tmp_path / "out"
    sink = ShardSink(out, append=False, run_id="first")
    sink.write_partition([_ok(0), _failed(1)])
    sink.write_partition([_failed(2)])
    sink.close()
    unfinished = out / SHARDS_DIR / "part-cut-00001.jsonl.tmp"
    unfinished.write_text(json.dumps(_ok(3).to_dict()) + "\n", encoding="utf-8")
    (out / INDEX_NAME).write_text("", encoding="utf-8")  # cut off before its index lines

    assert resume_shards(out) == {"https://example.com/0"}
    assert not unfinished.exists()
    assert [p.name for p in (out / SHARDS_DIR).iterdir()] == ["part-first-00001.jsonl"]
    assert [r["target"] for r in _lines(out / SHARDS_DIR / "part-first-00001.jsonl")] == [
        "https://example.com/0"
    ]
    (line,) = _lines(out / INDEX_NAME)  # written again from the shards
    assert line["target"] == "https://example.com/0" and "markdown" not in line
    assert line["file"] == f"{SHARDS_DIR}/part-first-00001.jsonl"

    again = ShardSink(out, append=True, run_id="second")
    again.write_partition([_ok(1), _ok(2), _ok(3)])
    again.close()
    assert len(_lines(out / INDEX_NAME)) == 4
    assert resume_shards(out) == {f"https://example.com/{n}" for n in range(4)}


def test_a_fresh_run_replaces_the_old_shards(tmp_path: Path) -> None:
    out = tmp_path / "out"
    old = ShardSink(out, append=False, run_id="old")
    old.write_partition([_ok(0)])
    old.close()
    ShardSink(out, append=False, run_id="new").close()
    assert not list((out / SHARDS_DIR).iterdir())
    assert resume_shards(out) == set()
