"""Small handwritten pages of each kind for the page-type tests (our own words)."""

from __future__ import annotations


def _doc(head: str, body: str) -> str:
    return f"<!doctype html><html lang='en'><head><title>T</title>{head}</head><body>{body}</body></html>"


NAV = (
    "<header><nav><ul><li><a href='/'>Home</a></li><li><a href='/about'>About</a></li>"
    "<li><a href='/contact'>Contact</a></li></ul></nav></header>"
)
FOOT = (
    "<footer><p>© 2025 Example Ltd. All rights reserved.</p><a href='/privacy'>Privacy</a></footer>"
)

SERVICE = _doc(
    "<meta property='og:type' content='website'>",
    NAV + "<main><section class='hero'><h1>Invoices that chase themselves</h1>"
    "<p>Send, track and reconcile invoices in one place.</p>"
    "<a class='btn' href='/signup'>Start your free trial</a> <a href='/demo'>Book a demo</a></section>"
    "<section><h2>Everything a small finance team needs</h2><ul>"
    "<li>Recurring invoices on your schedule</li><li>Automatic payment reminders</li>"
    "<li>Bank feeds from 200 banks</li><li>Multi-currency ledgers</li></ul></section>"
    "<section><h2>Built for accountants</h2><p>Invite your accountant with one click.</p>"
    "<a href='/accountants'>Learn more</a></section>"
    "<section><h2>Pricing</h2><table><tr><th>Starter</th><th>Team</th><th>Scale</th></tr>"
    "<tr><td>$12 / month</td><td>$39 / month</td><td>$99 / month</td></tr></table>"
    "<a class='btn' href='/pricing'>See pricing</a></section>"
    "<section><h2>Questions</h2><h3>Can I cancel any time?</h3><p>Yes, from your settings.</p>"
    "<h3>Is my data safe?</h3><p>It is encrypted at rest and in transit.</p></section>"
    "<section><h2>Ready to get paid faster?</h2><a class='btn' href='/signup'>Get started</a>"
    "<a href='/sales'>Contact sales</a></section></main>" + FOOT,
)

ARTICLE = _doc(
    "<meta property='og:type' content='article'>"
    "<meta property='article:published_time' content='2025-03-04T08:00:00Z'>"
    "<meta name='author' content='Dana Whitfield'>",
    NAV + "<main><article><h1>The harbour ferry returns after a winter of repairs</h1>"
    "<p class='byline'>By Dana Whitfield, March 4, 2025</p>"
    + "".join(
        f"<p>Paragraph {i}: the ferry's owners said the hull work took longer than planned "
        "because the yard found corrosion under the waterline, and the council agreed to "
        "cover part of the cost so that the crossing could reopen before the tourist season "
        "began, which local businesses had been asking for since the autumn.</p>"
        for i in range(8)
    )
    + "</article></main>"
    + FOOT,
)

FORUM = _doc(
    "",
    NAV
    + "<main><h1>Sourdough starter smells like nail polish?</h1>"
    + "".join(
        f"<div class='post' id='post-{i}'><div class='post-author'><a href='/u/baker{i}'>"
        f"baker{i}</a><span>Joined: Jan 2021</span><span>Posts: {40 + i}</span></div>"
        f"<time datetime='2024-02-0{i + 1}'>Feb {i + 1}, 2024</time>"
        f"<div class='message'><p>Reply {i}: that smell is acetone, it means the starter is "
        "hungry. Feed it more often and keep it a little warmer.</p></div>"
        "<a href='#'>Quote</a> <a href='#'>Reply</a></div>"
        for i in range(7)
    )
    + "<div class='pagination'><a rel='next' href='?page=2'>Next</a></div></main>"
    + FOOT,
)

