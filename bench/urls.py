from django.db import connection
from django.http import JsonResponse
from django.urls import path
from rest_framework.response import Response

from api.views import ApiView
from config.urls import urlpatterns as service_urlpatterns


def bare(request):
    """The framework's ceiling: a JSON answer through the same middleware, touching nothing."""
    return JsonResponse({"status": "ok"})


def one_query(request):
    """The bare view plus one round trip to PostgreSQL: what a round trip costs on this machine."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return JsonResponse({"status": "ok"})


class NothingView(ApiView):
    """An API request that does nothing: its key is looked up and the limiter counts it, as for every endpoint."""

    rate_limit_scope = "poll"

    def get(self, request):
        return Response({"status": "ok"})


urlpatterns = [
    path("bench/bare", bare),
    path("bench/one-query", one_query),
    path("bench/nothing", NothingView.as_view()),
    *service_urlpatterns,
]
