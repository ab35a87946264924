"""
Request bodies sent without a length. Many HTTP clients send JSON as `Transfer-Encoding: chunked`
(.NET's PostAsJsonAsync, Go and Java with a streamed body, fetch with a stream). The server (gunicorn)
takes the chunks apart, but names no CONTENT_LENGTH, and Django reads a body of no length: the
request was taken for an empty one, so a create said its subject was missing and an export lost its
format and callbackUrl. Such a body is read here first, up to the most any endpoint takes, and given
its length; one over that is named as larger still, so the body limits answer as for any other.
"""

import tempfile

from django.conf import settings

from config.middleware import MULTIPART_OVERHEAD_BYTES, UPLOAD_PATHS

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
    """The most any endpoint at this path takes (config.middleware's limits, and Django's own)."""
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
