from csp.decorators import csp_update
from django.contrib import admin
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path
from drf_spectacular.views import SpectacularJSONAPIView, SpectacularSwaggerSplitView

from config import health, ratelimit, views

# The API and the preview pages first: every request tries the patterns in order, and these are
# what comes most.
urlpatterns = [
    path("api/v1/", include("courses.urls")),
    path("api/v1/", include("sources.urls")),
    path("api/v1/", include("learners.urls")),
    path("api/v1/openapi.json", SpectacularJSONAPIView.as_view(), name="openapi"),
    path("", include("learners.page_urls")),
    path("", include("courses.page_urls")),
    path("downloads/", include("courses.download_urls")),
    path("healthz", health.healthz),
    path("readyz", health.readyz),
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

handler400 = views.bad_request
handler403 = views.permission_denied
handler404 = views.not_found
handler500 = views.server_error
