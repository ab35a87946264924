import urllib.parse

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.views.decorators.http import require_POST
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response

from api import openapi

from core import ratelimit
from api.views import ApiView
from core.formats import iso_utc_ms
from courses.api import CourseReadView
from learners import identity, progress, queries, results_csv, serializers, services

_COURSE = openapi.id_in_path("course_id", prefix="cou_", description="The course `id`.")
_LEARNER = openapi.id_in_path("learner_id", prefix="lrn_", description="The `learnerId`.")


class LearnersView(ApiView):
    rate_limit_scope = "learners"

    @extend_schema(
        operation_id="addLearner",
        summary="Add a learner to a course: a personal link",
        description=(
            "A learner of yours, with your id for them (`externalId`, unique per course) and optionally their "
            "name. The answer's `url` is the share link with a signed token: it identifies the learner on any "
            "device, so their results carry your id and they resume where they left off. A repeat with the same "
            "`externalId` answers `200` with the same learner (renamed if the name differs); a new one `201`."
        ),
        parameters=[_COURSE],
        request=serializers.AddLearnerInput,
        examples=[
            OpenApiExample("An employee", value={"externalId": "E-10442", "name": "Ada Lovelace"}, request_only=True),
        ],
        responses=openapi.responses(
            {
                201: OpenApiResponse(serializers.LearnerOutput, description="A new learner."),
                200: OpenApiResponse(serializers.LearnerOutput, description="The course's learner with this externalId."),
            },
            e400=[openapi.VALIDATION],
            e404=[openapi.NOT_FOUND],
            e413=[openapi.TOO_LARGE],
        ),
    )
    def post(self, request, course_id: str):
        data = serializers.AddLearnerInput(data=request.data)
        data.is_valid(raise_exception=True)
        learner, created = services.add_learner(api_key=request.auth, course_public_id=course_id, **data.validated_data)
        body = serializers.learner_output(learner, url=services.personal_link(learner))
        return Response(body, status=201 if created else 200)


class LearnerView(ApiView):
    rate_limit_scope = "learners"

    @extend_schema(
        operation_id="eraseLearner",
        summary="Erase a learner and every record of theirs",
        description=(
            "For erasure requests: the learner's result, quiz attempts, agreement sign-offs and the webhook events "
            "about them (with their delivery log) are deleted at once, and the answer says how many records went. "
            "Anonymous learners (from the results) can be erased too. Their links and cookies then name no one."
        ),
        parameters=[_COURSE, _LEARNER],
        responses=openapi.responses(
            {
                200: OpenApiResponse(
                    serializers.ErasedOutput, description="The learner is erased: how many records went, of each kind."
                )
            },
            e404=[("NOT_FOUND", "Unknown course or learner, or the course belongs to a different key.")],
        ),
    )
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

    @extend_schema(
        operation_id="listCourseResults",
        summary="Learner results of a course: who started, finished, passed and signed",
        description=(
            "One row per learner, anonymous ones and those of personal links, newest first, `limit` at a time; "
            "follow `nextCursor` (or the `Link` header). With `Accept: text/csv` the same rows come as CSV "
            "(a header line, then one line per learner; cells a spreadsheet would take for a formula start "
            "with `'`)."
        ),
        parameters=[
            _COURSE,
            OpenApiParameter(
                "completed", {"type": "boolean"}, OpenApiParameter.QUERY,
                description="Only learners who completed the course (`true`), or who have not (`false`).",
            ),
            OpenApiParameter(
                "passed", {"type": "boolean"}, OpenApiParameter.QUERY,
                description="Only learners who passed the assessment (`true`), or who tried and have not (`false`).",
            ),
            OpenApiParameter(
                "since", {"type": "string", "format": "date-time"}, OpenApiParameter.QUERY,
                description="Only learners whose record changed at or after this moment (RFC 3339): new, renamed, "
                "or any activity. For keeping a copy up to date, pass the previous read's `nextSince`.",
            ),
            OpenApiParameter(
                "cursor", {"type": "string", "pattern": queries.CURSOR_PATTERN}, OpenApiParameter.QUERY,
                description="`nextCursor` of the previous page.",
            ),
            OpenApiParameter(
                "limit", {"type": "integer", "minimum": 1, "maximum": serializers.RESULTS_PAGE_MAX, "default": 100},
                OpenApiParameter.QUERY, description=f"Learners per page, 1 to {serializers.RESULTS_PAGE_MAX}.",
            ),
        ],
        responses=openapi.responses(
            {
                200: OpenApiResponse(
                    serializers.ResultsOutput,
                    description="The page of results (as CSV with `Accept: text/csv`).",
                )
            },
            e400=[openapi.VALIDATION],
            e404=[openapi.NOT_FOUND],
        ),
    )
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


# The preview page's progress ---------------------------------------------------------------------


@require_POST
def record_progress(request, course_id: str):
    """
    A batch of progress from the preview page's script (CSRF-protected, form-encoded, so that the
    `pagehide` beacon can send it too), for the learner the browser's cookie names. 204, or 200 with
    where to resume and when the learner signed for the first batch of a page; 429 with Retry-After
    when the learner sent too much.
    """
    if not progress.is_a_learner(request.headers.get("User-Agent", "")):
        return _no_store(HttpResponse(status=204))  # crawlers and link previews make no learners
    known = identity.learner_in(request, course_public_id=course_id)
    try:
        batch = progress.parse_batch(request.POST.get("batch"))
        recorded = progress.record(
            course_public_id=course_id,
            learner=known,
            batch=batch,
            client_address=ratelimit.client_address(request),
        )
    except progress.TooManyRequests as exc:
        response = JsonResponse({"message": exc.message, "code": exc.code}, status=429)
        response["Retry-After"] = str(exc.retry_after_seconds)
        return _no_store(response)
    except (progress.InvalidBatch, progress.CourseNotFound) as exc:
        return _no_store(JsonResponse({"message": exc.message, "code": exc.code}, status=exc.status))
    if recorded is None:  # a browser that keeps no cookies: its batches could not be told apart
        return _no_store(HttpResponse(status=204))
    if batch.hello:
        response = JsonResponse({"resume": recorded.resume, "signedAt": recorded.signed_at})
    else:
        response = HttpResponse(status=204)
    if recorded.learner != known:
        identity.remember(response, course_public_id=course_id, learner=recorded.learner)
    return _no_store(response)


def _no_store(response):
    response["Cache-Control"] = "no-store"
    return response
