"""
The one error contract of the API: every error is `{"message": ..., "code": ...}`.

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

    def __init__(self, message: str | None = None):
        self.message = message or self.message
        super().__init__(self.message)


class ValidationError(AppError):
    pass


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


def error_body(*, message: str, code: str) -> dict:
    return {"message": message, "code": code}


def json_error(error: AppError) -> JsonResponse:
    """Render an AppError outside DRF (middleware, Django's error handlers)."""
    response = JsonResponse(error_body(message=error.message, code=error.code), status=error.status)
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
    if isinstance(exc, AppError):
        return Response(error_body(message=exc.message, code=exc.code), status=exc.status)
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
    response.data = error_body(message=message or _first_message(exc.detail), code=code)
    return response


def _first_message(detail) -> str:
    """Flatten DRF's nested error detail into one sentence that names the field."""
    if isinstance(detail, dict):
        field, value = next(iter(detail.items()))
        inner = _first_message(value)
        return inner if field in ("non_field_errors", "detail") else f"{field}: {inner}"
    if isinstance(detail, list):
        return _first_message(detail[0]) if detail else "Invalid value."
    return str(detail)
