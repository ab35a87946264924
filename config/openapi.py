"""
The OpenAPI 3.1 document, generated from the code by drf-spectacular.

Views describe their own bodies and answers (`extend_schema`); this module holds what every
operation shares — the error body and its codes, the bearer scheme, the `RateLimit-*` and
`X-Request-ID` headers — the webhook events, the download link, and the links that let a client
(or a fuzzer) go create → poll → export.

Client generators turn schema names into class names and operation ids into function names, and
clients already use them: keep both, and name new ones after the same pattern (`<Noun>Output`,
`<Verb><Noun>InputRequest`, `<Noun>Enum`; operation ids `verbNoun`).
"""

import copy

from drf_spectacular.extensions import OpenApiAuthenticationExtension, OpenApiSerializerFieldExtension
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, OpenApiWebhook, extend_schema
from rest_framework import serializers

from courses.content import CourseContent
from courses.generation import errors as generation_errors
from courses.serializers import TEXT_PATTERN, CourseOutput, ExportOutput
from learners import serializers as learner_serializers
from sources.extraction import sniff
from sources.serializers import SourceOutput


class ApiKeyScheme(OpenApiAuthenticationExtension):
    target_class = "accounts.authentication.ApiKeyAuthentication"
    name = "bearerAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "`Authorization: Bearer <API key>`; keys look like `cgs_` + 40 characters.",
        }


class StrictTextField(OpenApiSerializerFieldExtension):
    """Text fields state the characters they accept, as the server checks them."""

    target_class = "courses.serializers.StrictCharField"

    def map_serializer_field(self, auto_schema, direction):
        schema = auto_schema._map_serializer_field(self.target, direction, bypass_extensions=True)
        return {**schema, "pattern": TEXT_PATTERN}


class StrictList(OpenApiSerializerFieldExtension):
    """A list that defaults to an empty one says so (a callable default is not stated otherwise)."""

    target_class = "courses.serializers.StrictListField"

    def map_serializer_field(self, auto_schema, direction):
        schema = auto_schema._map_serializer_field(self.target, direction, bypass_extensions=True)
        return {**schema, "default": []} if self.target.default is list else schema


# Every `code` an error body can carry, with its status and when it happens: the `ErrorCodeEnum` of
# the document (a test holds it to the codes the server can produce). A new code is a new value
# here: clients generated before it do not know it, so it comes with a new minor version.
ERROR_CODES = [
    (
        "VALIDATION_ERROR",
        "400: the body, a parameter or a header failed validation; the message names the field.",
    ),
    (
        "UNSUPPORTED_MEDIA_TYPE",
        "400, on adding a source: the file is not a PDF, DOCX, PPTX, HTML, Markdown or text document.",
    ),
    (
        "INVALID_API_KEY",
        "401: missing Authorization header, malformed Bearer prefix, or unknown or revoked key.",
    ),
    ("PAID_PLAN_REQUIRED", "403: the key is valid but the account is not on a paid plan."),
    (
        "USAGE_LIMIT_EXCEEDED_PLAN",
        "403, on create: the plan's monthly course credits are used up; the message names the plan.",
    ),
    (
        "STORAGE_LIMIT_EXCEEDED",
        "403, on adding a source: the plan's storage for sources is full; the message names the plan.",
    ),
    ("FORBIDDEN", "403: refused for a reason other than the plan; no operation of this version answers it."),
    (
        "NOT_FOUND",
        "404: unknown id, or one that belongs to a different key; also a path that does not exist.",
    ),
    (
        "METHOD_NOT_ALLOWED",
        "405: the path exists, but not with this method (answered before the key: no RateLimit headers).",
    ),
    ("NOT_ACCEPTABLE", "406: the `Accept` header rules out `application/json`."),
    (
        "IDEMPOTENCY_KEY_REUSED",
        "409: the `Idempotency-Key` was used in the last 24 hours with a different request.",
    ),
    ("COURSE_BUSY", "409: a part of the course is being generated again; try once that job has ended."),
    ("VERSION_LIMIT_REACHED", "409: the course has as many versions as it may keep."),
    ("VERSION_CONFLICT", "412: `If-Match` does not name the course's current version; read it again."),
    ("PAYLOAD_TOO_LARGE", "413: the body is larger than 1 MiB (an uploaded source: than the upload limit)."),
    ("PRECONDITION_REQUIRED", "428: an edit without `If-Match`."),
    ("RATE_LIMIT_EXCEEDED", "429: the endpoint's rate limit is reached; wait `Retry-After` seconds."),
    ("INTERNAL_ERROR", "500: an unexpected error on our side; safe to retry later."),
    (
        "SERVICE_UNAVAILABLE",
        "503: the database is briefly unreachable (a restart); retry after `Retry-After` seconds.",
    ),
]
_MEANING = dict(ERROR_CODES)


