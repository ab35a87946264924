"""
Django's error handlers: JSON under /api/, the service's own pages elsewhere.

The pages are rendered without the request. Django's default handlers run the CSRF check again,
which reads the form a second time: a form Django refused to read (a charset other than UTF-8,
a broken multipart body) then raised again inside the handler, and the answer was a bare 500.
"""

from django.http import HttpResponse
from django.template import loader

from config import errors
from config.middleware import is_api_request


def bad_request(request, exception):
    # Django's answer to a request it refuses outside a view: a Host header that is not in
    # ALLOWED_HOSTS, a form it cannot read.
    if is_api_request(request):
        return errors.json_error(errors.ValidationError("Bad request."))
    return _page("400.html", status=400)


def permission_denied(request, exception):
    if is_api_request(request):
        return errors.json_error(errors.Forbidden())
    return _page("403.html", status=403)


def not_found(request, exception):
    if is_api_request(request):
        return errors.json_error(errors.NotFound())
    return _page("404.html", status=404)


def server_error(request):
    if is_api_request(request):
        return errors.json_error(errors.InternalError())
    return _page("500.html", status=500)


def _page(template_name: str, *, status: int) -> HttpResponse:
    return HttpResponse(loader.render_to_string(template_name), status=status)
