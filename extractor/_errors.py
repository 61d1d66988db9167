"""The one error tree of readermode.

Every failure a user can cause (bad input, a page that cannot be fetched or rendered, a page
with nothing to read) is one of these; anything else is a bug. The CLI maps each class to one
line on stderr and its own exit code (``exit_code``), so scripts can tell them apart::

    ReadermodeError                      (1)
    ├── InputError                       (3)
    │   ├── InputNotFoundError           (4)  missing file
    │   ├── EmptyInputError              (5)  zero bytes or only whitespace/comments
    │   ├── InputTooLargeError           (6)  over max_bytes
    │   ├── UndecodableInputError        (7)  binary, or no text encoding fits
    │   └── NotHTMLError                 (8)  content type or magic number says it is not HTML
    ├── RenderError                      (9)
    │   ├── FetchError                   (10) DNS, connection, TLS, too many redirects
    │   ├── HTTPStatusError              (11) the server answered 4xx/5xx
    │   ├── BudgetExceededError          (12) the time budget was spent
    │   ├── BrowserMissingError          (13) no Chromium executable found
    │   ├── NavigationError              (14) the browser could not load the page
    │   ├── BlockedAddressError          (16) a private/loopback/link-local/metadata address
    │   │                                     or file: URL refused by the network guard
    │   ├── LimitExceededError           (17) a named cap (DOM size, elements, redirects) hit
    │   └── RobotsDisallowedError        (20) robots.txt disallows the URL for our token
    ├── NoContentError                   (15) every stage of the cascade came back empty
    │   └── ContentTooShortError         (18) content found, but shorter than --min-length
    └── OutputError                      (19) the result could not be written (-o, --bundle,
                                              --screenshot, --save-html, --report)

Exit code 2 is left to argparse (usage errors) and 70 to unexpected internal errors.
"""

from __future__ import annotations

EXIT_USAGE = 2
"""Bad options: argparse's own exit code."""
EXIT_INTERNAL = 70
"""An unexpected internal error (a bug, not a ``ReadermodeError``): ``EX_SOFTWARE``."""
EXIT_INTERRUPTED = 130
"""Ctrl-C: 128 + SIGINT, as shells report it."""


class ReadermodeError(Exception):
    """Base of every error readermode raises on purpose."""

    exit_code = 1


class InputError(ReadermodeError):
    """The input given to readermode cannot be read as a web page."""

    exit_code = 3


class InputNotFoundError(InputError):
    """The file named as input does not exist or is not a file."""

    exit_code = 4


class EmptyInputError(InputError):
    """The input has no bytes, or nothing but whitespace and comments."""

    exit_code = 5


class InputTooLargeError(InputError):
    """The input is larger than the configured ``max_bytes``."""

    exit_code = 6

    def __init__(self, size: int, limit: int, what: str = "input") -> None:
        self.size = size
        self.limit = limit
        super().__init__(
            f"{what} is larger than max_bytes={limit:,} (at least {size:,} bytes); "
            "raise the limit with --max-bytes"
        )


class UndecodableInputError(InputError):
    """The input is binary, or no text encoding decodes it."""

    exit_code = 7


class NotHTMLError(InputError):
    """The input is some other format (an image, a PDF, JSON ...)."""

    exit_code = 8


class RenderError(ReadermodeError):
    """The page could not be fetched or rendered."""

    exit_code = 9


class FetchError(RenderError):
    """The network request failed (DNS, connection, TLS, redirect loop)."""

    exit_code = 10


class HTTPStatusError(RenderError):
    """The server answered with an HTTP error status."""

    exit_code = 11

    def __init__(self, status: int, url: str, reason: str = "") -> None:
        self.status = status
        self.url = url
        super().__init__(f"HTTP {status}{' ' + reason if reason else ''} for {url}")


class BudgetExceededError(RenderError):
    """The time budget for fetching or rendering the page was spent."""

    exit_code = 12


class BrowserMissingError(RenderError):
    """No Chromium executable could be found."""

    exit_code = 13


class NavigationError(RenderError):
    """The browser could not load the page."""

    exit_code = 14


class NoContentError(ReadermodeError):
    """Every stage of the cascade came back empty: the page has nothing to read."""

    exit_code = 15


class BlockedAddressError(RenderError):
    """The network guard refused a target: private, loopback, link-local or metadata address
    (checked after DNS resolution and after every redirect), or a file: URL."""

    exit_code = 16


class LimitExceededError(RenderError):
    """A named cap was hit. ``option`` names the setting that raises it."""

    exit_code = 17

    def __init__(self, option: str, limit: int | float, detail: str) -> None:
        self.option = option
        self.limit = limit
        super().__init__(f"{detail}: over {option}={limit:,}")


class RobotsDisallowedError(RenderError):
    """robots.txt disallows the URL for our token (or the host's robots.txt is unreachable).
    A code of its own: "the site said no" is not worth a retry, a failed render may be."""

    exit_code = 20


class ContentTooShortError(NoContentError):
    """The cascade found content, but fewer words than the requested minimum."""

    exit_code = 18

    def __init__(self, words: int, minimum: int) -> None:
        self.words = words
        self.minimum = minimum
        super().__init__(f"content too short: {words} words, below --min-length {minimum}")


class OutputError(ReadermodeError):
    """A file or folder the user named for output could not be written (permissions, a full
    disk, a missing parent folder): the page was read, its result was not saved."""

    exit_code = 19

