"""Django's error handlers: JSON under /api/, plain pages elsewhere."""

from django.views import defaults

from config import errors
from config.middleware import is_api_request


def not_found(request, exception):
    if is_api_request(request):
        return errors.json_error(errors.NotFound())
    return defaults.page_not_found(request, exception)


def server_error(request):
    if is_api_request(request):
        return errors.json_error(errors.InternalError())
    return defaults.server_error(request)
