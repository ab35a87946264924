import logging
import re
import unicodedata
import urllib.parse

from django.http import FileResponse, Http404
from django.utils.text import slugify
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework.response import Response

from config import openapi
from config.api import ApiView
from config.ids import looks_like_public_id
from courses import exports, idempotency, jobs, queries, serializers
from courses.models import Export

logger = logging.getLogger(__name__)


class CreateJobView(ApiView):
    rate_limit_scope = "create"

    @extend_schema(
        operation_id="createCourse",
        summary="Submit a course for generation",
        description="Returns at once with the job to poll. One course credit is charged when accepted.",
        parameters=[openapi.IDEMPOTENCY_KEY],
        request=serializers.CreateJobInput,
        examples=[
            OpenApiExample("Subject only", value={"subject": "Intro to SQL"}, request_only=True),
            OpenApiExample(
                "Every option",
                value={
                    "subject": "Food safety for kitchen staff",
                    "format": "classic",
                    "languageId": "pt-BR",
                    "outline": ["Why food safety matters", "Hand washing", "Storing food"],
                    "addOns": ["practical-exercises", "assessment", "agreement"],
                    "callbackUrl": "https://hooks.example.com/courses/7f3a9c2e",
                },
                request_only=True,
            ),
        ],
        responses=openapi.responses(
            {
                202: OpenApiResponse(
                    serializers.JobAccepted,
                    description="Accepted; `Location` is the poll URL.",
                )
            },
            e400=[openapi.VALIDATION],
            e403=[("USAGE_LIMIT_EXCEEDED_PLAN", "Monthly course credits of the plan used up; names the plan.")],
            e409=[openapi.IDEMPOTENCY_REUSED],
            e413=[openapi.TOO_LARGE],
        ),
    )
    def post(self, request):
        data = serializers.CreateJobInput(data=request.data)
        data.is_valid(raise_exception=True)
        job = jobs.create_job(
            api_key=request.auth,
            idempotency_key=idempotency_key_of(request),
            **data.validated_data,
        )
        body = serializers.JobAccepted(job).data
        return Response(body, status=202, headers={"Location": body["pollUrl"]})


class PollJobView(ApiView):
    rate_limit_scope = "poll"

    @extend_schema(
        operation_id="pollJob",
        summary="Poll a job",
        description="Poll at most once every 5 seconds; unfinished jobs answer with `Retry-After: 5`.",
        parameters=[openapi.id_in_path("job_id", prefix="job_", description="The `jobId`.")],
        responses=openapi.responses(
            {
                200: OpenApiResponse(
                    serializers.JobOutput,
                    description=(
                        "The job: `pending` or `running` with its `progress` (and `Retry-After: 5`), "
                        "`completed` with its `course`, or `failed` with its `error`."
                    ),
                )
            },
            e404=[openapi.NOT_FOUND],
        ),
    )
    def get(self, request, job_id: str):
        job = queries.job_visible_to(api_key=request.auth, public_id=job_id)
        if job is None:
            raise jobs.JobNotFound()
        headers = {} if job.is_finished else {"Retry-After": "5"}
        return Response(serializers.job_output(job), headers=headers)


def idempotency_key_of(request) -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not (1 <= len(key) <= 255 and key.isascii() and key.isprintable()):
        raise idempotency.InvalidIdempotencyKey()
    return key


class ExportCourseView(ApiView):
    rate_limit_scope = "export"

    @extend_schema(
        operation_id="exportCourse",
        summary="Export a course as a SCORM or cmi5 package",
        description=(
            "Synchronous; with a `callbackUrl`, a `course.exported` event follows. Exports are free. "
            "`scorm12` (the default), `scorm2004` and `scorm2004_4` make SCORM packages; `cmi5` makes a "
            "cmi5 package (xAPI) for LMSs that speak cmi5."
        ),
        parameters=[
            openapi.id_in_path("course_id", prefix="cou_", description="The course `id`."),
            openapi.IDEMPOTENCY_KEY,
        ],
        request=serializers.ExportCourseInput,
        examples=[
            OpenApiExample("SCORM 1.2", value={"format": "scorm12"}, request_only=True),
            OpenApiExample("cmi5", value={"format": "cmi5"}, request_only=True),
            OpenApiExample(
                "SCORM 2004 with an event",
                value={"format": "scorm2004_4", "callbackUrl": "https://hooks.example.com/exports/7f3a9c2e"},
                request_only=True,
            ),
        ],
        responses=openapi.responses(
            {
                200: OpenApiResponse(
                    serializers.ExportOutput,
                    description="The export record; its `downloadUrl` serves the package from now on.",
                )
            },
            e400=[openapi.VALIDATION],
            e404=[openapi.NOT_FOUND],
            e409=[openapi.IDEMPOTENCY_REUSED],
            e413=[openapi.TOO_LARGE],
        ),
    )
    def post(self, request, course_id: str):
        data = serializers.ExportCourseInput(data=request.data)
        data.is_valid(raise_exception=True)
        export = exports.export_course(
            api_key=request.auth,
            course_public_id=course_id,
            idempotency_key=idempotency_key_of(request),
            **data.validated_data,
        )
        return Response(serializers.export_output(export))


# No cookie or form is involved, so no CSRF check: any method but GET and HEAD is a 405, as the API
# document says, rather than the CSRF failure page.
@csrf_exempt
@require_safe
def download_export(request, export_id: str):
    """The export's zip: public, the unguessable export id in the path is the key."""
    export = None
    if looks_like_public_id(export_id, "exp_"):
        export = Export.objects.select_related("course").filter(public_id=export_id).first()
    if export is None:
        raise Http404("No such export.")
    try:
        package = export.file.open("rb")
    except FileNotFoundError:
        logger.error("export file missing", extra={"export_id": export.public_id})
        raise Http404("No such export.") from None
    response = FileResponse(package, content_type="application/zip")
    response["Content-Disposition"] = attachment_disposition(name=export.course.name, suffix=export.format)
    # The content behind an export id never changes; the id is a secret, so no shared caches.
    response["Cache-Control"] = "private, max-age=86400, immutable"
    response["X-Robots-Tag"] = "noindex"
    return response


_UNSAFE_IN_FILENAME = re.compile(r'[\x00-\x1f\x7f-\x9f"\\/:*?<>|]+')


def attachment_disposition(*, name: str, suffix: str) -> str:
    """
    `attachment` for `<name>-<suffix>.zip`: an ASCII-safe `filename` (slugified) for old clients,
    and the real name as RFC 6266 / RFC 5987 `filename*` (UTF-8, percent-encoded) without the
    characters file systems refuse, and without invisible formatting characters: a right-to-left
    override would let `Invoice<RLO>piz.exe` show as `Invoiceexe.zip`.
    """
    ascii_stem = slugify(name)[:100].strip("-") or "course"
    visible = "".join(char for char in name if unicodedata.category(char) != "Cf")
    readable = " ".join(_UNSAFE_IN_FILENAME.sub(" ", visible).split())[:150].strip(" .") or ascii_stem
    encoded = urllib.parse.quote(f"{readable}-{suffix}.zip", safe="")
    return f'attachment; filename="{ascii_stem}-{suffix}.zip"; ' + f"filename*=UTF-8''{encoded}"
