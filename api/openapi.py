"""
The OpenAPI 3.1 document, generated from the code by drf-spectacular.

Each app describes its own operations, events and links in its `schemas.py`; this module holds what
every operation shares: the error body and its codes, the bearer scheme, the `RateLimit-*` and
`X-Request-ID` headers, how an event is described, and the tags.

Client generators turn schema names into class names and operation ids into function names, and
clients already use them: keep both, and name new ones after the same pattern (`<Noun>Output`,
`<Verb><Noun>InputRequest`, `<Noun>Enum`; operation ids `verbNoun`).
"""

from drf_spectacular.extensions import OpenApiAuthenticationExtension, OpenApiSerializerFieldExtension
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    OpenApiWebhook,
    extend_schema,
)
from rest_framework import serializers

from api import pagination
from api.fields import TEXT_PATTERN


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

    target_class = "api.fields.StrictCharField"

    def map_serializer_field(self, auto_schema, direction):
        schema = auto_schema._map_serializer_field(self.target, direction, bypass_extensions=True)
        return {**schema, "pattern": TEXT_PATTERN}


class StrictList(OpenApiSerializerFieldExtension):
    """A list that defaults to an empty one says so (a callable default is not stated otherwise)."""

    target_class = "api.fields.StrictListField"

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
    (
        "SOURCE_IN_USE",
        "409, on deleting a source: a pending or running job builds from it (the message names the job); "
        "delete once that job has ended.",
    ),
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

# A message of each code as the server words it, for the examples of the error answers: without
# them the interactive docs made up one example per answer from the enum's first value.
_EXAMPLE_MESSAGES = {
    "VALIDATION_ERROR": "subject: This field is required.",
    "UNSUPPORTED_MEDIA_TYPE": "The file is not a PDF, DOCX, PPTX, HTML, Markdown or plain text document.",
    "INVALID_API_KEY": "Missing or invalid API key.",
    "PAID_PLAN_REQUIRED": "This API requires a paid plan.",
    "USAGE_LIMIT_EXCEEDED_PLAN": (
        "Monthly course credits used up for your plan (Starter). Wait for the next billing period or upgrade "
        "your plan."
    ),
    "STORAGE_LIMIT_EXCEEDED": (
        "Storage limit for sources exceeded for your plan (Starter, 100 MB): delete sources you no longer "
        "need, or upgrade."
    ),
    "FORBIDDEN": "You do not have permission to perform this action.",
    "NOT_FOUND": "Not found.",
    "METHOD_NOT_ALLOWED": 'Method "GET" not allowed.',
    "NOT_ACCEPTABLE": "Could not satisfy the request Accept header.",
    "IDEMPOTENCY_KEY_REUSED": "This Idempotency-Key was already used with a different request body.",
    "COURSE_BUSY": "A part of this course is being generated again; try again once that job has finished.",
    "SOURCE_IN_USE": "Job job_4fJq8ZtR2mXcV7bN1pLwKd builds from this source: delete the source once that job has ended.",
    "VERSION_LIMIT_REACHED": "This course has reached its limit of 100 versions.",
    "VERSION_CONFLICT": (
        'The course is at version 3: read it again, apply your change to that version, and send If-Match: "3".'
    ),
    "PAYLOAD_TOO_LARGE": "The request body is larger than 1 MiB.",
    "PRECONDITION_REQUIRED": (
        "Send If-Match with the course's current version (its ETag), so an edit never overwrites another."
    ),
    "RATE_LIMIT_EXCEEDED": "Too many requests: at most 30 per 60 seconds on this endpoint. Retry in 12 seconds.",
    "INTERNAL_ERROR": "Internal server error.",
    "SERVICE_UNAVAILABLE": "The service is briefly unavailable. Please try again in a few seconds.",
}


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


class ErrorProblem(serializers.Serializer):
    """One problem of a request that was refused with 400."""

    field = serializers.CharField(
        allow_null=True,
        help_text="The field's path in the request (`addOns[1]`, `chapters[0].title`); null for the request as a whole.",
    )
    message = serializers.CharField(help_text="What is wrong with it; safe to display to end users.")
    allowed = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="The values the field takes, where it takes one of a list; for a field the request may not "
        "have, the fields it may.",
    )


class ErrorBody(serializers.Serializer):
    """Every error answer of the API: switch on `code`, show `message`."""

    message = serializers.CharField(help_text="Human-readable description; safe to display to end users.")
    code = serializers.ChoiceField(choices=ERROR_CODES, help_text="Machine-readable code; switch on this.")
    errors = ErrorProblem(
        many=True,
        required=False,
        help_text="On every 400: each problem found, in order (`message` says the first and how many more).",
    )


def _example(code: str) -> dict:
    """An error body with `code`; a 400's lists its problems too (as core.errors makes them)."""
    message = _EXAMPLE_MESSAGES[code]
    if _MEANING[code].startswith("400"):
        field, _, said = message.partition(": ") if code == "VALIDATION_ERROR" else (None, "", message)
        return {"message": message, "code": code, "errors": [{"field": field, "message": said}]}
    return {"message": message, "code": code}


