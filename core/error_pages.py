"""
The service's error pages outside /api/ (400, 403, 404, 500, 503, and the 403 of a form sent
without its CSRF token), in the reader's language, and Django's error handlers, which answer JSON
under /api/ and these pages elsewhere.

They are rendered without the request: Django's default handlers run the CSRF check again, which
reads the form a second time, so a form Django had refused to read (a charset other than UTF-8, a
broken multipart body) raised again inside the handler and the answer was a bare 500. Only the
request's headers choose the language.
"""

import logging

from django.http import HttpResponse
from django.template import loader
from django.template.loader import render_to_string
from django.urls import is_valid_path
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import gettext_lazy as _
from django.utils.translation.trans_real import parse_accept_lang_header

from core import errors
from core.errors import is_api_request
from core.languages import Language

logger = logging.getLogger(__name__)

# What is left when even the page cannot be rendered (a template or a static file missing).
_BARE = '<!doctype html><html lang="en"><meta charset="utf-8"><title>{status}</title><h1>Error {status}</h1>'

# Each page's title and text, by status (templates/error.html).
_WORDS = {
    400: (
        _("This request could not be read"),
        _("Your browser sent something this page cannot read. Go back, reload the page and try again."),
    ),
    403: (_("Not allowed"), _("This page is not open to you.")),
    404: (
        _("Page not found"),
        _(
            "There is no course or page at this address. Check that the link is complete, or ask whoever "
            "shared it for a new one."
        ),
    ),
    500: (
        _("Something went wrong"),
        _("The service ran into an error and has recorded it. Please reload the page in a moment."),
    ),
    503: (
        _("Back in a moment"),
        _("The service is briefly unavailable. Please reload the page in a few seconds."),
    ),
}


def page(request, status: int) -> HttpResponse:
    """The error page for `status` (one of _WORDS), in the reader's language."""
    title, text = _WORDS[status]
    context = {"status": status, "title": title, "text": text}
    return _in_readers_language(request, status, "error.html", context)


def gone_page(request, *, language_id: str, title, text) -> HttpResponse:
    """410 Gone: a plain page in the language of what was taken down, saying what became of it."""
    with translation.override(language_id):
        html = render_to_string(
            "gone.html",
            {"title": title, "text": text, "html_lang": language_id, "allow_indexing": False},
        )
    response = HttpResponse(html, status=410)
    response["X-Robots-Tag"] = "noindex, nofollow"
    patch_cache_control(response, private=True, no_cache=True)
    return response


def csrf_failure(request, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: a form sent without its token, or an old one, in the reader's language."""
    return _in_readers_language(request, 403, "403_csrf.html", {})


def _in_readers_language(request, status: int, template: str, context: dict) -> HttpResponse:
    try:
        language = reader_language(request)
        with translation.override(language):
            html = loader.render_to_string(template, {**context, "html_lang": language})
    except Exception:
        logger.exception("error page not rendered", extra={"status": status})
        html = _BARE.format(status=status)
    response = HttpResponse(html, status=status)
    patch_vary_headers(response, ["Accept-Language"])
    return response


def reader_language(request) -> str:
    """
    The first language of the reader's Accept-Language that pages are written in, as such (pt-BR)
    or by its first part (pt, pt-PT: pt-BR); else English. A language given `q=0` is one the reader
    does not want.
    """
    for code, quality in parse_accept_lang_header(request.META.get("HTTP_ACCEPT_LANGUAGE", "")):
        if quality <= 0:
            continue
        for language in Language.values:
            if language.lower() == code:
                return language
        for language in Language.values:
            if language.lower().split("-")[0] == code.split("-")[0]:
                return language
    return Language.EN_US


# Django's error handlers (config/urls.py) ---------------------------------------------------------


def bad_request(request, exception):
    # Django's answer to a request it refuses outside a view: a Host header that is not in
    # ALLOWED_HOSTS, a form it cannot read.
    if is_api_request(request):
        return errors.json_error(errors.ValidationError("Bad request."))
    return page(request, 400)


def permission_denied(request, exception):
    if is_api_request(request):
        return errors.json_error(errors.Forbidden())
    return page(request, 403)


def not_found(request, exception):
    if is_api_request(request):
        return errors.json_error(_api_not_found(request))
    return page(request, 404)


def server_error(request):
    if is_api_request(request):
        return errors.json_error(errors.InternalError())
    return page(request, 500)


def handler_answer(request, status: int) -> HttpResponse:
    """What the handler of `status` answers: 400, 403 and 404 their own, any other status 500's."""
    handlers = {400: bad_request, 403: permission_denied, 404: not_found}
    return handlers[status](request, None) if status in handlers else server_error(request)


def _api_not_found(request) -> errors.NotFound:
    # A path of the API with a slash added (`/api/v1/courses/`) is not served: rather than a redirect,
    # which a client follows by sending a POST again as a GET, the answer says what to change.
    trimmed = request.path_info.rstrip("/")
    if trimmed != request.path_info and is_valid_path(trimmed):
        return errors.NotFound("Not found. API paths end without a slash: drop the one at the end.")
    return errors.NotFound()