def _common(code: str) -> tuple[str, str]:
    return code, _MEANING[code].split(": ", 1)[1]


# Codes every authenticated operation can answer with, beyond its own.
COMMON_ERRORS = {
    401: _common("INVALID_API_KEY"),
    403: _common("PAID_PLAN_REQUIRED"),
    406: _common("NOT_ACCEPTABLE"),
    429: _common("RATE_LIMIT_EXCEEDED"),
    500: _common("INTERNAL_ERROR"),
    503: _common("SERVICE_UNAVAILABLE"),
}


class ErrorBody(serializers.Serializer):
    """Every error answer of the API: switch on `code`, show `message`."""

    message = serializers.CharField(help_text="Human-readable description; safe to display to end users.")
    code = serializers.ChoiceField(choices=ERROR_CODES, help_text="Machine-readable code; switch on this.")


def error_response(*codes_and_meanings: tuple[str, str]) -> OpenApiResponse:
    """An error answer, listing the codes it can carry."""
    lines = "\n".join(f"- `{code}`: {meaning}" for code, meaning in codes_and_meanings)
    return OpenApiResponse(ErrorBody, description=lines)


def responses(success: dict, **errors_by_status: list[tuple[str, str]]) -> dict:
    """`success` plus the common errors plus the operation's own (`e400=[(code, meaning)]`)."""
    answers = dict(success)
    own = {int(status[1:]): list(pairs) for status, pairs in errors_by_status.items()}
    for status, pair in COMMON_ERRORS.items():
        own.setdefault(status, []).insert(0, pair)
    for status, pairs in sorted(own.items()):
        answers[status] = error_response(*pairs)
    return answers


VALIDATION = ("VALIDATION_ERROR", "The body failed validation; the message names the field.")
NOT_FOUND = ("NOT_FOUND", "Unknown id, or it belongs to a different key.")
TOO_LARGE = ("PAYLOAD_TOO_LARGE", "The body is larger than 1 MiB.")
IDEMPOTENCY_REUSED = (
    "IDEMPOTENCY_KEY_REUSED",
    "The Idempotency-Key was used in the last 24 hours with another request (endpoint, course or body).",
)

def id_in_path(name: str, *, prefix: str, description: str) -> OpenApiParameter:
    """A path parameter holding one of our ids (`job_…`, `cou_…`): 22 base62 characters after the prefix."""
    schema = {"type": "string", "pattern": f"^{prefix}[A-Za-z0-9]{{22}}$"}
    return OpenApiParameter(name, schema, OpenApiParameter.PATH, description=description)


# What the server accepts, exactly: 1 to 255 printable ASCII characters (spaces included, as long as the
# value does not start with one: HTTP drops leading and trailing spaces of a header value).
IDEMPOTENCY_KEY_SCHEMA = {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[!-~][ -~]*$"}
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    IDEMPOTENCY_KEY_SCHEMA,
    OpenApiParameter.HEADER,
    description=(
        "Optional: send the same value again when you resend a request (a timeout, a lost answer), and "
        "the work is done once. 1-255 printable ASCII characters; a random UUID per request is ideal.\n\n"
        "- **Scope**: one API key. Keys of other API keys never meet; one value names one request, on "
        "whichever endpoint it was first sent.\n"
        "- **Kept** for 24 hours from the first request; after that the value is new again.\n"
        "- **Replay**: the same value with the same request (endpoint, course and body) returns the "
        "first answer again, with the same status and body: a create is `202` with the same `jobId` and "
        "`status` `pending` whatever the job has become since, and charges no credit; an export is `200` "
        "with the same export record, and sends no second `course.exported` event. Only `RateLimit-*` "
        "and `X-Request-ID` are those of the new request, which counts against the rate limit.\n"
        "- **Another request** with a value used in the last 24 hours (another endpoint, course or body) "
        "is `409 IDEMPOTENCY_KEY_REUSED`.\n"
        "- **Errors are not kept**: a request answered with an error did nothing, so sending it again "
        "with the same value runs it again.\n"
        "- Two requests with the same value at the same time are run one after the other, so the second "
        "is a replay of the first."
    ),
)

