"""One test-only endpoint per rate-limit scope, built on the real ApiView, and the admin."""

from django.contrib import admin
from django.urls import path
from rest_framework import serializers
from rest_framework.response import Response

from api.views import ApiView
from core import error_pages, errors


class CreateThingInput(serializers.Serializer):
    subject = serializers.CharField(max_length=200)


class CreateThingView(ApiView):
    rate_limit_scope = "create"

    def post(self, request):
        data = CreateThingInput(data=request.data)
        data.is_valid(raise_exception=True)
        return Response({"subject": data.validated_data["subject"]}, status=202)


class PollThingView(ApiView):
    rate_limit_scope = "poll"

    def get(self, request, thing_id):
        if thing_id != "known":
            raise errors.NotFound("Job not found.")
        return Response({"jobId": thing_id})


class ExportThingView(ApiView):
    rate_limit_scope = "export"

    def post(self, request, thing_id):
        return Response({"courseId": thing_id})


urlpatterns = [
    path("api/v1/test-limited/things", CreateThingView.as_view()),
    path("api/v1/test-limited/things/jobs/<str:thing_id>", PollThingView.as_view()),
    path("api/v1/test-limited/things/<str:thing_id>/export", ExportThingView.as_view()),
    path("admin/", admin.site.urls),
]

handler404 = error_pages.not_found
handler500 = error_pages.server_error
