"""Whole sites without a browser: ``--sitemap``, ``--feed``, ``--crawl --no-render``,
``--list-only``, robots.txt politeness, ``--seen`` and ``--shard``, and the bad inputs of
issue 16, through ``renderer.cli.main`` in this process. Every site is served on 127.0.0.1
(tests/sites_server.py); nothing leaves the machine."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.conftest import RunCli
from tests.sites_server import (
    Site,
    article,
    gzipped,
    html,
    serve,
    sitemap_index,
    urlset,
    xml,
)

POSTS = ["/posts/1", "/posts/2", "/posts/3"]


def _blog(base: str) -> dict:
    rss = "".join(
        f"<item><title>Post {n}</title><link>{base}/posts/{n}</link></item>" for n in (1, 2)
    )
    atom_entries = f'<entry><title>Three</title><link href="{base}/posts/3"/><id>3</id></entry>'
    loop = {f"/loop/{n}.xml": xml(sitemap_index(base, [f"/loop/{n + 1}.xml"])) for n in range(10)}
    crawl_links = ("/posts/1", "/tag/ferries", "/login", "/private/draft", "/list?sid=0")
    return {
        "/robots.txt": (
            200,
            "text/plain",
            f"User-agent: *\nDisallow: /private/\nSitemap: {base}/sitemap_index.xml\n".encode(),
        ),
        "/sitemap_index.xml": xml(
            sitemap_index(base, ["/sitemap-posts.xml.gz", "/sitemap-pages.xml"])
        ),
        "/sitemap-posts.xml.gz": gzipped(urlset(base, [*POSTS, "/private/draft"])),
        "/sitemap-pages.xml": xml(urlset(base, ["/about"])),
        "/feed.xml": xml(
            f'<?xml version="1.0"?><rss version="2.0"><channel><title>B</title>{rss}</channel></rss>',
            "application/rss+xml",
        ),
        "/atom.xml": xml(
            f'<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>B</title>'
            f"{atom_entries}</feed>",
            "application/atom+xml",
        ),
        "/html-sitemap.xml": html(b"<!doctype html><html><body><p>Sitemap</p></body></html>"),
        "/not-a-feed": (200, "text/plain", b"just some words, no XML here"),
        **loop,
        "/": html(article("Home", crawl_links)),
        **{
            path: html(article(f"Post {path[-1]}", ("/posts/2", "/posts/3", "/"))) for path in POSTS
        },
        "/about": html(article("About")),
        "/news": html(
            b"<!doctype html><html><head><title>News</title>"
            b'<link rel="stylesheet" href="/style.css">'
            b'<link rel="alternate" hreflang="nb" href="/nb/news">'
            b'<link rel="alternate" type="application/rss+xml" title="Posts" href="/feed.xml">'
            b'<link rel="Alternate" type="application/atom+xml" href="atom.xml">'
            b"</head><body><p>The news, in feeds.</p></body></html>"
        ),
        "/tag/ferries": html(article("Tag", ("/posts/3", "/posts/1"))),
        "/private/draft": html(article("Draft")),
        **{
            f"/list?sid={n}": html(article(f"List {n}", (f"/list?sid={n + 1}",))) for n in range(40)
        },
    }


@pytest.fixture(scope="module")
def blog() -> Iterator[Site]:
    with serve(Site()) as site:
        site.routes.update(_blog(site.base))
        yield site


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line]


def test_sitemap_index_gzip_and_robots_sitemap_line(run_cli: RunCli, blog: Site) -> None:
    """The site's root: robots.txt names the index; the index lists a gzip sitemap and a plain
    one; /private/ is disallowed, so it is left out, and the run says so."""
    result = run_cli("--sitemap", blog.base + "/", "--list-only", "--delay", "0")
    assert result.returncode == 0, result.stderr
    assert _lines(result.stdout) == [blog.base + path for path in [*POSTS, "/about"]]
    assert "left out 1 URL robots.txt disallows" in result.stderr
    assert "discovered 4 URLs" in result.stderr


def test_feeds_rss_and_atom(run_cli: RunCli, blog: Site) -> None:
    result = run_cli(
        "--feed", blog.base + "/feed.xml", "--feed", blog.base + "/atom.xml", "--list-only"
    )
    assert result.returncode == 0, result.stderr
    assert _lines(result.stdout) == [blog.base + path for path in POSTS]


def test_feed_given_an_html_page_reads_the_feeds_it_announces(run_cli: RunCli, blog: Site) -> None:
    result = run_cli("--feed", blog.base + "/news", "--list-only", "--delay", "0")
    assert result.returncode == 0, result.stderr
    assert _lines(result.stdout) == [blog.base + path for path in POSTS]
    assert f"reading the feeds it announces: {blog.base}/feed.xml, {blog.base}/atom.xml" in (
        result.stderr
    )
    assert "/nb/news" not in blog.paths() and "/style.css" not in blog.paths()


def test_crawl_reads_the_feeds_its_start_page_announces(run_cli: RunCli) -> None:
    with serve(Site()) as site:
        rss = "".join(f"<item><link>{site.base}{p}</link></item>" for p in ("/a", "/hidden"))
        site.routes.update(
            {
                "/": html(
                    b'<!doctype html><html><head><link rel="alternate" '
                    b'type="application/rss+xml" href="/feed.xml"></head><body>'
                    + article("Home", ("/a",))
                    + b"</body></html>"
                ),
                "/feed.xml": xml(f'<rss version="2.0"><channel>{rss}</channel></rss>'),
                "/a": html(article("A")),
                "/hidden": html(article("Hidden")),  # linked by no page, only by the feed
            }
        )
        result = run_cli(
            "--crawl", site.base + "/", "--no-render", "--list-only", "--delay", "0",
            "--max-depth", "1",
        )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert [u.removeprefix(site.base) for u in _lines(result.stdout)] == ["/", "/a", "/hidden"]


def test_static_crawl_skips_traps_disallowed_and_query_loops(run_cli: RunCli, blog: Site) -> None:
    result = run_cli(
        "--crawl", blog.base + "/", "--no-render", "--list-only", "--delay", "0",
        "--max-depth", "50", "--max-pages", "30",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    found = [line.removeprefix(blog.base) for line in _lines(result.stdout)]
    assert set(POSTS) <= set(found)
    for trap in ("/login", "/tag/ferries", "/private/draft"):
        assert trap not in found
    # the query-string loop stops at MAX_QUERY_VARIANTS, not at --max-pages
    assert len([path for path in found if path.startswith("/list?")]) == 5
    assert "/private/draft" not in blog.paths()  # never fetched: robots.txt disallows it


def test_include_exclude(run_cli: RunCli, blog: Site) -> None:
    result = run_cli(
        "--sitemap", blog.base + "/sitemap_index.xml", "--list-only",
        "--include", "/posts/", "--exclude", "/posts/2$",
    )  # fmt: skip
    assert _lines(result.stdout) == [blog.base + "/posts/1", blog.base + "/posts/3"]


def test_sitemap_feeds_the_batch_and_seen_skips_the_second_run(
    run_cli: RunCli, blog: Site, tmp_path: Path
) -> None:
    seen = tmp_path / "seen.sqlite3"
    out = tmp_path / "pages.jsonl"
    args = ("--feed", blog.base + "/feed.xml", "--no-render", "--delay", "0", "--seen", str(seen))
    first = run_cli(*args, "-o", str(out))
    assert first.returncode == 0, first.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(record["target"] for record in records) == [blog.base + p for p in POSTS[:2]]
    assert all(record["ok"] for record in records)
    second = run_cli(*args, "-o", str(tmp_path / "again.jsonl"))
    assert second.returncode == 0, second.stderr
    assert "skipped 2 targets captured before" in second.stderr
    assert (tmp_path / "again.jsonl").read_text() == ""


def test_batch_obeys_robots_and_ignore_robots_says_so(run_cli: RunCli, blog: Site) -> None:
    target = blog.base + "/private/draft"
    refused = run_cli(target, blog.base + "/about", "--no-render", "--delay", "0")
    records = {r["target"]: r for r in map(json.loads, _lines(refused.stdout))}
    assert records[target]["status"] == "robots-disallowed"
    assert records[blog.base + "/about"]["ok"]
    assert refused.returncode == 20
    assert "robots.txt disallows" in refused.stderr
    ignored = run_cli(target, blog.base + "/about", "--no-render", "--ignore-robots")
    assert ignored.returncode == 0, ignored.stderr
    for record in map(json.loads, _lines(ignored.stdout)):
        robots = [entry for entry in record["trace"] if entry["name"] == "robots"]
        assert robots and "--ignore-robots" in robots[0]["reason"]


def test_shards_split_by_host_and_cover_the_list(run_cli: RunCli, tmp_path: Path) -> None:
    listing = tmp_path / "urls.txt"
    urls = [f"http://h{n % 7}.example/p{n}" for n in range(40)]
    listing.write_text("\n".join(urls))
    from renderer.batch.shard import in_shard

    parts = [in_shard(urls, k, 3) for k in (1, 2, 3)]
    assert sorted(sum(parts, [])) == sorted(urls)
    hosts = [{url.split("/")[2] for url in part} for part in parts]
    assert not (hosts[0] & hosts[1] or hosts[1] & hosts[2] or hosts[0] & hosts[2])
    bad = run_cli("-i", str(listing), "--shard", "4/3")
    assert bad.returncode == 2 and "K/N" in bad.stderr


@pytest.mark.parametrize(
    ("args", "line", "code"),
    [
        (("--sitemap", "/html-sitemap.xml"), "is an HTML page, not a sitemap", 3),
        (("--feed", "/not-a-feed"), "is not an RSS or Atom feed", 3),
        (("--feed", "/about"), "is an HTML page that announces no RSS or Atom feed", 3),
        (("--sitemap", "/loop/0.xml"), "index nested deeper than 2, not followed", 5),
    ],
)
def test_bad_inputs_give_one_line(
    run_cli: RunCli, blog: Site, args: tuple[str, str], line: str, code: int
) -> None:
    result = run_cli(args[0], blog.base + args[1], "--list-only", "--delay", "0")
    assert result.returncode == code
    assert line in result.stderr
    assert "Traceback" not in result.stderr


def test_a_feed_robots_disallows_is_one_line_and_exit_20(run_cli: RunCli, blog: Site) -> None:
    blog.routes["/private/feed.xml"] = blog.routes["/feed.xml"]
    result = run_cli("--feed", blog.base + "/private/feed.xml", "--list-only")
    assert result.returncode == 20
    assert result.stderr.splitlines() == [
        f"readermode: robots.txt disallows {blog.base}/private/feed.xml for readermode"
    ]
    assert "/private/feed.xml" not in blog.paths()


def test_robots_that_hangs_or_is_garbage(run_cli: RunCli) -> None:
    """A robots.txt that never answers is unreachable (RFC 9309: the host is disallowed) after
    the budget; one that is garbage is read as allowing everything. Each says so in a line."""
    with serve(Site(hang_robots=True)) as hanging:
        hanging.routes["/feed.xml"] = xml("<rss/>")
        result = run_cli("--feed", hanging.base + "/feed.xml", "--list-only", "--timeout", "1")
        assert result.returncode == 20
        assert "robots.txt unreachable" in result.stderr
        assert "/feed.xml" not in hanging.paths()
    with serve(Site()) as garbage:
        garbage.routes["/robots.txt"] = (200, "text/plain", b"\x00\x9f<html>not robots</html>")
        garbage.routes["/a"] = garbage.routes["/b"] = html(article("A"))
        result = run_cli(garbage.base + "/a", garbage.base + "/b", "--no-render", "--delay", "0")
        assert result.returncode == 0, result.stderr
        assert "holds no robots.txt rules" in result.stderr