IF_MATCH = OpenApiParameter(
    "If-Match",
    {"type": "string"},
    OpenApiParameter.HEADER,
    required=True,
    description='The version the edit starts from, as the course\'s `ETag` gives it (`"3"`).',
)
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    {"type": "string"},
    OpenApiParameter.HEADER,
    description='The `ETag` of the version you have (`"3"`): `304` while it is still the latest.',
)

# Headers on every answer of the API, described once and added to every response by the hook below.
_RESPONSE_HEADERS = {
    "RateLimit-Limit": ("integer", "Requests allowed in the current 60-second sliding window."),
    "RateLimit-Remaining": ("integer", "Requests left in the window."),
    "RateLimit-Reset": ("integer", "Seconds until the oldest request in the window ages out (0: empty)."),
    "X-Request-ID": ("string", "The request's id: the client's `X-Request-ID` when well-formed, else a new one."),
}
_REQUEST_ID_HEADER = {"X-Request-ID": _RESPONSE_HEADERS["X-Request-ID"]}
_RETRY_AFTER = {"schema": {"type": "integer"}, "description": "Seconds to wait before the next attempt."}
# A 503 may come before the key could be looked up (the database is what is missing), and then
# without the RateLimit headers.
_RATE_LIMIT_HEADERS_ON_503 = " Absent when the database was unreachable before the API key could be checked."
# Headers of particular answers: the poll URL of an accepted job; the polling pace of an unfinished one.
_ANSWER_HEADERS = {
    ("/api/v1/courses", "post", "202"): {
        "Location": {"schema": {"type": "string"}, "description": "The poll URL, as in `pollUrl`."},
    },
    ("/api/v1/courses/jobs/{job_id}", "get", "200"): {
        "Retry-After": {
            "schema": {"type": "integer"},
            "description": "`5` while the job is pending or running: poll at most once every 5 seconds.",
        },
    },
    ("/api/v1/courses/{course_id}/regenerate", "post", "202"): {
        "Location": {"schema": {"type": "string"}, "description": "The poll URL, as in `pollUrl`."},
    },
    ("/api/v1/sources", "post", "202"): {
        "Location": {"schema": {"type": "string"}, "description": "The source's path, to poll."},
    },
    ("/api/v1/sources/{source_id}", "get", "200"): {
        "Retry-After": {
            "schema": {"type": "integer"},
            "description": "`5` while the source is pending: poll at most once every 5 seconds.",
        },
    },
}
_RESULTS = ("/api/v1/courses/{course_id}/results", "get", "200")
_ANSWER_HEADERS[_RESULTS] = {
    "Link": {
        "schema": {"type": "string"},
        "description": 'The next page, when there is one: `<https://…/results?…&cursor=…>; rel="next"`.',
    },
    "Content-Disposition": {
        "schema": {"type": "string"},
        "description": 'With `Accept: text/csv`: `attachment; filename="cou_…-results.csv"`.',
    },
}
_ETAG = {"ETag": {"schema": {"type": "string"}, "description": 'The course\'s version, quoted (`"3"`).'}}
for _answer in [
    ("/api/v1/courses/{course_id}", "get", "200"),
    ("/api/v1/courses/{course_id}", "get", "304"),
    ("/api/v1/courses/{course_id}/content", "put", "200"),
    ("/api/v1/courses/{course_id}/content", "patch", "200"),
]:
    _ANSWER_HEADERS[_answer] = _ETAG
# What the `file` part of an upload may be: the kinds of document read (told from the content).
UPLOAD_CONTENT_TYPES = ", ".join(sniff.MEDIA_TYPES)


def _webhook(
    name: str, operation_id: str, payload: type[serializers.Serializer], description: str
) -> OpenApiWebhook:
    return OpenApiWebhook(
        name=name,
        decorator=extend_schema(
            operation_id=operation_id,
            summary=name,
            description=description,
            request=payload,
            responses={
                200: OpenApiResponse(
                    description="Any 2xx means received; anything else counts as a failed delivery."
                )
            },
        ),
    )


class CourseCreatedEvent(serializers.Serializer):
    event = serializers.ChoiceField(choices=["course.created"])
    jobId = serializers.CharField()
    course = CourseOutput()


class FailedJobError(serializers.Serializer):
    message = serializers.CharField(help_text="Safe to show to end users.")
    code = serializers.ChoiceField(
        choices=generation_errors.FAILURE_CODES,
        required=False,
        help_text="Present for known failure modes (today, every failure has one).",
    )


