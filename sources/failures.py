"""
Why a source failed: every code its `error.code` takes, each with what it means (the API document's
enum). The readers (sources.extraction) and the fetching (sources.services) raise them by these names.
"""

TOO_LARGE = "SOURCE_TOO_LARGE"
ENCRYPTED = "SOURCE_ENCRYPTED"
UNREADABLE = "SOURCE_UNREADABLE"
NO_TEXT = "SOURCE_NO_TEXT"
UNSUPPORTED = "UNSUPPORTED_MEDIA_TYPE"
FETCH_FAILED = "SOURCE_FETCH_FAILED"
STORAGE_LIMIT = "STORAGE_LIMIT_EXCEEDED"
STORE_UNAVAILABLE = "SOURCE_STORE_UNAVAILABLE"

CODES = [
    (TOO_LARGE, "Too many pages, too much text, too large a file, or it took too long to read."),
    (ENCRYPTED, "A password-protected PDF."),
    (UNREADABLE, "A corrupt or truncated file, or one built to harm its reader."),
    (NO_TEXT, "No text to read: a scan, or pages that are pictures. Upload a version with a text layer."),
    (UNSUPPORTED, "A web page's content is none of the kinds read."),
    (
        FETCH_FAILED,
        "The page could not be fetched: not public, an error answer, too many redirects, or too slow.",
    ),
    (STORAGE_LIMIT, "The fetched content would pass the plan's storage for sources."),
    (
        STORE_UNAVAILABLE,
        "The service's file store did not answer or refused while the document was read; add it again.",
    ),
]
