"""
What the API document says of the learners' endpoints (drf-spectacular): each view names its operation here
(`@schemas.add_learner`), so that the views read as code; and their events.
"""

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema

from api import openapi
from learners import queries, serializers

_COURSE = openapi.id_in_path("course_id", prefix="cou_", description="The course `id`.")
_LEARNER = openapi.id_in_path("learner_id", prefix="lrn_", description="The `learnerId`.")

add_learner = extend_schema(
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


erase_learner = extend_schema(
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


list_course_results = extend_schema(
    operation_id="listCourseResults",
    summary="Learner results of a course: who started, finished, passed and signed",
    description=(
        "One row per learner, anonymous ones and those of personal links, newest first, `limit` at a time; "
        "follow `nextCursor` (or the `Link` header). With `Accept: text/csv` the same rows come as CSV "
        "(a header line, then one line per learner, every cell quoted; a `'` goes before a formula a spreadsheet "
        "could run, at a cell's start or after a `,`, `;` or tab in it)."
    ),
    parameters=[
        _COURSE,
        OpenApiParameter(
            "completed", {"type": "boolean"}, OpenApiParameter.QUERY,
            description=(
                "Only learners who completed the course (`true`: every chapter seen, the assessment passed and the "
                "agreement signed, each where the course has one), or who have not (`false`)."
            ),
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


_LEARNER_DELIVERY = (
    " Sent to the course's `learnerCallbackUrl` (given on create, or set with `PATCH /api/v1/courses/{course_id}`)"
    " for what happens while it is set, one event per fact, signed and retried like every event."
)
LEARNER_STARTED = openapi.webhook(
    "learner.started",
    "notifyLearnerStarted",
    serializers.LearnerStartedEvent,
    "A learner viewed the course for the first time. Deduplicate on `learnerId` and `event`." + _LEARNER_DELIVERY,
)
LEARNER_FAILED = openapi.webhook(
    "learner.failed",
    "notifyLearnerFailed",
    serializers.LearnerAttemptEvent,
    "A quiz attempt below the pass mark, by a learner who has not passed yet. Deduplicate on `learnerId` and "
    "`attempt`." + _LEARNER_DELIVERY,
)
LEARNER_PASSED = openapi.webhook(
    "learner.passed",
    "notifyLearnerPassed",
    serializers.LearnerAttemptEvent,
    "A learner's first quiz attempt at or above the pass mark (later attempts send nothing). Deduplicate on "
    "`learnerId` and `event`." + _LEARNER_DELIVERY,
)
LEARNER_COMPLETED = openapi.webhook(
    "learner.completed",
    "notifyLearnerCompleted",
    serializers.LearnerCompletedEvent,
    "A learner completed the course: every chapter seen, the assessment passed and the agreement signed, each "
    "where the course has one. Deduplicate on `learnerId` and `event`." + _LEARNER_DELIVERY,
)
LEARNER_SIGNED = openapi.webhook(
    "learner.signed",
    "notifyLearnerSigned",
    serializers.LearnerSignedEvent,
    "A learner signed the course's agreement (their first sign-off). Deduplicate on `learnerId` and `event`."
    + _LEARNER_DELIVERY,
)


_RESULTS = ("/api/v1/courses/{course_id}/results", "get", "200")
_ANSWER_HEADERS = {
    _RESULTS: {
        "Link": {
            "schema": {"type": "string"},
            "description": 'The next page, when there is one: `<https://…/results?…&cursor=…>; rel="next"`.',
        },
        "Content-Disposition": {
            "schema": {"type": "string"},
            "description": 'With `Accept: text/csv`: `attachment; filename="cou_…-results.csv"`.',
        },
    },
}
_LINKS = {
    ("/api/v1/courses/{course_id}/learners", "post", "201"): {
        "EraseLearner": {
            "operationId": "eraseLearner",
            "parameters": {"course_id": "$request.path.course_id", "learner_id": "$response.body#/learnerId"},
            "description": "Erase the learner that was just added.",
        },
    },
}


def postprocess(result, generator, request, public):
    """drf-spectacular hook: the results' headers, and their CSV."""
    openapi.add_to_answers(result, headers=_ANSWER_HEADERS, links=_LINKS)
    _describe_csv(result)
    return result


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
