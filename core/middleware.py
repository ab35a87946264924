import codecs
import logging
import re
import time
import uuid

from csp import middleware as csp_middleware
from django.conf import settings
from django.contrib.auth import middleware as auth_middleware
from django.contrib.messages import middleware as message_middleware
from django.contrib.sessions import middleware as session_middleware
from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation
from django.http import Http404
from django.http.multipartparser import MultiPartParserError
from django.urls import Resolver404, resolve

from core import error_pages, errors, metrics, request_bodies
from core.errors import is_api_request
from core.logs import redacted_path, request_id_var

logger = logging.getLogger("cgs.request")

_WELL_FORMED_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")


class RequestIdMiddleware:
    """
    Give every request an id (the client's `X-Request-ID` when well-formed, else a new one), echo it
    in the response, attach it to every log line written meanwhile, and log one line per request.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.perf_counter()
        offered = request.headers.get("X-Request-ID", "")
        request_id = offered if _WELL_FORMED_REQUEST_ID.fullmatch(offered) else uuid.uuid4().hex
        request.request_id = request_id
        token = request_id_var.set(request_id)
        try:
            response = self.get_response(request)
            response["X-Request-ID"] = request_id
            logger.info(
                "request",
                extra={
                    "method": request.method,
                    "path": redacted_path(request),
                    "status": response.status_code,
                    "duration_ms": round((time.perf_counter() - started) * 1000, 1),
                },
            )
            return response
        finally:
            request_id_var.reset(token)


_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


class RequestMetricsMiddleware:
    """
    Count every request and time it (core.metrics), labelled by the URL pattern that answered it,
    never by its path: ids in paths would make a series of each.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.perf_counter()
        response = self.get_response(request)
        route = _route(request)
        method = request.method if request.method in _METHODS else "other"
        metrics.HTTP_REQUESTS.labels(route=route, method=method, status=str(response.status_code)).inc()
        metrics.HTTP_REQUEST_SECONDS.labels(route=route).observe(time.perf_counter() - started)
        return response


def _route(request) -> str:
    match = getattr(request, "resolver_match", None)
    if match is not None:
        return match.route
    if request.path.startswith(settings.STATIC_URL):
        return "static"  # answered by WhiteNoise before any URL pattern is tried
    return "unmatched"


class PrivateAnswersMiddleware:
    """
    `Cache-Control: no-store` on every answer to a request that presents an API key (valid or not,
    success or error): what one key reads is that client's own, and no cache between us and it (a
    company proxy, a CDN, the browser's disk) may keep it.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if "HTTP_AUTHORIZATION" in request.META:
            response["Cache-Control"] = "no-store"
        return response


# API requests -------------------------------------------------------------------------------------
# An API request carries a bearer key, never a cookie: the middleware of the pages browsers use
# (sessions, the staff login, messages) lets it through untouched, and its answer, JSON, takes one
# fixed policy instead of one built for each response. (Django's CSRF middleware stays as it is, as
# the deploy check wants it; the API's views are exempt.)


class _ForBrowsersOnly:
    def __call__(self, request):
        if is_api_request(request):
            return self.get_response(request)
        return super().__call__(request)


class SessionMiddleware(_ForBrowsersOnly, session_middleware.SessionMiddleware):
    pass


class AuthenticationMiddleware(_ForBrowsersOnly, auth_middleware.AuthenticationMiddleware):
    pass


class MessageMiddleware(_ForBrowsersOnly, message_middleware.MessageMiddleware):
    pass


# Nothing an API answer holds is meant to run, load anything or be framed.
API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'"


class ContentSecurityPolicyMiddleware(csp_middleware.CSPMiddleware):
    def process_response(self, request, response):
        if is_api_request(request):
            response.headers.setdefault("Content-Security-Policy", API_CONTENT_SECURITY_POLICY)
            return response
        if response.status_code == 304:
            # No content: the browser keeps the page it has, with the policy that came with it.
            return response
        return super().process_response(request, response)


class ApiErrorMiddleware:
    """
    Keep the error contract for everything under /api/, including what happens outside DRF:
    oversized bodies (413; for the API's own endpoints the view answers it, after the rate limiter,
    so that it carries RateLimit headers) and unexpected exceptions (500 without internals, logged).
    A database that is down is a 503 with Retry-After, JSON under /api/ and a plain page elsewhere.
    An exception inside a DRF view never gets here:
    core.errors.api_exception_handler answers it, so the view still adds its RateLimit headers.
    This is the safety net for the rest (plain Django views, rendering, the handler itself).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        limit = request_bodies.body_limit_exceeded(request)
        if limit is not None and not _answered_by_api_view(request):
            return errors.json_error(request_bodies.PayloadTooLarge(limit.message))
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, errors.DATABASE_UNAVAILABLE):
            logger.warning("database unavailable", extra={"path": redacted_path(request)}, exc_info=exception)
            if is_api_request(request):
                return errors.json_error(errors.ServiceUnavailable())
            response = error_pages.page(request, 503)
            response["Retry-After"] = str(errors.RETRY_AFTER_SECONDS)
            return response
        if not is_api_request(request) or isinstance(exception, _ANSWERED_BY_DJANGO):
            return None
        logger.error("unhandled error", extra={"path": redacted_path(request)}, exc_info=exception)
        return errors.json_error(errors.InternalError())


