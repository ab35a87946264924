"""The real URLs plus routes under /api/ that fail on purpose, inside and outside DRF."""

from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation
from django.http import Http404
from django.urls import path
from rest_framework.response import Response

from api.views import ApiView
from config.urls import handler400, handler403, handler404, handler500  # noqa: F401
from config.urls import urlpatterns as real_urlpatterns


class ExplodingPollView(ApiView):
    rate_limit_scope = "poll"

    def get(self, request):
        raise RuntimeError("secret internals: password=hunter2")


class CreateNothingView(ApiView):
    rate_limit_scope = "create"

    def post(self, request):
        return Response({"created": False}, status=202)


def exploding_plain_view(request):
    raise RuntimeError("secret internals: password=hunter2")


# What plain Django code raises for Django to answer 404, 403 or 400.
_DJANGO_ANSWERS = {
    "missing": Http404,
    "forbidden": PermissionDenied,
    "bad": BadRequest,
    "suspicious": SuspiciousOperation,
}


def raising_plain_view(request, what):
    raise _DJANGO_ANSWERS[what]("secret internals: staff only")


urlpatterns = [
    path("api/v1/test-errors/explode", ExplodingPollView.as_view()),
    path("api/v1/test-errors/create", CreateNothingView.as_view()),
    path("api/v1/test-errors/plain-explode", exploding_plain_view),
    path("api/v1/test-errors/plain-raise/<str:what>", raising_plain_view),
    path("test-errors/plain-raise/<str:what>", raising_plain_view),
    path("test-errors/plain-explode", exploding_plain_view),
    *real_urlpatterns,
]
