"""
What the API document says of the courses' endpoints (drf-spectacular): each view names its operation here
(`@schemas.create_course`), so that the views read as code; and the events of jobs, and what the document says beyond the views.
"""

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema

from api import openapi
from core.languages import Language
from courses import content as course_content
from courses import serializers
from courses.content import CourseContent
from courses.models import GenerationJob

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


create_course = extend_schema(
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


list_courses = extend_schema(
    operation_id="listCourses",
    summary="List the key's courses",
    description=(
        "Newest first, `limit` at a time; follow `nextCursor` for the next page. Each is the course object "
        "of a completed job, with its latest `version` and when that was made (`updatedAt`); read one whole "
        "with `readCourse`."
    ),
    parameters=[
        OpenApiParameter(
            "languageId", {"type": "string", "enum": [code for code, _name in Language.choices]},
            OpenApiParameter.QUERY, description="Only courses in this language.",
        ),
        OpenApiParameter(
            "createdAfter", {"type": "string", "format": "date-time"}, OpenApiParameter.QUERY,
            description="Only courses created after this moment (RFC 3339, such as `2026-03-01T12:00:00Z`).",
        ),
        *openapi.page_parameters("Courses"),
    ],
    responses=openapi.responses(
        {200: OpenApiResponse(serializers.CourseList, description="A page of courses, newest first.")},
        e400=[openapi.VALIDATION],
    ),
)


list_jobs = extend_schema(
    operation_id="listJobs",
    summary="List the key's jobs",
    description=(
        "Newest first, `limit` at a time; follow `nextCursor` for the next page. Each is the job as "
        "`pollJob` shows it: the creates and the regenerations of the key, whatever their status."
    ),
    parameters=[
        OpenApiParameter(
            "status", {"type": "string", "enum": [status for status, _name in GenerationJob.Status.choices]},
            OpenApiParameter.QUERY, description="Only jobs in this status.",
        ),
        *openapi.page_parameters("Jobs"),
    ],
    responses=openapi.responses(
        {200: OpenApiResponse(serializers.JobList, description="A page of jobs, newest first.")},
        e400=[openapi.VALIDATION],
    ),
)


poll_job = extend_schema(
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


read_course = extend_schema(
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


update_course = extend_schema(
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
        "application/json": serializers.UpdateCourseInput,
        "application/merge-patch+json": serializers.UpdateCourseInput,
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
                serializers.CourseSettingsOutput, description="The course's settings, as they are now."
            )
        },
        e400=[openapi.VALIDATION],
        e404=[openapi.NOT_FOUND],
        e413=[openapi.TOO_LARGE],
    ),
)


