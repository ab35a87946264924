"""One JSON object per log line, each carrying the id of the request or task that wrote it."""

import contextvars
import copy
import logging

from django.http import HttpRequest
from django.urls import Resolver404, resolve
from pythonjsonlogger.json import JsonFormatter as _JsonFormatter

from core import ids, redaction

request_id_var: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)

# The ids that are a link's whole secret (core.redaction.LINK_ID_PREFIXES) are masked in every
# line (core.ids.masked): found by the keyword their URL patterns capture them as, and by their
# prefix, for a path no pattern matches (a 404, a request refused before its view) or one holding
# such an id where another is expected. Course, job, source and learner ids are API identifiers, and
# stay.
SECRET_URL_KWARGS = frozenset({"export_id", "token"})


def redacted_path(request) -> str:
    """The request's path, without its query string, with every secret id in it masked."""
    return _redacted(request.path, secrets=_secrets_in_path(request))


def _redacted(path: str, *, secrets: set[str]) -> str:
    return "/".join(
        ids.masked(part) if part in secrets or part.startswith(redaction.LINK_ID_PREFIXES) else part
        for part in path.split("/")
    )


def _secrets_in_path(request) -> set[str]:
    match = getattr(request, "resolver_match", None)  # set once Django has resolved the request
    if match is None:
        try:
            match = resolve(request.path_info, getattr(request, "urlconf", None))
        except Resolver404:
            return set()
    return {str(value) for name, value in match.kwargs.items() if name in SECRET_URL_KWARGS}


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        # Django's own line of an error answer is written once every middleware has returned, out
        # of the request's context: it names the request, which holds its id.
        request = getattr(record, "request", None)
        record.request_id = request_id_var.get() or getattr(request, "request_id", None)
        return True


class JsonFormatter(_JsonFormatter):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("fmt", "%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s")
        kwargs.setdefault("rename_fields", {"asctime": "time", "levelname": "level", "name": "logger"})
        super().__init__(*args, **kwargs)

    def format(self, record: logging.LogRecord) -> str:
        request = getattr(record, "request", None)
        if isinstance(request, HttpRequest):
            record = _with_request_redacted(record, request)
        return super().format(record)


def _with_request_redacted(record: logging.LogRecord, request: HttpRequest) -> logging.LogRecord:
    # Django's own lines about a request (django.request, django.security.*) carry it whole, whose
    # text holds the query string (a personal link's token), and name its path in their message, as
    # an argument escaped with unicode_escape. Changed on a copy: other handlers see the record as it
    # was logged.
    secrets = _secrets_in_path(request)
    redacted = {path: _redacted(path, secrets=secrets) for path in (request.path, _escaped(request.path))}
    record = copy.copy(record)
    record.request = {"method": request.method, "path": redacted[request.path]}
    if isinstance(record.args, tuple):
        record.args = tuple(redacted.get(arg, arg) if isinstance(arg, str) else arg for arg in record.args)
    return record


def _escaped(text: str) -> str:
    return text.encode("unicode_escape").decode("ascii")
