"""One extraction as a document in a named format: shared by the CLI and the HTTP service, so
``readermode URL -f markdown`` and ``GET /URL`` give the same bytes."""

from __future__ import annotations

import html

from extractor import (
    Extraction,
    csv_header,
    csv_line,
    front_matter,
    html_to_markdown,
    to_csv_row,
    to_jsonl_line,
    to_xml,
)

FRONT_MATTER_FORMATS = ("markdown", "text")
BODY_FORMATS = frozenset({"markdown", "text", "html"})
"""Formats whose document is the extraction's field of the same name, under its title."""
COMMENTS_RULE = {"markdown": "---", "text": "-" * 40}
"""Sets the comment section apart from the article in Markdown and text output."""


def render_output(
    extraction: Extraction, output_format: str, *, with_metadata: bool = False
) -> str:
    """The extraction in the requested format, ending with one newline. ``with_metadata``
    puts YAML front matter before Markdown and text."""
    if output_format == "json":
        return extraction.to_json() + "\n"
    if output_format == "jsonl":
        return to_jsonl_line(extraction) + "\n"
    if output_format == "xml":
        return to_xml(extraction)
    if output_format == "csv":
        return csv_line(csv_header()) + csv_line(to_csv_row(extraction))
    if output_format not in BODY_FORMATS:
        raise ValueError(f"unknown output format: {output_format!r}")
    # Read by name: ``markdown`` is computed when first read, and text or HTML output must not
    # pay for a conversion it never prints.
    body: str = getattr(extraction, output_format)
    with_front_matter = with_metadata and output_format in FRONT_MATTER_FORMATS
    # The title alone is cheaper to read than the whole metadata, unless that is read anyway.
    title = extraction.metadata.title if with_front_matter else extraction.title
    body = headline(title, output_format) + body.rstrip("\n") + "\n"
    if extraction.comments is not None and output_format in FRONT_MATTER_FORMATS:
        comments = getattr(extraction.comments, output_format).rstrip("\n")
        heading = "## Comments" if output_format == "markdown" else "Comments"
        body += f"\n{COMMENTS_RULE[output_format]}\n\n{heading}\n\n{comments}\n"
    if with_front_matter:
        header = front_matter(extraction.metadata, url=extraction.url)
        body = f"{header}\n{body}" if header else body
    return body


def headline(title: str | None, output_format: str) -> str:
    """The page's title as the document's heading, for the Markdown, text and HTML outputs: the
    extracted content leaves the headline out (it is the metadata's title, as in Readability.js
    and schema.org's articleBody), but a document read on its own wants it on top."""
    if not title:
        return ""
    heading = f"<h1>{html.escape(title)}</h1>"
    if output_format == "markdown":  # through the converter, which escapes Markdown syntax
        return html_to_markdown(heading).strip() + "\n\n"
    if output_format == "html":
        return heading + "\n"
    return " ".join(title.split()) + "\n\n"
