import urllib.parse

from django.conf import settings
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response

from api import openapi
from api.views import ApiView
from core.formats import iso_utc_ms
from courses.views import CourseReadView
from learners import queries, results_csv, schemas, serializers, services

_COURSE = openapi.id_in_path("course_id", prefix="cou_", description="The course `id`.")
_LEARNER = openapi.id_in_path("learner_id", prefix="lrn_", description="The `learnerId`.")


class LearnersView(ApiView):
    rate_limit_scope = "learners"

    @schemas.add_learner
    def post(self, request, course_id: str):
        data = serializers.AddLearnerInput(data=request.data)
        data.is_valid(raise_exception=True)
        learner, created = services.add_learner(api_key=request.auth, course_public_id=course_id, **data.validated_data)
        body = serializers.learner_output(learner, url=services.personal_link(learner))
        return Response(body, status=201 if created else 200)


class LearnerView(ApiView):
    rate_limit_scope = "learners"

    @schemas.erase_learner
    def delete(self, request, course_id: str, learner_id: str):
        erased = services.erase_learner(api_key=request.auth, course_public_id=course_id, learner_public_id=learner_id)
        return Response(serializers.erased_output(learner_id, erased))


class ResultsCsvRenderer(BaseRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return results_csv.document(data["results"]).encode("utf-8")


class ResultsView(CourseReadView):
    rate_limit_scope = "results"
    renderer_classes = [JSONRenderer, ResultsCsvRenderer]

    @schemas.list_course_results
    def get(self, request, course_id: str):
        # A plain dict: an empty value is then refused, not taken for an absent one.
        data = serializers.ResultsInput(data=request.query_params.dict())
        data.is_valid(raise_exception=True)
        page = queries.results_of(self.course(), **data.validated_data)
        body = {
            "courseId": page.course.public_id,
            "results": [serializers.result_output(learner) for learner in page.learners],
            "nextCursor": page.next_cursor,
            "nextSince": iso_utc_ms(page.next_since),
        }
        headers = {}
        if page.next_cursor is not None:
            query = {**request.query_params.dict(), "cursor": page.next_cursor}
            headers["Link"] = f'<{settings.PUBLIC_BASE_URL}{request.path}?{urllib.parse.urlencode(query)}>; rel="next"'
        if request.accepted_renderer.format == "csv":
            headers["Content-Disposition"] = f'attachment; filename="{page.course.public_id}-results.csv"'
        return Response(body, headers=headers)

    def finalize_response(self, request, response, *args, **kwargs):
        # Errors are JSON whatever was asked for.
        if response.status_code >= 400:
            request.accepted_renderer, request.accepted_media_type = JSONRenderer(), "application/json"
        return super().finalize_response(request, response, *args, **kwargs)
