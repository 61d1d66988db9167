"""A crawl through rendered pages sees links that only exist after JavaScript has run; the
same crawl without a browser does not. The site is served on 127.0.0.1."""

from __future__ import annotations

import pytest

from renderer.browser.options import RenderOptions
from renderer.discover import DiscoverOptions, Sources, discover
from tests.sites_server import Site, article, html, serve

pytestmark = pytest.mark.browser

SCRIPTED_HOME = b"""<!doctype html><html><head><title>Home</title></head><body>
<main id="list"><h1>Home</h1><p>The posts are listed by the script below.</p></main>
<script>
  for (const slug of ["first-post", "second-post"]) {
    const link = document.createElement("a");
    link.href = "/posts/" + slug;
    link.textContent = slug;
    document.getElementById("list").append(link);
  }
</script></body></html>"""


def test_rendered_crawl_finds_links_made_by_javascript() -> None:
    with serve(Site()) as site:
        site.routes["/"] = html(SCRIPTED_HOME)
        for slug in ("first-post", "second-post"):
            site.routes[f"/posts/{slug}"] = html(article(slug))
        sources = Sources(crawls=(site.base + "/",))
        render_options = RenderOptions(block_private=False, budget=60.0)

        def crawl(render: bool) -> list[str]:
            options = DiscoverOptions(
                render=render, render_options=render_options, robots=None, delay=0
            )
            return [url.removeprefix(site.base) for url in discover(sources, options, notes=print)]

        assert crawl(render=False) == ["/"]
        assert crawl(render=True) == ["/", "/posts/first-post", "/posts/second-post"]