class CourseFailedEvent(serializers.Serializer):
    event = serializers.ChoiceField(choices=["course.failed"])
    jobId = serializers.CharField()
    error = FailedJobError()


class CourseUpdatedEvent(serializers.Serializer):
    event = serializers.ChoiceField(choices=["course.updated"])
    jobId = serializers.CharField(help_text="The regeneration job.")
    course = CourseOutput()
    version = serializers.IntegerField(min_value=1, help_text="The course's new version.")


class CourseDeletedEvent(serializers.Serializer):
    event = serializers.ChoiceField(choices=["course.deleted"])
    courseId = serializers.CharField()
    jobId = serializers.CharField(help_text="The job that made the course.")
    deletedAt = serializers.DateTimeField(help_text="ISO 8601, UTC, milliseconds.")


class CourseExportedEvent(ExportOutput):
    event = serializers.ChoiceField(choices=["course.exported"])


class SourceEvent(serializers.Serializer):
    event = serializers.ChoiceField(choices=["source.ready", "source.failed"])
    source = SourceOutput()


_DELIVERY = (
    " Sent by HTTP POST to the `callbackUrl` of the request, with Standard Webhooks headers `webhook-id` "
    "(the same on every retry of the event), `webhook-timestamp` and `webhook-signature` (HMAC-SHA256 "
    "with the account's `whsec_` secret). Failed deliveries are retried with backoff, so deduplicate."
)
COURSE_CREATED = _webhook(
    "course.created",
    "notifyCourseCreated",
    CourseCreatedEvent,
    "A job reached `completed`. Deduplicate on `jobId`." + _DELIVERY,
)
COURSE_FAILED = _webhook(
    "course.failed",
    "notifyCourseFailed",
    CourseFailedEvent,
    "A job reached `failed`. Deduplicate on `jobId`." + _DELIVERY,
)
COURSE_UPDATED = _webhook(
    "course.updated",
    "notifyCourseUpdated",
    CourseUpdatedEvent,
    "A regeneration job reached `completed`: the course has a new version. Deduplicate on `jobId`." + _DELIVERY,
)
COURSE_DELETED = _webhook(
    "course.deleted",
    "notifyCourseDeleted",
    CourseDeletedEvent,
    "The course was deleted (by its key, or by staff): its page and download links answer `410 Gone`. "
    "Sent to the `callbackUrl` of the create. Deduplicate on `courseId`." + _DELIVERY,
)
COURSE_EXPORTED = _webhook(
    "course.exported",
    "notifyCourseExported",
    CourseExportedEvent,
    "An export finished and a `callbackUrl` was given. Deduplicate on `courseId` + `exportedAt`." + _DELIVERY,
)

SOURCE_READY = _webhook(
    "source.ready",
    "notifySourceReady",
    SourceEvent,
    "A source was read: `source.status` is `ready`. Deduplicate on `source.id` and `event`." + _DELIVERY,
)
SOURCE_FAILED = _webhook(
    "source.failed",
    "notifySourceFailed",
    SourceEvent,
    "A source could not be read: `source.status` is `failed`, with `source.error`. Deduplicate on "
    "`source.id` and `event`." + _DELIVERY,
)


_LEARNER_DELIVERY = (
    " Sent to the course's `learnerCallbackUrl` (given on create, or set with `PATCH /api/v1/courses/{course_id}`)"
    " for what happens while it is set, one event per fact, signed and retried like every event."
)
LEARNER_STARTED = _webhook(
    "learner.started",
    "notifyLearnerStarted",
    learner_serializers.LearnerStartedEvent,
    "A learner viewed the course for the first time. Deduplicate on `learnerId` and `event`." + _LEARNER_DELIVERY,
)
LEARNER_FAILED = _webhook(
    "learner.failed",
    "notifyLearnerFailed",
    learner_serializers.LearnerAttemptEvent,
    "A quiz attempt below the pass mark, by a learner who has not passed yet. Deduplicate on `learnerId` and "
    "`attempt`." + _LEARNER_DELIVERY,
)
LEARNER_PASSED = _webhook(
    "learner.passed",
    "notifyLearnerPassed",
    learner_serializers.LearnerAttemptEvent,
    "A learner's first quiz attempt at or above the pass mark (later attempts send nothing). Deduplicate on "
    "`learnerId` and `event`." + _LEARNER_DELIVERY,
)
LEARNER_COMPLETED = _webhook(
    "learner.completed",
    "notifyLearnerCompleted",
    learner_serializers.LearnerCompletedEvent,
    "A learner reached the course's last page, with the agreement signed where it has one. Deduplicate on "
    "`learnerId` and `event`." + _LEARNER_DELIVERY,
)
LEARNER_SIGNED = _webhook(
    "learner.signed",
    "notifyLearnerSigned",
    learner_serializers.LearnerSignedEvent,
    "A learner signed the course's agreement (their first sign-off). Deduplicate on `learnerId` and `event`."
    + _LEARNER_DELIVERY,
)


