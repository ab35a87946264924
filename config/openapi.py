"""
The OpenAPI 3.1 document, generated from the code by drf-spectacular.

Views describe their own bodies and answers (`extend_schema`); this module holds what every
operation shares — the error body, the bearer scheme, the `RateLimit-*` and `X-Request-ID`
headers — the webhook events, and the links that let a client (or a fuzzer) go create → poll →
export.
"""

from drf_spectacular.extensions import OpenApiAuthenticationExtension, OpenApiSerializerFieldExtension
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, OpenApiWebhook, extend_schema
from rest_framework import serializers

from courses.content import CourseContent
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


# Codes every authenticated operation can answer with, beyond its own.
COMMON_ERRORS = {
    401: ("INVALID_API_KEY", "Missing Authorization header, malformed Bearer prefix, or unknown or revoked key."),
    403: ("PAID_PLAN_REQUIRED", "The key is valid but the account is not on a paid plan."),
    429: ("RATE_LIMIT_EXCEEDED", "Rate limit of the endpoint exceeded; wait `Retry-After` seconds."),
    500: ("INTERNAL_ERROR", "Internal error; safe to retry later."),
    503: ("SERVICE_UNAVAILABLE", "The database is briefly unreachable (a restart); retry after `Retry-After` seconds."),
}


class ErrorBody(serializers.Serializer):
    message = serializers.CharField(help_text="Human-readable description; safe to display to end users.")
    code = serializers.CharField(help_text="Machine-readable code; switch on this.")


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
IDEMPOTENCY_REUSED = ("IDEMPOTENCY_KEY_REUSED", "The Idempotency-Key was used with a different request.")

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
        "Optional, 1–255 printable ASCII characters. The same key with the same body within 24 hours "
        "returns the first answer again; with a different body it is 409 `IDEMPOTENCY_KEY_REUSED`."
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
_RETRY_AFTER = {"schema": {"type": "integer"}, "description": "Seconds to wait before the next attempt."}
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


def _webhook(name: str, payload: type[serializers.Serializer], description: str) -> OpenApiWebhook:
    return OpenApiWebhook(
        name=name,
        decorator=extend_schema(
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
    message = serializers.CharField()
    code = serializers.CharField(required=False, help_text="Present for known failure modes.")


class CourseFailedEvent(serializers.Serializer):
    event = serializers.ChoiceField(choices=["course.failed"])
    jobId = serializers.CharField()
    error = FailedJobError()


class CourseUpdatedEvent(serializers.Serializer):
    event = serializers.ChoiceField(choices=["course.updated"])
    jobId = serializers.CharField(help_text="The regeneration job.")
    course = CourseOutput()
    version = serializers.IntegerField(min_value=1, help_text="The course's new version.")


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
    "course.created", CourseCreatedEvent, "A job reached `completed`. Deduplicate on `jobId`." + _DELIVERY
)
COURSE_FAILED = _webhook(
    "course.failed", CourseFailedEvent, "A job reached `failed`. Deduplicate on `jobId`." + _DELIVERY
)
COURSE_UPDATED = _webhook(
    "course.updated",
    CourseUpdatedEvent,
    "A regeneration job reached `completed`: the course has a new version. Deduplicate on `jobId`." + _DELIVERY,
)
COURSE_EXPORTED = _webhook(
    "course.exported",
    CourseExportedEvent,
    "An export finished and a `callbackUrl` was given. Deduplicate on `courseId` + `exportedAt`." + _DELIVERY,
)

SOURCE_READY = _webhook(
    "source.ready",
    SourceEvent,
    "A source was read: `source.status` is `ready`. Deduplicate on `source.id` and `event`." + _DELIVERY,
)
SOURCE_FAILED = _webhook(
    "source.failed",
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
    learner_serializers.LearnerStartedEvent,
    "A learner viewed the course for the first time. Deduplicate on `learnerId` and `event`." + _LEARNER_DELIVERY,
)
LEARNER_FAILED = _webhook(
    "learner.failed",
    learner_serializers.LearnerAttemptEvent,
    "A quiz attempt below the pass mark, by a learner who has not passed yet. Deduplicate on `learnerId` and "
    "`attempt`." + _LEARNER_DELIVERY,
)
LEARNER_PASSED = _webhook(
    "learner.passed",
    learner_serializers.LearnerAttemptEvent,
    "A learner's first quiz attempt at or above the pass mark (later attempts send nothing). Deduplicate on "
    "`learnerId` and `event`." + _LEARNER_DELIVERY,
)
LEARNER_COMPLETED = _webhook(
    "learner.completed",
    learner_serializers.LearnerCompletedEvent,
    "A learner reached the course's last page, with the agreement signed where it has one. Deduplicate on "
    "`learnerId` and `event`." + _LEARNER_DELIVERY,
)
LEARNER_SIGNED = _webhook(
    "learner.signed",
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


def postprocess(result, generator, request, public):
    """drf-spectacular hook: add what every operation shares, webhook headers and links."""
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            operation.setdefault("parameters", []).append(
                {
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
            )
            for status, answer in operation.get("responses", {}).items():
                headers = answer.setdefault("headers", {})
                for name, (kind, text) in _RESPONSE_HEADERS.items():
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
            operation["parameters"] = [
                {"name": name, "in": "header", "required": True, "schema": {"type": "string"}, "description": text}
                for name, text in _WEBHOOK_HEADERS
            ]
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
    components["CourseContent"] = schema


def error_codes_in(document: dict, path: str, method: str) -> set[str]:
    """Every error `code` an operation's answers list (for tests that hold the document to the contract)."""
    codes = set()
    for answer in document["paths"][path][method]["responses"].values():
        for line in answer.get("description", "").splitlines():
            if line.startswith("- `"):
                codes.add(line.split("`")[1])
    return codes

