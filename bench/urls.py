from django.http import JsonResponse
from django.urls import path

from config.urls import urlpatterns as service_urlpatterns


def bare(request):
    """The framework's ceiling: a JSON answer through the same middleware, touching nothing."""
    return JsonResponse({"status": "ok"})


urlpatterns = [path("bench/bare", bare), *service_urlpatterns]
