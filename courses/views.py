import json
import logging
import re
import unicodedata
import urllib.parse

from django.http import FileResponse, Http404, HttpResponse
from django.utils.http import parse_etags
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.response import Response

from accounts.models import ApiKey
from config import ids, openapi, redis_client
from config.api import ApiView
from config.ids import looks_like_public_id
from config.parsers import MergePatchParser, StrictJSONParser
from courses import content as course_content
from courses import deletion, exports, idempotency, jobs, pages, quality, queries, serializers, versions
from courses.api import CourseReadView
from learners import serializers as learner_serializers
from learners import services as learner_services

logger = logging.getLogger(__name__)


class CreateJobView(ApiView):
    rate_limit_scope = "create"

    @extend_schema(
        operation_id="createCourse",
        summary="Submit a course for generation",
        description=(
            "Returns at once with the job to poll. One course credit is charged when accepted. With `sources` "
            "(ids of your `ready` sources), the course is built from those documents: its chapters follow their "
            "headings, or the `outline`, and every lesson, exercise, article, wrap-up and quiz question cites "
            "them (`citations` in the course document)."
        ),
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
            OpenApiExample(
                "From your sources",
                value={
                    "subject": "Information security for new staff",
                    "sources": ["src_8fJ2kLm9QwErTy3UiOp4Zx", "src_3bNq7VxT0mW2yKcR5sLd9A"],
                    "addOns": ["assessment"],
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
            e400=[
                (
                    "VALIDATION_ERROR",
                    "The body failed validation, or a source in `sources` is unknown, another key's, still being "
                    "read or failed; the message names the field or the source. No credit is charged.",
                ),
            ],
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
        body = serializers.job_accepted(job)
        return Response(body, status=202, headers={"Location": body["pollUrl"]})


class PollJobView(ApiView):
    rate_limit_scope = "poll"

    def find_key(self, *, key_hash: str) -> ApiKey | None:
        # The key and the job in one query: a poll is one round trip to the database.
        api_key, self.job = queries.key_with_job(key_hash=key_hash, job_public_id=self.kwargs["job_id"])
        return api_key

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
        if self.job is None:
            raise jobs.JobNotFound()
        headers = {} if self.job.is_finished else {"Retry-After": "5"}
        return Response(serializers.job_output(self.job), headers=headers)


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


class CourseView(CourseReadView):
    """
    GET: the course with its latest version's document (the ETag is the version). PATCH: the
    course's settings, which are not part of its document: they make no version and leave the
    ETag as it is. The document itself is edited at …/content. DELETE: the course, for good.
    """

    rate_limit_scope = "read"
    rate_limit_scopes = {"PATCH": "edit", "DELETE": "edit"}
    parser_classes = [StrictJSONParser, MergePatchParser]

    @extend_schema(
        operation_id="readCourse",
        summary="Read a course: its latest version's whole document",
        description=(
            "The course object with `version` and `content`, the whole course document (introduction, "
            "chapters with lessons, exercises, articles and videos, wrap-up, assessment with its correct "
            'answers, agreement). The `ETag` is the version (`"3"`): send it as `If-None-Match` to get '
            "`304` while nothing changed (a course with a deleted source is always sent whole), and as "
            "`If-Match` to edit. A course built from sources lists them in `content.sources` (one deleted "
            "since with `deleted: true`; its text and citations stay), and each lesson, exercise, article, "
            "wrap-up and question has its `citations`: a passage and a verbatim quote."
        ),
        parameters=[openapi.id_in_path("course_id", prefix="cou_", description="The course `id`."), openapi.IF_NONE_MATCH],
        responses=openapi.responses(
            {
                200: OpenApiResponse(serializers.CourseDetailOutput, description="The course at its latest version."),
                304: OpenApiResponse(
                    description="Not modified: the version in If-None-Match is the latest, and none of the course's sources was deleted."
                ),
            },
            e404=[openapi.NOT_FOUND],
        ),
    )
    def get(self, request, course_id: str):
        course = self.course()
        etag = version_etag(course.version)
        # A source deleted since marks the document (`deleted: true`) without a new version, and the
        # ETag is the version: so a course with a deleted source is sent whole, never a 304, and no
        # client keeps a copy without the mark.
        if not course.deleted_source_ids and names_etag(request.headers.get("If-None-Match", ""), etag):
            return Response(status=304, headers={"ETag": etag})
        body = redis_client.stored(_stored_json_key(course))
        if body is None:
            course = self.course_with_document()
            etag = version_etag(course.version)
            body = json.dumps(serializers.course_detail_output(course), ensure_ascii=False).encode()
            redis_client.store(_stored_json_key(course), body, course=course.public_id)
        return HttpResponse(body, content_type="application/json", headers={"ETag": etag})

    @extend_schema(
        operation_id="updateCourse",
        summary="Change a course's settings: where its learners' events go",
        description=(
            "Settings of the course beside its document: `learnerCallbackUrl`, where the events of its learners "
            "go (`learner.started`, `learner.failed`, `learner.passed`, `learner.completed`, `learner.signed`), "
            "or null to stop them. Fields left out stay as they are; any other field is refused (the document "
            "is edited at `…/content`, with versions). No version is made and the ETag stays."
        ),
        parameters=[openapi.id_in_path("course_id", prefix="cou_", description="The course `id`.")],
        request={
            "application/json": learner_serializers.UpdateCourseInput,
            "application/merge-patch+json": learner_serializers.UpdateCourseInput,
        },
        examples=[
            OpenApiExample(
                "Send learner events", value={"learnerCallbackUrl": "https://hooks.example.com/learners/7f3a9c2e"},
                request_only=True,
            ),
            OpenApiExample("Stop them", value={"learnerCallbackUrl": None}, request_only=True),
        ],
        responses=openapi.responses(
            {
                200: OpenApiResponse(
                    learner_serializers.CourseSettingsOutput, description="The course's settings, as they are now."
                )
            },
            e400=[openapi.VALIDATION],
            e404=[openapi.NOT_FOUND],
            e413=[openapi.TOO_LARGE],
        ),
    )
    def patch(self, request, course_id: str):
        data = learner_serializers.UpdateCourseInput(data=request.data)
        data.is_valid(raise_exception=True)
        changes = data.validated_data
        if "learner_callback_url" in changes:
            changes["learner_callback_url"] = changes["learner_callback_url"] or ""
        course = learner_services.update_course(api_key=request.auth, course_public_id=course_id, **changes)
        return Response(learner_serializers.course_settings_output(course))

    @extend_schema(
        operation_id="deleteCourse",
        summary="Delete a course",
        description=(
            "For good, at once: the course, its versions, its exports and their files, its sign-offs and "
            "learner records. Its page (`shareUrl`) and its exports' `downloadUrl`s answer `410 Gone` from "
            "then on; the job that made it keeps its status, with `course: null`. With the create's "
            "`callbackUrl`, a `course.deleted` event follows. The credit it cost is not given back."
        ),
        parameters=[openapi.id_in_path("course_id", prefix="cou_", description="The course `id`.")],
        responses=openapi.responses(
            {204: OpenApiResponse(description="Deleted.")},
            e404=[openapi.NOT_FOUND],
            e409=[("COURSE_BUSY", "A part of the course is being generated again; delete once that job has ended.")],
        ),
    )
    def delete(self, request, course_id: str):
        deletion.delete_course_of(api_key=request.auth, course_public_id=course_id)
        return Response(status=204)


class ListVersionsView(CourseReadView):
    rate_limit_scope = "read"

    @extend_schema(
        operation_id="listCourseVersions",
        summary="List a course's versions, newest first",
        parameters=[openapi.id_in_path("course_id", prefix="cou_", description="The course `id`.")],
        responses=openapi.responses(
            {200: OpenApiResponse(serializers.VersionListOutput, description="Every version the course keeps.")},
            e404=[openapi.NOT_FOUND],
        ),
    )
    def get(self, request, course_id: str):
        course = self.course()
        return Response(serializers.version_list_output(course, versions.versions_of(course)))


class ReadVersionView(CourseReadView):
    rate_limit_scope = "read"

    @extend_schema(
        operation_id="readCourseVersion",
        summary="Read one version of a course, with its whole document",
        parameters=[
            openapi.id_in_path("course_id", prefix="cou_", description="The course `id`."),
            OpenApiParameter("number", {"type": "integer", "minimum": 1}, OpenApiParameter.PATH, description="The version."),
        ],
        responses=openapi.responses(
            {200: OpenApiResponse(serializers.VersionDetailOutput, description="The version with its document.")},
            e404=[("NOT_FOUND", "Unknown course or version, or the course belongs to a different key.")],
        ),
    )
    def get(self, request, course_id: str, number: int):
        version = versions.version_of(self.course(), number=number)
        return Response(serializers.version_detail_output(version))


_EDIT_ERRORS = {
    "e400": [("VALIDATION_ERROR", "The resulting document breaks a rule of the course schema; the message names the first bad field by its JSON path (`content/chapters/1/title: …`). A key in the snake_case of schema versions 1 and 2 is refused with its spelling now (`content/assessment/questions/0/correct_index: the document spells this key correctIndex`).")],
    "e404": [openapi.NOT_FOUND],
    "e409": [
        ("COURSE_BUSY", "A part of the course is being generated again; edit once that job has ended."),
        ("VERSION_LIMIT_REACHED", "The course has as many versions as it may keep."),
    ],
    "e412": [("VERSION_CONFLICT", "If-Match does not name the current version: read the course again.")],
    "e413": [openapi.TOO_LARGE],
    "e428": [("PRECONDITION_REQUIRED", "If-Match is missing.")],
}


_EDITED = OpenApiResponse(serializers.CourseDetailOutput, description="The course at its new version.")


class EditContentView(ApiView):
    rate_limit_scope = "edit"
    parser_classes = [StrictJSONParser, MergePatchParser]

    @extend_schema(
        operation_id="replaceCourseContent",
        summary="Replace a course's document: a new version",
        description=(
            "The whole document, checked by the same schema and rules as generated content. The course's "
            "language and format stay as they are, and the document takes at most "
            f"{course_content.DOCUMENT_MAX_BYTES:,} bytes as compact JSON with every character beyond ASCII "
            "escaped, so that any course read fits the 1 MiB body when sent back. Edits are free. Answers "
            "the course as `GET` does, at its new version."
        ),
        parameters=[openapi.id_in_path("course_id", prefix="cou_", description="The course `id`."), openapi.IF_MATCH],
        request={"application/json": serializers.CONTENT_SCHEMA},
        responses=openapi.responses({200: _EDITED}, **_EDIT_ERRORS),
    )
    def put(self, request, course_id: str):
        course = versions.replace_content(
            api_key=request.auth, course_public_id=course_id, if_match=request.headers.get("If-Match"),
            document=request.data,
        )
        return Response(serializers.course_detail_output(course), headers={"ETag": version_etag(course.version)})

    @extend_schema(
        operation_id="patchCourseContent",
        summary="Change part of a course's document: a new version",
        description=(
            "A JSON Merge Patch (RFC 7386) of the document: objects merge key by key, `null` removes a key, "
            "anything else (arrays included) replaces. The result is checked like a whole document."
        ),
        parameters=[openapi.id_in_path("course_id", prefix="cou_", description="The course `id`."), openapi.IF_MATCH],
        request={"application/merge-patch+json": {"type": "object"}},
        examples=[OpenApiExample("Fix the title", value={"name": "SQL for analysts"}, request_only=True)],
        responses=openapi.responses({200: _EDITED}, **_EDIT_ERRORS),
    )
    def patch(self, request, course_id: str):
        course = versions.patch_content(
            api_key=request.auth, course_public_id=course_id, if_match=request.headers.get("If-Match"),
            patch=request.data,
        )
        return Response(serializers.course_detail_output(course), headers={"ETag": version_etag(course.version)})


class RegenerateView(ApiView):
    rate_limit_scope = "create"

    @extend_schema(
        operation_id="regenerateCoursePart",
        summary="Generate one part of a course again",
        description=(
            "A chapter, the introduction, the wrap-up, the assessment or the agreement, written again to fit "
            "the rest of the course, which does not change. Answers like a create: poll the job; with a "
            "`callbackUrl`, `course.updated` follows its completion (or `course.failed`). One course credit, "
            "given back if the job fails; counts against the create rate limit. The course cannot be edited "
            "until the job ends."
        ),
        parameters=[openapi.id_in_path("course_id", prefix="cou_", description="The course `id`."), openapi.IDEMPOTENCY_KEY],
        request=serializers.RegenerateInput,
        examples=[
            OpenApiExample(
                "Chapter 2, with wishes",
                value={"target": "chapter", "chapter": 2, "instructions": "More examples from retail."},
                request_only=True,
            ),
            OpenApiExample("The assessment", value={"target": "assessment"}, request_only=True),
        ],
        responses=openapi.responses(
            {202: OpenApiResponse(serializers.JobAccepted, description="Accepted; `Location` is the poll URL.")},
            e400=[openapi.VALIDATION],
            e403=[("USAGE_LIMIT_EXCEEDED_PLAN", "Monthly course credits of the plan used up; names the plan.")],
            e404=[openapi.NOT_FOUND],
            e409=[
                ("COURSE_BUSY", "A part of the course is being generated again already."),
                ("VERSION_LIMIT_REACHED", "The course has as many versions as it may keep."),
                openapi.IDEMPOTENCY_REUSED,
            ],
            e413=[openapi.TOO_LARGE],
        ),
    )
    def post(self, request, course_id: str):
        data = serializers.RegenerateInput(data=request.data)
        data.is_valid(raise_exception=True)
        job = jobs.create_regeneration_job(
            api_key=request.auth,
            course_public_id=course_id,
            idempotency_key=idempotency_key_of(request),
            **data.validated_data,
        )
        body = serializers.job_accepted(job)
        return Response(body, status=202, headers={"Location": body["pollUrl"]})


class RevokeExportView(ApiView):
    rate_limit_scope = "edit"

    @extend_schema(
        operation_id="revokeExport",
        summary="Revoke an export's download link",
        description=(
            "Deletes the export and its file: its `downloadUrl` answers `410 Gone` from then on. The course "
            "and its other exports stay as they are; export again for a new link."
        ),
        parameters=[
            openapi.id_in_path("course_id", prefix="cou_", description="The course `id`."),
            openapi.id_in_path(
                "export_id", prefix="exp_", description="The export's id: the last part of its `downloadUrl`."
            ),
        ],
        responses=openapi.responses(
            {204: OpenApiResponse(description="Revoked.")},
            e404=[("NOT_FOUND", "Unknown course or export, or the course belongs to a different key.")],
        ),
    )
    def delete(self, request, course_id: str, export_id: str):
        deletion.revoke_export(api_key=request.auth, course_public_id=course_id, export_public_id=export_id)
        return Response(status=204)


def version_etag(version: int) -> str:
    return f'"{version}"'


def _stored_json_key(course) -> str:
    # A version never changes (only the sources deleted since, which are only ever added to): its
    # JSON is rendered once and stored.
    return f"coursejson:{course.public_id}:{course.version}:{len(course.deleted_source_ids)}"


def names_etag(if_none_match: str, etag: str) -> bool:
    """Whether an If-None-Match header matches `etag`: `*`, or the tag by weak comparison (RFC 9110)."""
    tags = parse_etags(if_none_match)
    return tags == ["*"] or etag in {tag.removeprefix("W/") for tag in tags}


class CourseQualityView(CourseReadView):
    rate_limit_scope = "read"

    @extend_schema(
        operation_id="getCourseQuality",
        summary="Quality report of a course",
        description=(
            "How the course's content (its latest version, or the one asked for) fares against the item-writing rules (per question and for "
            "the quiz), its learning objectives with their Bloom levels and the questions that test them, "
            "the objectives no question tests, the readability of every lesson in its language, a summary "
            "score and the rules version. Deterministic: the same content gets the same report. The rule "
            "list is in the README (Quality)."
        ),
        parameters=[
            openapi.id_in_path("course_id", prefix="cou_", description="The course `id`."),
            OpenApiParameter(
                "version", {"type": "integer", "minimum": 1, "maximum": 1_000_000}, OpenApiParameter.QUERY,
                description="The version to report on; the latest when left out.",
            ),
        ],
        responses=openapi.responses(
            {200: OpenApiResponse(serializers.CourseQualityOutput, description="The version's quality report.")},
            e400=[openapi.VALIDATION],
            e404=[("NOT_FOUND", "Unknown course or version, or the course belongs to a different key.")],
        ),
    )
    def get(self, request, course_id: str):
        version = serializers.QualityInput(data=request.query_params)
        version.is_valid(raise_exception=True)
        number = version.validated_data.get("version")
        if number is None:
            course = self.course_with_document()
            document = course.content
        else:
            course = self.course()
            document = versions.version_of(course, number=number).content
        return Response(serializers.quality_output(course, quality.report_for_document(document)))


# No cookie or form is involved, so no CSRF check: any method but GET and HEAD is a 405, as the API
# document says, rather than the CSRF failure page.
@csrf_exempt
@require_safe
def download_export(request, export_id: str):
    """The export's zip: public, the unguessable export id in the path is the key."""
    export = None
    if looks_like_public_id(export_id, "exp_"):
        export = queries.export_to_download(public_id=export_id)
    if export is None:
        removed = deletion.is_removed(export_id) if looks_like_public_id(export_id, "exp_") else None
        if removed is not None:
            return pages.gone_page(
                request,
                language_id=removed.language_id,
                title=_("This download is no longer available"),
                text=_("Whoever shared the link has revoked it. If you still need the course, ask them for a new link."),
            )
        raise Http404("No such export.")
    try:
        package = export.file.open("rb")
    except FileNotFoundError:
        logger.error("export file missing", extra={"export_id": ids.masked(export.public_id)})
        raise Http404("No such export.") from None
    response = FileResponse(package, content_type="application/zip")
    name = export.packaged_name or export.course.name
    response["Content-Disposition"] = attachment_disposition(name=name, suffix=export.format)
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