DOCS = _doc(
    "",
    "<aside class='sidebar'><nav><ul>"
    + "".join(
        f"<li><a href='/docs/guide/{n}'>{n.title()}</a></li>"
        for n in ("install", "configure", "routing", "templates", "testing", "deploy")
    )
    + "</ul></nav></aside><main><h1>Routing</h1><nav class='toc'><p>On this page</p></nav>"
    "<p>Routes map a request path to a handler function.</p><h2>Syntax</h2>"
    "<pre><code class='language-python'>app.route('/items/{id}', show_item)</code></pre>"
    "<h2>Parameters</h2><table><tr><th>Name</th><th>Type</th></tr><tr><td>path</td>"
    "<td>str</td></tr></table><h2>Example</h2><pre><code class='language-python'>"
    "def show_item(request, id):\n    return render('item.html', id=id)</code></pre>"
    "<p><a href='https://github.com/example/edit'>Edit this page on GitHub</a></p></main>",
)

DOCUSAURUS = _doc(
    "<meta name='generator' content='Docusaurus v3.2.0'>",
    "<nav class='navbar'><a class='navbar__brand' href='/'>Tasklet</a>"
    "<a class='navbar__link' href='/docs/intro'>Docs</a><a class='navbar__link' href='/blog'>Blog</a>"
    "<div class='navbar__item dropdown'><a class='navbar__link' href='#'>Version: 3.2</a>"
    "<ul class='dropdown__menu'><li><a href='/docs/next/scheduling'>Next</a></li>"
    "<li><a href='/docs/3.1/scheduling'>3.1</a></li></ul></div></nav>"
    "<aside class='theme-doc-sidebar-container'><nav class='menu'><ul>"
    + "".join(
        f"<li class='menu__list-item'><a class='menu__link' href='/docs/{n}'>{n.title()}</a></li>"
        for n in ("intro", "install", "scheduling", "retries", "config", "cli", "faq")
    )
    + "</ul></nav></aside><main class='docMainContainer'><article>"
    "<nav class='theme-doc-breadcrumbs'><ul class='breadcrumbs'><li><a href='/'>Home</a></li>"
    "<li><span>Guides</span></li></ul></nav><div class='theme-doc-markdown markdown'>"
    "<h1>Scheduling jobs</h1><p>Tasklet runs a job when its schedule says so. A schedule is "
    "either a cron expression or a fixed interval, and each job has exactly one.</p>"
    "<h2 id='cron'>Cron schedules</h2><p>A cron schedule takes the five usual fields, read in "
    "the server's time zone unless the job names another one.</p><pre><code>"
    "@job(cron='15 3 * * 1-5', tz='Europe/Oslo')\ndef nightly_report():\n    build_report()"
    "</code></pre><h2 id='interval'>Interval schedules</h2><p>An interval schedule runs the "
    "job every so many seconds, counted from the end of the previous run.</p>"
    "<h2 id='missed'>Missed runs</h2><p>If the scheduler was down when a run was due, it runs "
    "the job once when it comes back, not once for every missed slot.</p></div>"
    "<footer class='theme-doc-footer'><a class='theme-edit-this-page' "
    "href='https://github.com/tasklet/tasklet/edit/main/docs/scheduling.md'>Edit this page</a>"
    "</footer></article><nav class='pagination-nav'><a class='pagination-nav__link "
    "pagination-nav__link--prev' href='/docs/install'><div class='pagination-nav__sublabel'>"
    "Previous</div><div class='pagination-nav__label'>Installation</div></a><a "
    "class='pagination-nav__link pagination-nav__link--next' href='/docs/retries'><div "
    "class='pagination-nav__sublabel'>Next</div><div class='pagination-nav__label'>Retries and "
    "backoff</div></a></nav><div class='table-of-contents'><ul>"
    + "".join(
        f"<li><a class='table-of-contents__link' href='#{a}'>{t}</a></li>"
        for a, t in (
            ("cron", "Cron schedules"),
            ("interval", "Interval schedules"),
            ("missed", "Missed runs"),
        )
    )  # fmt: skip
    + "</ul></div></main><footer class='footer'><p>Copyright © 2025 Tasklet contributors. "
    "Built with Docusaurus.</p></footer>",
)
"""A Docusaurus manual's page as a file (no URL to say /docs/): its pagination and the
table-of-contents' class names read like a listing's to the DOM counts."""
