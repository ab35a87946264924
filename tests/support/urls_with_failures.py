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


urlpatterns = [path("api/v1/test-explode", ExplodingView.as_view()), *real_urlpatterns]
