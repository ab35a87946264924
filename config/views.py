"""Django's error handlers: JSON under /api/, plain pages elsewhere."""

from django.views import defaults

from config import errors
from config.middleware import is_api_request


def bad_request(request, exception):
    # Django's answer to a SuspiciousOperation raised outside a view, such as a Host header that
    # is not in ALLOWED_HOSTS.
    if is_api_request(request):
        return errors.json_error(errors.ValidationError("Bad request."))
    return defaults.bad_request(request, exception)


def permission_denied(request, exception):
    if is_api_request(request):
        return errors.json_error(errors.Forbidden())
    return defaults.permission_denied(request, exception)


def not_found(request, exception):
    if is_api_request(request):
        return errors.json_error(errors.NotFound())
    return defaults.page_not_found(request, exception)


def server_error(request):
    if is_api_request(request):
        return errors.json_error(errors.InternalError())
    return defaults.server_error(request)