delete_course = extend_schema(
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


list_course_versions = extend_schema(
    operation_id="listCourseVersions",
    summary="List a course's versions, newest first",
    description=(
        "Every version the course keeps, without their documents: its number, when it was made, whether it "
        "was generated, edited or regenerated, and what changed from the version before."
    ),
    parameters=[openapi.id_in_path("course_id", prefix="cou_", description="The course `id`.")],
    responses=openapi.responses(
        {200: OpenApiResponse(serializers.VersionListOutput, description="Every version the course keeps.")},
        e404=[openapi.NOT_FOUND],
    ),
)


read_course_version = extend_schema(
    operation_id="readCourseVersion",
    summary="Read one version of a course, with its whole document",
    description="The version's document as it was made; a source deleted since is marked `deleted: true`.",
    parameters=[
        openapi.id_in_path("course_id", prefix="cou_", description="The course `id`."),
        OpenApiParameter("number", {"type": "integer", "minimum": 1}, OpenApiParameter.PATH, description="The version."),
    ],
    responses=openapi.responses(
        {200: OpenApiResponse(serializers.VersionDetailOutput, description="The version with its document.")},
        e404=[("NOT_FOUND", "Unknown course or version, or the course belongs to a different key.")],
    ),
)


replace_course_content = extend_schema(
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


patch_course_content = extend_schema(
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


regenerate_course_part = extend_schema(
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


get_course_quality = extend_schema(
    operation_id="getCourseQuality",
    summary="Quality report of a course",
    description=(
        "How the course's content (its latest version, or the one asked for) fares against the item-writing rules (per question and for "
        "the quiz), its learning objectives with their Bloom levels and the questions that test them, "
        "the objectives no question tests, the readability of every lesson in its language, a summary "
        "score and the rules version. Deterministic: the same content gets the same report. The rule "
        "list is in the manual (How it works, Quality)."
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


# Events ---------------------------------------------------------------------------------------

COURSE_CREATED = openapi.webhook(
    "course.created",
    "notifyCourseCreated",
    serializers.CourseCreatedEvent,
    "A job reached `completed`. Deduplicate on `jobId`." + openapi.DELIVERY,
)
COURSE_FAILED = openapi.webhook(
    "course.failed",
    "notifyCourseFailed",
    serializers.CourseFailedEvent,
    "A job reached `failed`. Deduplicate on `jobId`." + openapi.DELIVERY,
)
COURSE_UPDATED = openapi.webhook(
    "course.updated",
    "notifyCourseUpdated",
    serializers.CourseUpdatedEvent,
    "A regeneration job reached `completed`: the course has a new version. Deduplicate on `jobId`." + openapi.DELIVERY,
)
COURSE_DELETED = openapi.webhook(
    "course.deleted",
    "notifyCourseDeleted",
    serializers.CourseDeletedEvent,
    "The course was deleted (by its key, or by staff): its page and download links answer `410 Gone`. "
    "Sent to the `callbackUrl` of the create. Deduplicate on `courseId`." + openapi.DELIVERY,
)


# What the document says beyond the views --------------------------------------------------------

_LOCATION = {"Location": {"schema": {"type": "string"}, "description": "The poll URL, as in `pollUrl`."}}
_ETAG = {"ETag": {"schema": {"type": "string"}, "description": 'The course\'s version, quoted (`"3"`).'}}
_ANSWER_HEADERS = {
    ("/api/v1/courses", "post", "202"): _LOCATION,
    ("/api/v1/courses/jobs/{job_id}", "get", "200"): {
        "Retry-After": {
            "schema": {"type": "integer"},
            "description": "`5` while the job is pending or running: poll at most once every 5 seconds.",
        },
    },
    ("/api/v1/courses/{course_id}/regenerate", "post", "202"): _LOCATION,
    ("/api/v1/courses/{course_id}", "get", "200"): _ETAG,
    ("/api/v1/courses/{course_id}", "get", "304"): _ETAG,
    ("/api/v1/courses/{course_id}/content", "put", "200"): _ETAG,
    ("/api/v1/courses/{course_id}/content", "patch", "200"): _ETAG,
}

# The links a client follows: the create answer's jobId polls the job; a completed job's course id
# exports it, reads it and gets its quality report; a course read leads to what can be done with it.
_LINKS = {
    ("/api/v1/courses", "post", "202"): {
        "PollJob": {
            "operationId": "pollJob",
            "parameters": {"job_id": "$response.body#/jobId"},
            "description": "Poll the job that was just accepted.",
        }
    },
    ("/api/v1/courses/jobs/{job_id}", "get", "200"): {
        "ExportCourse": {
            "operationId": "exportCourse",
            "parameters": {"course_id": "$response.body#/course/id"},
            "description": "Export the course of a completed job.",
        },
        "ReadCourse": {
            "operationId": "readCourse",
            "parameters": {"course_id": "$response.body#/course/id"},
            "description": "Read the course of a completed job, with its document.",
        },
        "GetCourseQuality": {
            "operationId": "getCourseQuality",
            "parameters": {"course_id": "$response.body#/course/id"},
            "description": "The quality report of the course of a completed job.",
        },
    },
    ("/api/v1/courses/{course_id}", "get", "200"): {
        "ListCourseResults": {
            "operationId": "listCourseResults",
            "parameters": {"course_id": "$response.body#/id"},
            "description": "The course's learner results.",
        },
        "AddLearner": {
            "operationId": "addLearner",
            "parameters": {"course_id": "$response.body#/id"},
            "description": "A learner of the course, with a personal link.",
        },
        "UpdateCourse": {
            "operationId": "updateCourse",
            "parameters": {"course_id": "$response.body#/id"},
            "description": "Where the course's learner events go.",
        },
        "ReplaceCourseContent": {
            "operationId": "replaceCourseContent",
            "parameters": {"course_id": "$response.body#/id", "header.If-Match": "$response.header.ETag"},
            "requestBody": "$response.body#/content",
            "description": "Replace the course's document, from the version just read.",
        },
        "PatchCourseContent": {
            "operationId": "patchCourseContent",
            "parameters": {"course_id": "$response.body#/id", "header.If-Match": "$response.header.ETag"},
            "description": "Change part of the course's document, from the version just read.",
        },
        "ListCourseVersions": {
            "operationId": "listCourseVersions",
            "parameters": {"course_id": "$response.body#/id"},
            "description": "The course's versions.",
        },
        "RegenerateCoursePart": {
            "operationId": "regenerateCoursePart",
            "parameters": {"course_id": "$response.body#/id"},
            "description": "Generate a part of the course again.",
        },
    },
    ("/api/v1/courses/{course_id}/versions", "get", "200"): {
        "ReadCourseVersion": {
            "operationId": "readCourseVersion",
            "parameters": {"course_id": "$response.body#/courseId", "number": "$response.body#/versions/0/version"},
            "description": "The newest version's document.",
        },
    },
    ("/api/v1/courses/{course_id}/regenerate", "post", "202"): {
        "PollRegeneration": {
            "operationId": "pollJob",
            "parameters": {"job_id": "$response.body#/jobId"},
            "description": "Poll the regeneration that was just accepted.",
        },
    },
}

# What a request must hold beyond what each field says alone, in JSON Schema 2020-12 terms.
_CONDITIONS = {
    # A chapter is named exactly when the target is a chapter.
    "RegenerateInputRequest": {
        "if": {"properties": {"target": {"const": "chapter"}}, "required": ["target"]},
        "then": {"required": ["chapter"]},
        "else": {"not": {"required": ["chapter"]}},
    },
}


def postprocess(result, generator, request, public):
    """drf-spectacular hook: the courses' answer headers and links, the course document's schema."""
    openapi.add_to_answers(result, headers=_ANSWER_HEADERS, links=_LINKS)
    openapi.require(result, _CONDITIONS)
    _add_content_schema(result)
    # A webhook's schemas get no enum components of their own: the failure code of course.failed is
    # the same enum as the poll answer's.
    failed_error = result.get("components", {}).get("schemas", {}).get("FailedJobError")
    if failed_error:
        code = failed_error["properties"]["code"]
        failed_error["properties"]["code"] = {
            "allOf": [{"$ref": "#/components/schemas/JobErrorCodeEnum"}],
            "description": code["description"].split("\n\n")[0],
        }
    return result


def _add_content_schema(result: dict) -> None:
    # The course document's schema is pydantic's (courses/content.py, the one place for its rules),
    # its parts named CourseContent<Part> among the components.
    schema = CourseContent.model_json_schema(ref_template="#/components/schemas/CourseContent{model}")
    components = result.setdefault("components", {}).setdefault("schemas", {})
    for name, part in schema.pop("$defs", {}).items():
        components[f"CourseContent{name}"] = part
    # The schema version is a value clients switch on: an enum of its own, named like the API's others.
    version = schema["properties"]["schemaVersion"]
    components["CourseSchemaVersionEnum"] = {
        "type": "integer",
        "enum": version.get("enum") or [version["const"]],  # pydantic writes a single value as const
        "description": "The course document's schema version: `3`, every key in camelCase (versions 1 and 2, "
        "in snake_case, are shown as 3).",
    }
    schema["properties"]["schemaVersion"] = {
        "allOf": [{"$ref": "#/components/schemas/CourseSchemaVersionEnum"}],
        "default": version["default"],
        "description": version["description"],
    }
    components["CourseContent"] = schema
