"""
The one error contract of the API: every error is `{"message": ..., "code": ...}`, and a 400 also
lists every problem found in `errors`: `{"field", "message"}` each, and `allowed` where the field
takes one of a list of values. `field` is the path of the field in the request (`addOns[1]`,
`chapters[0].title`), null for the request as a whole.

A client-actionable failure is an `AppError` subclass raised anywhere below a view; anything else
is a bug and becomes a 500 `INTERNAL_ERROR` that shows no internals.
"""

import logging
import time

import psycopg
from django.db import InterfaceError, OperationalError
from django.db import InternalError as DatabaseInternalError  # not ours, below
from django.http import JsonResponse
from rest_framework import exceptions as drf_exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from core import logs

logger = logging.getLogger("cgs.request")


def is_api_request(request) -> bool:
    """Whether a request is the API's: its every error is JSON."""
    return request.path.startswith("/api/")


class AppError(Exception):
    status, code, message = 400, "VALIDATION_ERROR", "The request could not be processed."

    def __init__(self, message: str | None = None, *, field: str | None = None):
        """`field`: the path of the field at fault, which the message then starts with."""
        self.problem = problem(field, message or self.message)
        self.message = f"{field}: {self.problem['message']}" if field else self.problem["message"]
        super().__init__(self.message)

    def problems(self) -> list[dict]:
        """The `errors` of a 400's body: this one problem."""
        return [self.problem]


class ValidationError(AppError):
    pass


class InvalidInput(ValidationError):
    """Every problem of a request at once: `message` says the first and how many more there are."""

    def __init__(self, found: list[dict]):
        self.found = found or [problem(None, "Invalid request.")]
        first = self.found[0]
        message = f"{first['field']}: {first['message']}" if first["field"] else first["message"]
        if len(self.found) > 1:
            message += f" ({len(self.found) - 1} more in `errors`.)"
        super().__init__(message)

    def problems(self) -> list[dict]:
        return self.found


def problem(field: str | None, message: str, *, allowed: list | None = None) -> dict:
    """One entry of a 400's `errors`."""
    return {"field": field, "message": message, **({"allowed": allowed} if allowed is not None else {})}


def field_path(parts) -> str | None:
    """`("addOns", 1)` as `addOns[1]`, `("chapters", 0, "title")` as `chapters[0].title`; () as None."""
    path = ""
    for part in parts:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path or None


class NotFound(AppError):
    status, code, message = 404, "NOT_FOUND", "Not found."


class Forbidden(AppError):
    status, code, message = 403, "FORBIDDEN", "You do not have permission to perform this action."


class InternalError(AppError):
    status, code, message = 500, "INTERNAL_ERROR", "Internal server error."


class ServiceUnavailable(AppError):
    status, code = 503, "SERVICE_UNAVAILABLE"
    message = "The service is briefly unavailable. Please try again in a few seconds."


# The database went away (a restart, a failover): not a bug, and the request can be sent again. The
# connection is dropped at the end of the request, so the next one connects afresh.
DATABASE_UNAVAILABLE = (OperationalError, InterfaceError)
RETRY_AFTER_SECONDS = 5


def read_only_as_unavailable(execute, sql, params, many, context):
    """
    Every query's wrapper (core.apps): a database that refuses writes because it is read-only is
    unavailable, raised as OperationalError for every handler of DATABASE_UNAVAILABLE (a 503, a
    worker storing again). That is a failover's old primary, or a standby, behind an address not
    yet moved, or a database set read-only for maintenance. The connection is dropped at the end of
    the request (or by the worker), so the next one connects afresh, to whatever the address names
    by then: a session keeps the read-only setting it connected with.
    """
    try:
        return execute(sql, params, many, context)
    except DatabaseInternalError as error:
        if not isinstance(error.__cause__, psycopg.errors.ReadOnlySqlTransaction):
            raise
        context["connection"].close_at = time.monotonic()  # Django's own mark of a connection to drop
        raise OperationalError(*error.args) from error.__cause__


def error_body(*, message: str, code: str, problems: list[dict] | None = None) -> dict:
    return {"message": message, "code": code, **({"errors": problems} if problems is not None else {})}


def body_of(error: AppError) -> dict:
    problems = error.problems() if error.status == 400 else None
    return error_body(message=error.message, code=error.code, problems=problems)


def json_error(error: AppError) -> JsonResponse:
    """Render an AppError outside DRF (middleware, Django's error handlers)."""
    response = JsonResponse(body_of(error), status=error.status)
    if isinstance(error, ServiceUnavailable):
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


