"""
The API's parsers: JSON as DRF reads it, plus limits on what a body may hold (RFC 7493, I-JSON);
and, for the endpoints that take files, multipart with the API's own error answers.
"""

from django.core.exceptions import SuspiciousOperation
from django.http.multipartparser import MultiPartParserError
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser, MultiPartParser

from core import errors  # the module, not its names: errors imports DRF, which imports this

# Our bodies are at most three levels deep; anything much deeper is not a request to us.
MAX_DEPTH = 32


class StrictJSONParser(JSONParser):
    """
    JSON as DRF reads it (no NaN or Infinity), refusing with 400 what would otherwise reach the
    code as a surprise: nesting deeper than MAX_DEPTH (Python's parser recurses, so a deep enough
    body would end in a RecursionError) and strings with unpaired surrogates (no valid UTF-8 text
    holds them, and PostgreSQL would refuse them).
    """

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise errors.ValidationError(f"The JSON body is nested more than {MAX_DEPTH} levels deep.") from None
        _check(data)
        return data


def _check(data) -> None:
    # Iterative, so a deep body cannot exhaust the stack here either.
    pending = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, str):
            _check_text(value)
        elif isinstance(value, (dict, list)):
            if depth > MAX_DEPTH:
                raise errors.ValidationError(f"The JSON body is nested more than {MAX_DEPTH} levels deep.")
            if isinstance(value, dict):
                for key, item in value.items():
                    _check_text(key)
                    pending.append((item, depth + 1))
            else:
                pending.extend((item, depth + 1) for item in value)


def _check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise errors.ValidationError("The JSON body holds a string that is not valid Unicode (an unpaired surrogate).") from None


class MergePatchParser(StrictJSONParser):
    """JSON Merge Patch bodies (RFC 7386), read like any JSON body."""

    media_type = "application/merge-patch+json"
class StrictMultiPartParser(MultiPartParser):
    """
    DRF's multipart parser (Django's, streaming files to disk beyond FILE_UPLOAD_MAX_MEMORY_SIZE),
    answering a malformed body with the API's 400 rather than a message about JSON. Only endpoints
    that take files list it; ApiErrorMiddleware bounds the body's size before it is read.
    """

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data_and_files = super().parse(stream, media_type, parser_context)
        except (ParseError, MultiPartParserError):  # DRF wraps Django's error in its ParseError
            raise errors.ValidationError("The multipart/form-data body is malformed.") from None
        except SuspiciousOperation:  # too many fields or files, or fields over DATA_UPLOAD_MAX_MEMORY_SIZE
            raise errors.ValidationError(
                "The multipart/form-data body has too many parts, or form fields over 1 MiB."
            ) from None
        for key, value in data_and_files.data.items():
            _check_text(key)
            _check_text(value)
        return data_and_files
