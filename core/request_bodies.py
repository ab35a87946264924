"""
Request bodies sent without a length. Many HTTP clients send JSON as `Transfer-Encoding: chunked`
(.NET's PostAsJsonAsync, Go and Java with a streamed body, fetch with a stream). The server (gunicorn)
takes the chunks apart, but names no CONTENT_LENGTH, and Django reads a body of no length: the
request was taken for an empty one, so a create said its subject was missing and an export lost its
format and callbackUrl. Such a body is read here first, up to the most any endpoint takes, and given
its length; one over that is named as larger still, so the body limits answer as for any other.

And the limits themselves: what an API request's body may weigh, by path (an upload of a source
takes more), checked on its declared length before any of it is read.
"""

import dataclasses
import tempfile

from django.conf import settings

from core import errors
from core.errors import is_api_request

# Read into memory up to this much, then into a temporary file (an upload of a source).
_IN_MEMORY_BYTES = 1024 * 1024


class ChunkedBodies:
    """WSGI middleware: give a body whose length the server knows only once read (chunked) its length."""

    def __init__(self, application):
        self.application = application

    def __call__(self, environ, start_response):
        if _sent_without_length(environ):
            largest = _largest_body(environ)
            body = tempfile.SpooledTemporaryFile(max_size=_IN_MEMORY_BYTES)
            size = _copy(environ["wsgi.input"], body, most=largest + 1)
            body.seek(0)
            environ["wsgi.input"] = body
            environ["CONTENT_LENGTH"] = str(size)
        return self.application(environ, start_response)


def _sent_without_length(environ) -> bool:
    # Only when the server says the input ends where the body does (PEP 3333's wsgi.input_terminated,
    # as gunicorn says): otherwise reading to its end could wait for the next request.
    return (
        "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        and not environ.get("CONTENT_LENGTH")
        and bool(environ.get("wsgi.input_terminated"))
    )


def _largest_body(environ) -> int:
    """The most any endpoint at this path takes (the limits below, and Django's own)."""
    if environ.get("PATH_INFO") in UPLOAD_PATHS:
        return settings.SOURCE_MAX_BYTES + MULTIPART_OVERHEAD_BYTES
    return max(settings.API_MAX_BODY_BYTES, settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0)


def _copy(source, target, *, most: int) -> int:
    copied = 0
    while copied < most:
        chunk = source.read(min(64 * 1024, most - copied))
        if not chunk:
            break
        target.write(chunk)
        copied += len(chunk)
    return copied


# Limits -----------------------------------------------------------------------------------------


class PayloadTooLarge(errors.AppError):
    status, code, message = 413, "PAYLOAD_TOO_LARGE", "The request body is larger than 1 MiB."


# File uploads: the paths that take a multipart body with a file, and the room the form's other
# parts and boundaries may take beside the file.
UPLOAD_PATHS = frozenset({"/api/v1/sources"})
MULTIPART_OVERHEAD_BYTES = 64 * 1024


@dataclasses.dataclass(frozen=True)
class _Limit:
    bytes: int
    message: str


def _body_limit(request) -> _Limit:
    content_type = request.META.get("CONTENT_TYPE", "").lower()
    if request.path in UPLOAD_PATHS and content_type.startswith("multipart/form-data"):
        return _Limit(
            bytes=settings.SOURCE_MAX_BYTES + MULTIPART_OVERHEAD_BYTES,
            message=f"The file is larger than {settings.SOURCE_MAX_BYTES} bytes (SOURCE_MAX_BYTES).",
        )
    return _Limit(bytes=settings.API_MAX_BODY_BYTES, message=PayloadTooLarge.message)


# Methods whose body an endpoint reads: a body sent with another (a GET's, a DELETE's) is never
# read, so never refused for its size either (the API document declares 413 on these alone).
_METHODS_WITH_A_BODY = frozenset({"POST", "PUT", "PATCH"})


def body_limit_exceeded(request) -> _Limit | None:
    """The limit an API request's declared body is over (none of it is read), or None."""
    if not is_api_request(request) or request.method not in _METHODS_WITH_A_BODY:
        return None
    limit = _body_limit(request)
    return limit if _declared_body_size(request) > limit.bytes else None


def _declared_body_size(request) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0