_WEBHOOK_HEADERS = [
    ("webhook-id", "Unique id of the event, the same on every delivery attempt."),
    ("webhook-timestamp", "Unix time of this attempt, in seconds."),
    ("webhook-signature", "`v1,<base64 HMAC-SHA256>` of `{webhook-id}.{webhook-timestamp}.{body}`."),
]

# The links a client follows: the create answer's jobId polls the job; a completed job's course id
# exports it, and gets its quality report.
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
    ("/api/v1/courses/{course_id}/learners", "post", "201"): {
        "EraseLearner": {
            "operationId": "eraseLearner",
            "parameters": {"course_id": "$request.path.course_id", "learner_id": "$response.body#/learnerId"},
            "description": "Erase the learner that was just added.",
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
    ("/api/v1/sources", "post", "202"): {
        "CreateCourseFromSource": {
            "operationId": "createCourse",
            "requestBody": {"subject": "A course from this document", "sources": ["$response.body#/id"]},
            "description": "Build a course from the source just accepted, once it is `ready`.",
        },
        "GetSource": {
            "operationId": "getSource",
            "parameters": {"source_id": "$response.body#/id"},
            "description": "Poll the source that was just accepted.",
        },
        "DeleteSource": {
            "operationId": "deleteSource",
            "parameters": {"source_id": "$response.body#/id"},
            "description": "Delete the source that was just accepted.",
        },
    },
}


# The link of an export (`downloadUrl`): a plain Django view outside the API, so described here. It
# needs no key and answers no JSON: a zip, the site's 404 page, or a page saying it was revoked (410).
DOWNLOAD_PATH = "/downloads/{export_id}"
_DOWNLOAD = {
    "get": {
        "operationId": "downloadExport",
        "summary": "Download an exported package",
        "description": (
            "The `downloadUrl` of an export record: GET it as it is. No API key is needed, and none is "
            "looked at: the unguessable export id is the secret, so share the link only with whom may "
            "have the course. Until it is revoked (`revokeExport`) or its course deleted, the link always "
            "serves the same zip (a SCORM package, or a cmi5 package for `cmi5`), so a client may keep "
            "it. Not rate-limited. `HEAD` answers the same headers without the body."
        ),
        "tags": ["downloads"],
        "security": [],
        "parameters": [
            {
                "name": "export_id",
                "in": "path",
                "required": True,
                "schema": {"type": "string", "pattern": "^exp_[A-Za-z0-9]{22}$"},
                "description": "The export's id: the last segment of its `downloadUrl`.",
            }
        ],
        "responses": {
            "200": {
                "description": "The package, a zip archive.",
                "headers": {
                    "Content-Disposition": {
                        "schema": {"type": "string"},
                        "description": (
                            "`attachment` with the file name `<course name>-<format>.zip`: ASCII in "
                            "`filename`, the real name in `filename*` (RFC 6266)."
                        ),
                    },
                    "Cache-Control": {
                        "schema": {"type": "string"},
                        "description": "`private, max-age=86400, immutable`: the content never changes.",
                    },
                },
                "content": {"application/zip": {"schema": {"type": "string", "format": "binary"}}},
            },
            "404": {
                "description": "No export has this id: the site's HTML 404 page.",
                "content": {"text/html": {"schema": {"type": "string"}}},
            },
            "410": {
                "description": (
                    "The export was revoked or its course deleted: an HTML page saying so, in the course's "
                    "language."
                ),
                "content": {"text/html": {"schema": {"type": "string"}}},
            },
        },
    }
}

_TAGS = [
    {
        "name": "courses",
        "description": (
            "Create a course, poll its job, read, edit and regenerate it, see its quality, export it, delete "
            "it; add its learners, read their results, erase them, and say where their events go."
        ),
    },
    {"name": "sources", "description": "The client's own documents that courses are built from."},
    {"name": "downloads", "description": "The links of exported packages; no API key."},
    {
        "name": "webhooks",
        "description": "Events the service POSTs to a request's `callbackUrl`, or to a course's `learnerCallbackUrl`.",
    },
]

_X_REQUEST_ID = {
    "name": "X-Request-ID",
    "in": "header",
    "required": False,
    # Any value is accepted: a malformed one is ignored, not refused.
    "schema": {"type": "string"},
    "description": (
        "Optional request id, echoed in the answer and in our logs when it is 1-128 of "
        "`A-Z a-z 0-9 . _ : -`; any other value is ignored and the service makes its own."
    ),
}


def postprocess(result, generator, request, public):
    """
    drf-spectacular hook: add what every operation shares, the download link, webhook headers and
    links, and declare the tags.
    """
    paths = result.setdefault("paths", {})
    paths[DOWNLOAD_PATH] = copy.deepcopy(_DOWNLOAD)  # the loop below adds to it
    for path, operations in paths.items():
        for method, operation in operations.items():
            operation.setdefault("parameters", []).append(dict(_X_REQUEST_ID))
            for status, answer in operation.get("responses", {}).items():
                headers = answer.setdefault("headers", {})
                # The RateLimit headers are the API's; the download link has none.
                shared = _RESPONSE_HEADERS if path.startswith("/api/") else _REQUEST_ID_HEADER
                for name, (kind, text) in shared.items():
                    if status == "503" and name.startswith("RateLimit"):
                        text += _RATE_LIMIT_HEADERS_ON_503
                    headers[name] = {"schema": {"type": kind}, "description": text}
                if status in ("429", "503"):
                    headers["Retry-After"] = _RETRY_AFTER
                headers.update(_ANSWER_HEADERS.get((path, method, status), {}))
                links = _LINKS.get((path, method, status))
                if links:
                    answer["links"] = links
    _add_content_schema(result)
    _describe_csv(result)
    for name, condition in _CONDITIONS.items():
        result["components"]["schemas"][name].update(condition)
    upload = result.get("paths", {}).get("/api/v1/sources", {}).get("post", {}).get("requestBody", {})
    multipart = upload.get("content", {}).get("multipart/form-data")
    if multipart is not None:
        multipart["encoding"] = {"file": {"contentType": UPLOAD_CONTENT_TYPES}}
    for hook in result.get("webhooks", {}).values():
        for operation in hook.values():
            operation["tags"] = ["webhooks"]
            # The service sends these requests: a receiver checks the signature headers, not a key.
            operation["security"] = []
            operation["parameters"] = [
                {"name": name, "in": "header", "required": True, "schema": {"type": "string"}, "description": text}
                for name, text in _WEBHOOK_HEADERS
            ]
    # A webhook's schemas get no enum components of their own: the failure code of course.failed is
    # the same enum as the poll answer's.
    failed_error = result.get("components", {}).get("schemas", {}).get("FailedJobError")
    if failed_error:
        code = failed_error["properties"]["code"]
        failed_error["properties"]["code"] = {
            "allOf": [{"$ref": "#/components/schemas/JobErrorCodeEnum"}],
            "description": code["description"].split("\n\n")[0],
        }
    result["tags"] = _TAGS
    return result


# What a request must hold beyond what each field says alone, in JSON Schema 2020-12 terms.
_CONDITIONS = {
    # A course's settings are these and no other fields (its document is edited at …/content).
    "PatchedUpdateCourseInputRequest": {"additionalProperties": False},
    # A chapter is named exactly when the target is a chapter.
    "RegenerateInputRequest": {
        "if": {"properties": {"target": {"const": "chapter"}}, "required": ["target"]},
        "then": {"required": ["chapter"]},
        "else": {"not": {"required": ["chapter"]}},
    },
}


def _describe_csv(result: dict) -> None:
    # The results come as CSV on request (the same rows); errors are JSON whatever was asked for.
    operation = result.get("paths", {}).get(_RESULTS[0], {}).get("get")
    if operation is None:
        return
    for status, answer in operation["responses"].items():
        content = answer.get("content", {})
        if status == "200":
            content["text/csv"] = {
                "schema": {"type": "string", "description": "A header line, then one line per learner (RFC 4180)."}
            }
        else:
            content.pop("text/csv", None)


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


def error_codes_in(document: dict, path: str, method: str) -> set[str]:
    """Every error `code` an operation's answers list (for tests that hold the document to the contract)."""
    codes = set()
    for answer in document["paths"][path][method]["responses"].values():
        for line in answer.get("description", "").splitlines():
            if line.startswith("- `"):
                codes.add(line.split("`")[1])
    return codes

