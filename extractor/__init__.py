"""readermode's extractor: pure Python on lxml, no browser.

Public surface: ``extract`` and ``snapshot_from_bytes``, the shared types, the options, the
cascade's stages, the error tree, and the HTML/text helpers the renderer's reports share.
Everything else lives in private modules.
"""

from ._api import Source, extract, snapshot_from_bytes
from ._cascade import Candidate, Skip, Stage, StageInput
from ._compare import ShingleScore, WordScore, aggregate, shingle_score, word_score
from ._decode import DEFAULT_MAX_BYTES, DecodedText, decode_html
from ._errors import (
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
    ReadermodeError,
    RenderError,
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
from ._options import ALL_RULES, ExtractOptions
from ._parse import inner_html, parse_fragment
from ._postprocess import html_to_text
from ._refine import REFINEMENTS
from ._rules import FEED_MARK, HIDDEN_MARK, RULE_FAMILIES, VISIBLE_MARK
from ._sanitize import sanitize_html
from ._stages import (
    DEFAULT_STAGES,
    STAGES_BY_NAME,
    ReadabilityJsStage,
    ReadabilityLxmlStage,
    ScorerStage,
    restore_title,
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
    "CSV_COLUMNS",
    "Comments",
    "Failure",
    "csv_header",
    "csv_line",
    "error_status",
    "to_csv_row",
    "to_jsonl_line",
    "to_xml",
    "to_xml_batch",
    "ALL_RULES",
    "BLOCK_TAGS",
    "element_text",
    "html_to_text",
    "inner_html",
    "parse_fragment",
    "restore_title",
    "FEED_MARK",
    "HIDDEN_MARK",
    "VISIBLE_MARK",
    "REFINEMENTS",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_STAGES",
    "RULE_FAMILIES",
    "STAGES_BY_NAME",
    "BlockedAddressError",
    "BrowserMissingError",
    "BudgetExceededError",
    "ContentTooShortError",
    "Candidate",
    "DecodedText",
    "EmptyInputError",
    "ExtractOptions",
    "Extraction",
    "FetchError",
    "HTTPStatusError",
    "InputError",
    "InputNotFoundError",
    "InputTooLargeError",
    "LimitExceededError",
    "Metadata",
    "NavigationError",
    "NoContentError",
    "NotHTMLError",
    "PageSnapshot",
    "ReadabilityJsStage",
    "ReadabilityLxmlStage",
    "ReadabilityResult",
    "ReadermodeError",
    "RenderError",
    "ScorerStage",
    "ShingleScore",
    "Skip",
    "Source",
    "Stage",
    "StageInput",
    "TraceEntry",
    "UndecodableInputError",
    "WordScore",
    "aggregate",
    "count_words",
    "decode_html",
    "extract",
    "front_matter",
    "html_to_markdown",
    "sanitize_html",
    "shingle_score",
    "snapshot_from_bytes",
    "word_score",
    "words",
]
