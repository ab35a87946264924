from csp.decorators import csp_update
from django.contrib import admin
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path
from drf_spectacular.views import SpectacularJSONAPIView, SpectacularSwaggerSplitView

from core import error_pages, health, metrics, ratelimit

# The API and the preview pages first: every request tries the patterns in order, and these are
# what comes most.
urlpatterns = [
    path("api/v1/", include("courses.urls")),
    path("api/v1/", include("exports.urls")),
    path("api/v1/", include("sources.urls")),
    path("api/v1/", include("learners.urls")),
    path("api/v1/openapi.json", SpectacularJSONAPIView.as_view(), name="openapi"),
    path("", include("preview.urls")),
    path("downloads/", include("exports.download_urls")),
    path("healthz", health.healthz),
    path("readyz", health.readyz),
    path("metrics", metrics.view),
    path("favicon.ico", lambda request: redirect(static("favicon.svg"), permanent=True)),
    # Password guessing on the staff login is slowed per client address and per account (403 when over).
    path(
        "admin/login/",
        ratelimit.limited_login(admin.site.login, group="admin.login", per_address="10/m", per_account="10/15m"),
    ),
    path("admin/", admin.site.urls),
    # Swagger UI adds one fixed inline <style> as it renders: allowed by its hash, on this page only.
    path(
        "docs/",
        csp_update({"style-src": ["'self'", "'sha256-MMpT0iDxyjALd9PdfepImGX3DBfJPXZ4IlDWdPAgtn0='"]})(
            SpectacularSwaggerSplitView.as_view(url_name="openapi")
        ),
        name="docs",
    ),
]

handler400 = error_pages.bad_request
handler403 = error_pages.permission_denied
handler404 = error_pages.not_found
handler500 = error_pages.server_error