# DRF's own exceptions, translated into our codes. UnsupportedMediaType is a 400 on purpose: the
# contract knows only VALIDATION_ERROR for a body it cannot read.
_DRF_CODES = {
    drf_exceptions.ParseError: (400, "VALIDATION_ERROR", "Malformed JSON body."),
    drf_exceptions.UnsupportedMediaType: (400, "VALIDATION_ERROR", "The body must be application/json."),
    drf_exceptions.NotAuthenticated: (401, "INVALID_API_KEY", None),
    drf_exceptions.AuthenticationFailed: (401, "INVALID_API_KEY", None),
    drf_exceptions.PermissionDenied: (403, "FORBIDDEN", None),
    drf_exceptions.NotFound: (404, "NOT_FOUND", "Not found."),
    drf_exceptions.MethodNotAllowed: (405, "METHOD_NOT_ALLOWED", None),
    drf_exceptions.NotAcceptable: (406, "NOT_ACCEPTABLE", None),
    drf_exceptions.Throttled: (429, "RATE_LIMIT_EXCEEDED", "Too many requests, please slow down."),
    drf_exceptions.ValidationError: (400, "VALIDATION_ERROR", None),
}


def api_exception_handler(exc, context):
    """
    DRF's EXCEPTION_HANDLER: answer any exception raised in a DRF view with the error body. An
    exception that is neither an AppError nor one of DRF's is a bug: it is logged with its
    traceback and answered 500 INTERNAL_ERROR without internals. Answering here rather than in
    ApiErrorMiddleware lets the view finish the response, so even a 500 carries the RateLimit
    headers.
    """
    if isinstance(exc, DATABASE_UNAVAILABLE):
        logger.warning("database unavailable", exc_info=exc)
        set_rollback()
        exc = ServiceUnavailable()
        body = error_body(message=exc.message, code=exc.code)
        return Response(body, status=exc.status, headers={"Retry-After": str(RETRY_AFTER_SECONDS)})
    if isinstance(exc, drf_exceptions.ValidationError):
        exc = InvalidInput(problems_in(exc.detail))
    if isinstance(exc, AppError):
        headers = {"Retry-After": str(RETRY_AFTER_SECONDS)} if isinstance(exc, ServiceUnavailable) else None
        return Response(body_of(exc), status=exc.status, headers=headers)
    response = drf_exception_handler(exc, context)  # sets WWW-Authenticate, Retry-After
    if response is None:
        request = context.get("request")
        path = logs.redacted_path(request) if request is not None else ""
        logger.error("unhandled error", extra={"path": path}, exc_info=exc)
        set_rollback()  # what Django's ATOMIC_REQUESTS would do had the exception propagated
        error = InternalError()
        return Response(error_body(message=error.message, code=error.code), status=error.status)
    status, code, message = next(
        (entry for cls, entry in _DRF_CODES.items() if isinstance(exc, cls)),
        (response.status_code, "VALIDATION_ERROR" if response.status_code == 400 else "ERROR", None),
    )
    response.status_code = status
    message = message or str(exc.detail)
    problems = [problem(None, message)] if status == 400 else None
    response.data = error_body(message=message, code=code, problems=problems)
    return response


# The keys under which DRF reports problems of the object as a whole, not of one field.
_WHOLE = ("non_field_errors", "detail")


def problems_in(detail, field=None, parts=()) -> list[dict]:
    """
    Every problem of DRF's nested error detail (a serializer's `errors`), in order, as `errors`
    entries. Given the serializer (`field`), each entry whose field takes one of a list of values
    (a choice) says which as `allowed`; an unknown field's entry lists the fields there are.
    """
    if isinstance(detail, dict):
        found = []
        known = getattr(field, "fields", None)
        for key, inner in detail.items():
            if key in _WHOLE:
                found += problems_in(inner, field, parts)
            elif known is not None and key not in known:  # a field the request may not have
                allowed = [name for name, each in known.items() if not each.read_only]
                found += [problem(field_path((*parts, key)), str(message), allowed=allowed) for message in inner]
            else:
                found += problems_in(inner, _child(field, key), (*parts, key))
        return found
    if isinstance(detail, list):
        if all(isinstance(item, str) for item in detail):
            return [_problem_of(message, field, parts) for message in detail]
        # One entry per item of a list of objects (`many=True`): an empty one for a valid item.
        child = getattr(field, "child", None)
        return [found for index, inner in enumerate(detail) for found in problems_in(inner, child, (*parts, index))]
    return [_problem_of(detail, field, parts)]


def _problem_of(message, field, parts) -> dict:
    choices = getattr(field, "choices", None)
    return problem(field_path(parts), str(message), allowed=list(choices) if choices else None)


def _child(field, key):
    if field is None:
        return None
    if isinstance(key, int) or str(key).isdigit():
        return getattr(field, "child", None)
    fields = getattr(field, "fields", None)
    return fields.get(key) if fields is not None else None
