"""The real URLs plus API routes that fail on purpose, to test the error contract."""

from django.urls import path
from rest_framework.response import Response
from rest_framework.views import APIView

from config.urls import handler404, handler500  # noqa: F401
from config.urls import urlpatterns as real_urlpatterns


class ExplodingView(APIView):
    authentication_classes: list = []

    def get(self, request):
        raise RuntimeError("secret internals: password=hunter2")

    def post(self, request):
        return Response({"received": request.data})


def explode_with_secrets(request):
    """A bug in a view that holds secrets: in its message, a local variable, the request it answers."""
    learner_name = request.POST.get("learner_name", "")  # a local variable no event may carry
    raise RuntimeError(
        f"failed for key {request.headers.get('X-Planted-Key')} with secret {request.headers.get('X-Planted-Secret')}"
        f" at /downloads/{request.GET.get('download')} ({len(learner_name)})"
    )


class ExplodingWithSecretsView(APIView):
    authentication_classes: list = []

    def post(self, request):
        return explode_with_secrets(request._request)


urlpatterns = [
    path("api/v1/test-explode", ExplodingView.as_view()),
    path("api/v1/test-explode-with-secrets", ExplodingWithSecretsView.as_view()),
    path("test-explode-with-secrets", explode_with_secrets),
    *real_urlpatterns,
]
