"""Django's error handlers: JSON under /api/, the service's own pages elsewhere (config/error_pages.py)."""

from config import error_pages, errors
from config.middleware import is_api_request


def bad_request(request, exception):
    # Django's answer to a request it refuses outside a view: a Host header that is not in
    # ALLOWED_HOSTS, a form it cannot read.
    if is_api_request(request):
        return errors.json_error(errors.ValidationError("Bad request."))
    return error_pages.page(request, 400)


def permission_denied(request, exception):
    if is_api_request(request):
        return errors.json_error(errors.Forbidden())
    return error_pages.page(request, 403)


def not_found(request, exception):
    if is_api_request(request):
        return errors.json_error(errors.NotFound())
    return error_pages.page(request, 404)


def server_error(request):
    if is_api_request(request):
        return errors.json_error(errors.InternalError())
    return error_pages.page(request, 500)
