"""Script-rendered article benchmark: the article benchmark's pages rewritten so that their body
only exists after JavaScript, scored against the same ground truth.

Usage: benchmark_scripted.py [--corpus DIR] [--limit N] [--out DIR]

Each page (by id order) gets one of three rewrites, in turn:

- ``fetch``: an empty app shell; 300 ms after load a script fetches ``article.json`` (the
  original body) from the server, which answers 200 ms later, and renders it.
- ``island``: the body as a JSON island (``<script type="application/json">``), rendered on
  DOMContentLoaded, in the next animation frame (the way server-rendered apps hydrate).
- ``chunks``: the article's container keeps its first quarter; the rest comes in three chunks,
  each fetched (200 ms) when a sentinel under the content scrolls into view
  (IntersectionObserver), as infinite-scroll articles load.

Each page is read at its original URL, as the article benchmark's rendered pages are: the page
from memory (``AsyncRenderer.render(file, url=...)``), and what its script fetches (relative
to that URL) answered from memory by a route of this script, 200 ms later. A page's URL and its
JSON-LD are evidence of its type (a URL segment such as /news/, a schema.org NewsArticle) that
the static reading of the original has too: served at a neutral local path with its JSON-LD
stripped, an article read as a listing or a forum where the original did not (F1 0.37 against
1.0), a difference the script rendering has nothing to do with. So that nothing leaves the
machine, everything that would load something (src, srcset, poster and data-src attributes,
<link>, CSS url() and @import, <base>, meta refresh, executable scripts) is removed from the
page first (JSON-LD stays: it loads nothing), and the route refuses what a capture would let
through to another address, and counts it (it should be nothing: the trackers, fonts and
media a capture refuses itself are not counted).

Printed: F1 (with precision and recall) and median seconds per page for readermode rendered on
the rewritten pages, one page at a time (``AsyncRenderer.render``, then ``extract``: load,
settle, snapshot, Readability.js, the extraction), per rewrite and overall; beside it
readermode static on the
original pages (the article-benchmark figure) and on the rewritten ones (what an extractor that
does not run JavaScript gets). Per-page rows go to ``--out``/scripted-scores.csv. Figures are
printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import json
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urljoin, urlsplit

import lxml.html
from lxml.html import HtmlElement
from playwright.async_api import Route

import extractor
from extractor import ShingleScore
from renderer import AsyncRenderer, RenderOptions

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchmark_corpus import Page, load  # noqa: E402  (the same pages and ground truth)

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = REPO.parent / "shared" / "corpora" / "article-benchmark"
REWRITES = ("fetch", "island", "chunks")
OPTIONS = RenderOptions(budget=15, block_private=False)
SERVER_DELAY_S = 0.2
CHUNKS = 4

_CSS_URL = re.compile(r"url\(\s*['\"]?(?:https?:)?//[^)]*\)|@import[^;]*;", re.IGNORECASE)
_LOADING_ATTRIBUTES = ("src", "srcset", "poster", "data", "background", "action", "formaction")


@dataclass
class Rewritten:
    rewrite: str
    files: dict[str, tuple[bytes, str]]  # path under the page's folder -> (body, content type)


def strip_external_loads(root: HtmlElement) -> None:
    """Remove what would make the browser fetch from another host (links stay: not fetched)."""
    for element in list(root.iter("base", "link", "meta")):
        is_refresh = (element.get("http-equiv") or "").lower() == "refresh"
        if element.tag != "meta" or is_refresh:
            element.drop_tree()
    for element in list(root.iter("script")):
        if (element.get("type") or "").strip().lower() != "application/ld+json":
            element.drop_tree()  # JSON-LD stays: data that loads nothing, read by page typing
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        for name in list(element.attrib):
            value = element.attrib[name]
            local = name.rsplit("}", 1)[-1].lower()
            if local in _LOADING_ATTRIBUTES or local.startswith("data-src"):
                del element.attrib[name]
            elif local.split(":")[-1] == "href" and element.tag in ("image", "use", "svg"):
                del element.attrib[name]
            elif local == "style" and "url(" in value.lower():
                element.attrib[name] = _CSS_URL.sub("", value)
        if element.tag == "style" and element.text:
            element.text = _CSS_URL.sub("", element.text)


def _island(value: Any) -> str:
    """JSON safe inside a <script> element."""
    return json.dumps(value).replace("</", "<\\/")


def _document(head: str, body: str, lang: str) -> bytes:
    return f'<!DOCTYPE html>\n<html lang="{lang}"><head>{head}</head><body>{body}</body></html>\n'.encode()


def _inner(element: HtmlElement) -> str:
    return extractor.inner_html(element)


FETCH_SHELL = """<div id="app"><p class="loading">Loading…</p></div>
<script>
addEventListener("load", () => setTimeout(() => {
  fetch("article.json").then((r) => r.json()).then((data) => {
    document.getElementById("app").innerHTML = data.html;
  });
}, 300));
</script>"""

ISLAND_SHELL = """<div id="root"></div>
<script type="application/json" id="__DATA__">{data}</script>
<script>
document.addEventListener("DOMContentLoaded", () => requestAnimationFrame(() => {{
  const data = JSON.parse(document.getElementById("__DATA__").textContent);
  document.getElementById("root").innerHTML = data.html;
}}));
</script>"""

CHUNK_LOADER = """<script>
(() => {
  const sentinel = document.getElementById("more-sentinel");
  let next = 1, busy = false;
  const observer = new IntersectionObserver((entries) => {
    if (busy || !entries.some((entry) => entry.isIntersecting)) return;
    if (next >= %d) { observer.disconnect(); sentinel.remove(); return; }
    busy = true;
    fetch("chunk/" + next + ".json").then((r) => r.json()).then((data) => {
      sentinel.insertAdjacentHTML("beforebegin", data.html);
      next++;
      busy = false;
      observer.unobserve(sentinel);  // observe again: fires if it is still in view
      observer.observe(sentinel);
    });
  });
  observer.observe(sentinel);
})();
</script>"""


def _elements(node: HtmlElement) -> list[HtmlElement]:
    return [child for child in node if isinstance(child.tag, str)]  # not comments


def _container(body: HtmlElement) -> HtmlElement:
    """The element whose children hold the content: down the wordiest child until there are
    enough children to split."""
    node = body
    while len(_elements(node)) < CHUNKS * 2 and _elements(node):
        wordiest = max(_elements(node), key=lambda child: len(child.text_content()))
        if len(wordiest.text_content()) < 0.6 * len(node.text_content()):
            break
        node = wordiest
    return node


def rewrite(page: Page, index: int) -> Rewritten:
    root = lxml.html.document_fromstring(page.data.decode("utf-8", "replace"))
    strip_external_loads(root)
    head, body = root.find("head"), root.find("body")
    head_html = _inner(head) if head is not None else ""
    head_html = '<meta charset="utf-8">' + head_html
    lang = root.get("lang") or "en"
    if body is None:
        body = lxml.html.fromstring("<body></body>")
    kind = REWRITES[index % len(REWRITES)]
    files: dict[str, tuple[bytes, str]] = {}
    if kind == "fetch":
        files["article.json"] = (json.dumps({"html": _inner(body)}).encode(), "application/json")
        files["index.html"] = (_document(head_html, FETCH_SHELL, lang), "text/html; charset=utf-8")
    elif kind == "island":
        shell = ISLAND_SHELL.format(data=_island({"html": _inner(body)}))
        files["index.html"] = (_document(head_html, shell, lang), "text/html; charset=utf-8")
    else:
        container = _container(body)
        children = list(container)
        size = max(1, -(-len(children) // CHUNKS))
        groups = [children[i : i + size] for i in range(0, len(children), size)] or [[]]
        for number, group in enumerate(groups[1:], 1):
            html = "".join(lxml.html.tostring(child, encoding="unicode") for child in group)
            files[f"chunk/{number}.json"] = (
                json.dumps({"html": html}).encode(),
                "application/json",
            )
            for child in group:
                container.remove(child)
        sentinel = lxml.html.fromstring('<div id="more-sentinel" style="height:40px"></div>')
        container.append(sentinel)
        shell = _inner(body) + (CHUNK_LOADER % len(groups))
        files["index.html"] = (_document(head_html, shell, lang), "text/html; charset=utf-8")
    return Rewritten(kind, files)


class Served:
    """What the page being captured fetches, by absolute URL: its files (but ``index.html``)
    resolved against the page's original URL. Pages are captured one at a time, so the route
    reads the current page's files only (two pages of one site share a folder). Anything
    else on the page's host is answered 404, as a server holding only these files would:
    relative CSS url()s the rewrite left (it strips the absolute ones) are no leak."""

    def __init__(self) -> None:
        self.files: dict[str, tuple[bytes, str]] = {}
        self.host = ""

    def show(self, page: Page, rewritten: Rewritten) -> None:
        self.host = urlsplit(page.url).netloc
        self.files = {
            urldefrag(urljoin(page.url, path)).url: served
            for path, served in rewritten.files.items()
            if path != "index.html"
        }


def _text(source: bytes | extractor.PageSnapshot, url: str | None = None) -> str:
    try:
        return extractor.extract(source, url=url).text
    except extractor.ReadermodeError:
        return ""


async def render_all(
    pages: list[Page], rewritten: dict[str, Rewritten], leaks: list[str]
) -> dict[str, tuple[str, float, str]]:
    """Each page captured one at a time at its original URL: (text, seconds, settled_by or
    the error)."""
    results: dict[str, tuple[str, float, str]] = {}
    served = Served()
    async with AsyncRenderer(OPTIONS) as renderer:
        await renderer.start()
        handle = renderer._handle  # the one look inside: watch each context it opens
        assert handle is not None
        new_context = handle.new_context

        async def elsewhere(route: Route) -> None:
            """Registered first, so it runs last: the page's own fetches answered from memory
            after ``SERVER_DELAY_S`` (an API that takes a moment); whatever else every capture
            route let through to the network goes no further."""
            url = urldefrag(route.request.url).url
            found = served.files.get(url)
            if found is not None:
                await asyncio.sleep(SERVER_DELAY_S)
                body, content_type = found
                headers = {"Content-Type": content_type, "Cache-Control": "no-store"}
                await route.fulfill(status=200, body=body, headers=headers)
            elif urlsplit(url).netloc == served.host:
                await route.fulfill(status=404, body=b"")
            elif urlsplit(url).scheme in ("http", "https"):
                leaks.append(url)
                await route.abort("blockedbyclient")
            else:
                await route.fallback()

        async def watched_context(options: RenderOptions | None = None) -> Any:
            context = await new_context(options)
            await context.route("**/*", elsewhere)
            return context

        handle.new_context = watched_context  # type: ignore[method-assign]
        with tempfile.TemporaryDirectory(prefix="readermode-scripted-") as folder:
            for number, page in enumerate([pages[0], *pages]):  # the first: a warm-up
                path = Path(folder) / f"{page.id}.html"
                path.write_bytes(rewritten[page.id].files["index.html"][0])
                served.show(page, rewritten[page.id])
                started = time.perf_counter()
                try:
                    snapshot = await renderer.render(str(path), url=page.url, options=OPTIONS)
                    text = await asyncio.to_thread(_text, snapshot)
                    outcome = snapshot.settled_by or ""
                except extractor.ReadermodeError as exc:
                    text, outcome = "", f"error:{type(exc).__name__}"
                if number:
                    results[page.id] = (text, time.perf_counter() - started, outcome)
                if number and (number % 20 == 0 or number == len(pages)):
                    print(f"  rendered {number}/{len(pages)}", file=sys.stderr)
    return results


def _row(name: str, scores: list[ShingleScore], seconds: list[float] | None) -> str:
    total = extractor.aggregate(scores)
    median = f"{statistics.median(seconds):8.2f}" if seconds else f"{'':>8}"
    return (
        f"  {name:<34} {total.f1:>6.3f} {total.precision:>6.3f} {total.recall:>6.3f} {median}"
        f"  ({len(scores)} pages)"
    )


Scored = dict[str, dict[str, ShingleScore]]


def write_rows(
    path: Path,
    pages: list[Page],
    rewritten: dict[str, Rewritten],
    rendered: dict[str, tuple[str, float, str]],
    score: Scored,
) -> None:
    """One CSV row a page: its rewrite, rendered F1 and seconds, outcome, static F1."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            ["id", "rewrite", "f1_rendered", "seconds", "outcome", "f1_static_original"]
        )
        for page in pages:
            _, took, outcome = rendered[page.id]
            writer.writerow(
                [
                    page.id,
                    rewritten[page.id].rewrite,
                    f"{score[page.id]['rendered'].f1:.4f}",
                    f"{took:.3f}",
                    outcome,
                    f"{score[page.id]['static-original'].f1:.4f}",
                ]
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--limit", type=int, default=None, help="pages (first by id)")
    parser.add_argument("--out", type=Path, default=REPO / "benchmark-results")
    args = parser.parse_args()
    if not (args.corpus / "ground-truth.json").is_file():
        sys.exit(f"benchmark_scripted: no corpus at {args.corpus}")
    pages = load(args.corpus, args.limit)
    rewritten = {page.id: rewrite(page, index) for index, page in enumerate(pages)}
    leaks: list[str] = []
    rendered = asyncio.run(render_all(pages, rewritten, leaks))
    static_original = {page.id: _text(page.data, page.url) for page in pages}
    static_rewritten = {
        page.id: _text(rewritten[page.id].files["index.html"][0], page.url) for page in pages
    }
    score = {
        page.id: {
            "rendered": extractor.shingle_score(rendered[page.id][0], page.reference),
            "static-original": extractor.shingle_score(static_original[page.id], page.reference),
            "static-rewritten": extractor.shingle_score(static_rewritten[page.id], page.reference),
        }
        for page in pages
    }
    print(
        f"script-rendered article benchmark, {len(pages)} pages, served from memory at their URLs"
    )
    print(f"  {'system':<34} {'F1':>6} {'P':>6} {'R':>6} {'s/page':>8}")
    seconds = [rendered[page.id][1] for page in pages]
    print(
        _row("readermode rendered, script pages", [score[p.id]["rendered"] for p in pages], seconds)
    )
    for kind in REWRITES:
        chosen = [page for page in pages if rewritten[page.id].rewrite == kind]
        if chosen:
            print(
                _row(
                    f"  of which {kind}",
                    [score[p.id]["rendered"] for p in chosen],
                    [rendered[p.id][1] for p in chosen],
                )
            )
    print(
        _row(
            "readermode static, original pages",
            [score[p.id]["static-original"] for p in pages],
            None,
        )
    )
    print(
        _row(
            "readermode static, script pages",
            [score[p.id]["static-rewritten"] for p in pages],
            None,
        )
    )
    errors = sum(1 for page in pages if rendered[page.id][2].startswith("error"))
    budget = sum(1 for page in pages if rendered[page.id][2] == "budget")
    print(
        f"  render errors: {errors}; ended by the budget: {budget}; requests elsewhere"
        f" that the capture let through, refused here: {len(leaks)}"
    )
    for url in sorted(set(leaks))[:5]:
        print(f"    e.g. {url[:100]}")
    write_rows(args.out / "scripted-scores.csv", pages, rewritten, rendered, score)


if __name__ == "__main__":
    main()
