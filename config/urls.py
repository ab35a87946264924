from django.contrib import admin
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path

from config import health, views

urlpatterns = [
    path("healthz", health.healthz),
    path("readyz", health.readyz),
    path("favicon.ico", lambda request: redirect(static("favicon.svg"), permanent=True)),
    path("admin/", admin.site.urls),
    path("api/v1/", include("courses.urls")),
]

handler404 = views.not_found
handler500 = views.server_error
