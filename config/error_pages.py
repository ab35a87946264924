"""
The service's error pages outside /api/ (400, 403, 404, 500, 503), in the reader's language.

They are rendered without the request: Django's default handlers run the CSRF check again, which
reads the form a second time, so a form Django had refused to read (a charset other than UTF-8, a
broken multipart body) raised again inside the handler and the answer was a bare 500. Only the
request's headers choose the language.
"""

import logging

from django.http import HttpResponse
from django.template import loader
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

from courses.models import Language

logger = logging.getLogger(__name__)

# What is left when even the page cannot be rendered (a template or a static file missing).
_BARE = '<!doctype html><html lang="en"><meta charset="utf-8"><title>{status}</title><h1>Error {status}</h1></html>'


def page(request, template_name: str, *, status: int) -> HttpResponse:
    try:
        language = reader_language(request)
        with translation.override(language):
            html = loader.render_to_string(template_name, {"html_lang": language})
    except Exception:
        logger.exception("error page not rendered", extra={"template": template_name})
        html = _BARE.format(status=status)
    return HttpResponse(html, status=status)


def reader_language(request) -> str:
    """
    The first language of the reader's Accept-Language that pages are written in, as such (pt-BR)
    or by its first part (pt, pt-PT: pt-BR); else English.
    """
    for code, _quality in parse_accept_lang_header(request.META.get("HTTP_ACCEPT_LANGUAGE", "")):
        for language in Language.values:
            if language.lower() == code:
                return language
        for language in Language.values:
            if language.lower().split("-")[0] == code.split("-")[0]:
                return language
    return Language.EN_US