def error_response(*codes_and_meanings: tuple[str, str]) -> OpenApiResponse:
    """An error answer, listing the codes it can carry, with an example of each."""
    lines = "\n".join(f"- `{code}`: {meaning}" for code, meaning in codes_and_meanings)
    examples = [OpenApiExample(code.lower(), summary=code, value=_example(code)) for code, _meaning in codes_and_meanings]
    return OpenApiResponse(ErrorBody, description=lines, examples=examples)


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

def page_parameters(rows: str) -> list[OpenApiParameter]:
    """`cursor` and `limit`, the query parameters of every list (api/pagination.py)."""
    return [
        OpenApiParameter(
            "cursor", {"type": "string", "pattern": pagination.PATTERN}, OpenApiParameter.QUERY,
            description="`nextCursor` of the previous page.",
        ),
        OpenApiParameter(
            "limit", {"type": "integer", "minimum": 1, "maximum": 100, "default": 20}, OpenApiParameter.QUERY,
            description=f"{rows} per page, 1 to 100.",
        ),
    ]


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
def webhook(
    name: str, operation_id: str, payload: type[serializers.Serializer], description: str
) -> OpenApiWebhook:
    """An event the service POSTs, for settings.SPECTACULAR_SETTINGS["WEBHOOKS"]."""
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


# How every event is delivered, for its description.
DELIVERY = (
    " Sent by HTTP POST to the `callbackUrl` of the request, with Standard Webhooks headers `webhook-id` "
    "(the same on every retry of the event), `webhook-timestamp` and `webhook-signature` (HMAC-SHA256 "
    "with the account's `whsec_` secret). Failed deliveries are retried with backoff, so deduplicate."
)

_WEBHOOK_HEADERS = [
    ("webhook-id", "Unique id of the event, the same on every delivery attempt."),
    ("webhook-timestamp", "Unix time of this attempt, in seconds."),
    ("webhook-signature", "`v1,<base64 HMAC-SHA256>` of `{webhook-id}.{webhook-timestamp}.{body}`."),
]

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
    drf-spectacular hook, after the apps' own (settings: POSTPROCESSING_HOOKS): add what every
    operation shares, close every request body to fields it does not know, add the webhook headers,
    and declare the tags.
    """
    schemas = result.get("components", {}).get("schemas", {})
    for path, operations in result.get("paths", {}).items():
        for operation in operations.values():
            operation.setdefault("parameters", []).append(dict(_X_REQUEST_ID))
            # A request body holds only the fields the operation knows (api/inputs.py refuses others).
            for body in operation.get("requestBody", {}).get("content", {}).values():
                name = body["schema"].get("$ref", "").rpartition("/")[2]
                if name in schemas:
                    schemas[name]["additionalProperties"] = False
            for status, answer in operation.get("responses", {}).items():
                headers = answer.setdefault("headers", {})
                # The RateLimit headers are the API's; a download link has none.
                shared = _RESPONSE_HEADERS if path.startswith("/api/") else _REQUEST_ID_HEADER
                for name, (kind, text) in shared.items():
                    if status == "503" and name.startswith("RateLimit"):
                        text += _RATE_LIMIT_HEADERS_ON_503
                    headers[name] = {"schema": {"type": kind}, "description": text}
                if status in ("429", "503"):
                    headers["Retry-After"] = _RETRY_AFTER
    for hook in result.get("webhooks", {}).values():
        for operation in hook.values():
            operation["tags"] = ["webhooks"]
            # The service sends these requests: a receiver checks the signature headers, not a key.
            operation["security"] = []
            operation["parameters"] = [
                {"name": name, "in": "header", "required": True, "schema": {"type": "string"}, "description": text}
                for name, text in _WEBHOOK_HEADERS
            ]
    result["tags"] = _TAGS
    return result


def add_to_answers(result: dict, *, headers: dict | None = None, links: dict | None = None) -> None:
    """
    Add headers and links to particular answers, each keyed by (path, method, status): for an app's
    own hook. Answers the document does not have are left out.
    """
    paths = result.get("paths", {})
    for (path, method, status), added in (headers or {}).items():
        answer = paths.get(path, {}).get(method, {}).get("responses", {}).get(status)
        if answer is not None:
            answer.setdefault("headers", {}).update(added)
    for (path, method, status), added in (links or {}).items():
        answer = paths.get(path, {}).get(method, {}).get("responses", {}).get(status)
        if answer is not None:
            answer.setdefault("links", {}).update(added)


def require(result: dict, conditions: dict) -> None:
    """Add to request schemas what a request must hold beyond what each field says alone (JSON Schema)."""
    for name, condition in conditions.items():
        result["components"]["schemas"][name].update(condition)


def error_codes_in(document: dict, path: str, method: str) -> set[str]:
    """Every error `code` an operation's answers list (for tests that hold the document to the contract)."""
    codes = set()
    for answer in document["paths"][path][method]["responses"].values():
        for line in answer.get("description", "").splitlines():
            if line.startswith("- `"):
                codes.add(line.split("`")[1])
    return codes

