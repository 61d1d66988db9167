"""readermode's extractor: pure Python on lxml, no browser.

Public surface: ``extract`` and ``snapshot_from_bytes``, the shared types, the options, the
cascade's stages, the error tree, and the HTML/text helpers the renderer's reports share.
Everything else lives in private modules.
"""

from ._api import PreparedExtraction, Source, extract, prepare_extraction, snapshot_from_bytes
from ._cascade import Candidate, Skip, Stage, StageInput
from ._classnames import READABILITY_JS_BUILDER_NAMES
from ._combine import RESULT_STAGES
from ._decode import DEFAULT_MAX_BYTES, DecodedText, decode_html
from ._errors import (
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    BlockedAddressError,
    BrowserMissingError,
    BudgetExceededError,
    ContentTooShortError,
    EmptyInputError,
    FetchError,
    HTTPStatusError,
    InputError,
    InputNotFoundError,
    InputTooLargeError,
    LimitExceededError,
    NavigationError,
    NoContentError,
    NotHTMLError,
    OutputError,
    ReadermodeError,
    RenderError,
    RobotsDisallowedError,
    UndecodableInputError,
)
from ._formats import (
    CSV_COLUMNS,
    Failure,
    csv_header,
    csv_line,
    error_status,
    to_csv_row,
    to_jsonl_line,
    to_xml,
    to_xml_batch,
)
from ._frontmatter import front_matter
from ._markdown import html_to_markdown
from ._noscript import may_hold_noscript_page
from ._options import ALL_RULES, ExtractOptions
from ._parse import inner_html, parse_fragment
from ._postprocess import html_to_text
from ._refine import REFINEMENTS
from ._rules import FEED_MARK, HIDDEN_MARK, RULE_FAMILIES, VISIBLE_MARK
from ._sanitize import inert_page_html, sanitize_document, sanitize_html
from ._scores import ShingleScore, WordScore, aggregate, shingle_score, word_score
from ._sitewide import (
    SITEWIDE_MIN_PAGES,
    SITEWIDE_MIN_SHARE,
    SITEWIDE_MIN_WORDS,
    SitewideOptions,
    remove_sitewide,
    site_key,
)
from ._stages import (
    DEFAULT_STAGES,
    STAGES_BY_NAME,
    ReadabilityJsStage,
    ReadabilityLxmlStage,
    ScorerStage,
)
from ._text import BLOCK_TAGS, count_words, element_text, words
from ._types import (
    Comments,
    Extraction,
    Metadata,
    PageSnapshot,
    ReadabilityResult,
    TraceEntry,
)

__all__ = [
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_USAGE",
    "ALL_RULES",
    "BLOCK_TAGS",
    "BlockedAddressError",
    "BrowserMissingError",
    "BudgetExceededError",
    "CSV_COLUMNS",
    "Candidate",
    "Comments",
    "ContentTooShortError",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_STAGES",
    "DecodedText",
    "EmptyInputError",
    "ExtractOptions",
    "Extraction",
    "FEED_MARK",
    "READABILITY_JS_BUILDER_NAMES",
    "Failure",
    "FetchError",
    "HIDDEN_MARK",
    "HTTPStatusError",
    "InputError",
    "InputNotFoundError",
    "InputTooLargeError",
    "LimitExceededError",
    "Metadata",
    "NavigationError",
    "NoContentError",
    "NotHTMLError",
    "OutputError",
    "PageSnapshot",
    "PreparedExtraction",
    "REFINEMENTS",
    "RULE_FAMILIES",
    "ReadabilityJsStage",
    "ReadabilityLxmlStage",
    "ReadabilityResult",
    "ReadermodeError",
    "RenderError",
    "RobotsDisallowedError",
    "SITEWIDE_MIN_PAGES",
    "SITEWIDE_MIN_SHARE",
    "SITEWIDE_MIN_WORDS",
    "STAGES_BY_NAME",
    "RESULT_STAGES",
    "ScorerStage",
    "ShingleScore",
    "SitewideOptions",
    "Skip",
    "Source",
    "Stage",
    "StageInput",
    "TraceEntry",
    "UndecodableInputError",
    "VISIBLE_MARK",
    "WordScore",
    "aggregate",
    "count_words",
    "csv_header",
    "csv_line",
    "decode_html",
    "element_text",
    "error_status",
    "extract",
    "front_matter",
    "html_to_markdown",
    "html_to_text",
    "inert_page_html",
    "inner_html",
    "may_hold_noscript_page",
    "parse_fragment",
    "prepare_extraction",
    "remove_sitewide",
    "sanitize_document",
    "sanitize_html",
    "shingle_score",
    "site_key",
    "snapshot_from_bytes",
    "to_csv_row",
    "to_jsonl_line",
    "to_xml",
    "to_xml_batch",
    "word_score",
    "words",
]