class DebugErrorsMiddleware:
    """
    The service's own error answers with DEBUG on too. There Django answers a path no pattern
    matches, an Http404, a BadRequest and an unexpected exception with its technical pages rather
    than the handlers of core.error_pages: under /api/ each is answered as its handler would (JSON),
    and elsewhere a page not found is the service's 404 page. A server error on a page keeps the
    technical page, which is what DEBUG is for.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not settings.DEBUG or response.status_code < 400 or _is_json(response):
            return response
        # A technical 404 of a path no pattern matched: Django resolved nothing.
        unmatched = response.status_code == 404 and request.resolver_match is None
        if is_api_request(request) or unmatched:
            return error_pages.handler_answer(request, response.status_code)
        return response

    def process_exception(self, request, exception):
        if settings.DEBUG and isinstance(exception, Http404):
            return error_pages.not_found(request, exception)
        return None


def _is_json(response) -> bool:
    return response.get("Content-Type", "").startswith("application/json")


class FormBodiesMiddleware:
    """
    Bodies as forms send them, before anything reads them (the CSRF check reads a form first):
    - A media type in any case, as HTTP has it: `Multipart/Form-Data` is read as multipart, which
      Django's parser takes in lower case only.
    - Refused (400): a multipart form outside /api/ declared in a charset other than UTF-8, as
      Django itself refuses such a url-encoded form. Our pages are UTF-8, so browsers send their
      forms in UTF-8; one declared in, say, `unicode_escape` decodes into text that no page can
      show again (the sign-off form, the admin login). The API reads its own bodies (api.parsers).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        declared = request.META.get("CONTENT_TYPE", "")
        media_type, semicolon, parameters = declared.partition(";")
        if media_type != media_type.lower():  # the parameters keep their case: a boundary is case-sensitive
            request.META["CONTENT_TYPE"] = media_type.lower() + semicolon + parameters
        if not is_api_request(request) and _declared_charset_is_not_utf8(request):
            raise BadRequest("Forms are read in UTF-8 only.")
        return self.get_response(request)


def _declared_charset_is_not_utf8(request) -> bool:
    if request.content_type.lower() != "multipart/form-data" or "charset" not in request.content_params:
        return False
    try:
        return codecs.lookup(request.content_params["charset"]).name != "utf-8"
    except LookupError:
        return False  # a charset Python does not know is not used: Django reads the form in UTF-8


# Exceptions Django itself answers 404, 403 or 400 through the handlers of core.error_pages, which keep
# the error body under /api/: not bugs, so not 500s.
_ANSWERED_BY_DJANGO = (Http404, PermissionDenied, BadRequest, SuspiciousOperation, MultiPartParserError)


def _answered_by_api_view(request) -> bool:
    # An API view answers a body over its limit itself, after its rate limiter (api.views.ApiView).
    try:
        view = resolve(request.path_info).func
    except Resolver404:
        return False
    return getattr(getattr(view, "cls", None), "answers_body_limits", False)
