import datetime

from rest_framework import serializers

from api import pagination
from api.fields import Rfc3339Field, StrictBooleanField, StrictCharField, UtcMillisecondsField
from api.inputs import Input
from core.formats import iso_utc_ms
from learners import queries
from learners.models import Learner

EXTERNAL_ID_MAX_LENGTH = 200
NAME_MAX_LENGTH = 200
RESULTS_PAGE_MAX = 1000


class AddLearnerInput(Input):
    externalId = StrictCharField(
        source="external_id", min_length=1, max_length=EXTERNAL_ID_MAX_LENGTH,
        help_text="Your id of the person (an employee number, an email): unique per course; a repeat gives "
        "the same learner.",
    )
    name = StrictCharField(
        min_length=1, max_length=NAME_MAX_LENGTH, required=False,
        help_text="The person's name, for your results; a repeat with another name renames the learner.",
    )


class LearnerOutput(serializers.Serializer):
    learnerId = serializers.CharField(source="public_id")
    externalId = serializers.CharField(source="external_id")
    name = serializers.CharField(allow_null=True)
    url = serializers.URLField(
        help_text="The share link with a signed token that identifies this learner on any device (no "
        "personal data in it): send it to them, and only to them."
    )


def learner_output(learner: Learner, *, url: str) -> dict:
    return {"learnerId": learner.public_id, "externalId": learner.external_id, "name": learner.name or None, "url": url}


class ErasedCounts(serializers.Serializer):
    learner = serializers.IntegerField(min_value=0, max_value=1)
    quizAttempts = serializers.IntegerField(min_value=0)
    signoffs = serializers.IntegerField(min_value=0)
    webhookEvents = serializers.IntegerField(min_value=0, help_text="Events about the learner, with their delivery log.")


class ErasedOutput(serializers.Serializer):
    learnerId = serializers.CharField()
    erasedRecords = serializers.IntegerField(min_value=1, help_text="Every record deleted, all kinds together.")
    erased = ErasedCounts()


def erased_output(learner_public_id: str, erased) -> dict:
    return {
        "learnerId": learner_public_id,
        "erasedRecords": erased.records,
        "erased": {
            "learner": erased.learners,
            "quizAttempts": erased.quiz_attempts,
            "signoffs": erased.signoffs,
            "webhookEvents": erased.webhook_events,
        },
    }


# Results -----------------------------------------------------------------------------------------


class ResultOutput(serializers.Serializer):
    """One learner's result: the row of `GET …/results`, and of its CSV in the same order."""

    learnerId = serializers.CharField()
    externalId = serializers.CharField(allow_null=True, help_text="Null for an anonymous learner.")
    name = serializers.CharField(allow_null=True)
    startedAt = UtcMillisecondsField(allow_null=True, help_text="The first page view; null until then.")
    lastSeenAt = UtcMillisecondsField(allow_null=True)
    progressPercent = serializers.IntegerField(min_value=0, max_value=100, help_text="Pages seen of the course's pages.")
    completedAt = UtcMillisecondsField(
        allow_null=True,
        help_text=(
            "When the learner completed the course: every chapter seen, the assessment passed and the agreement "
            "signed, each where the course has one (the agreement opens only once the rest is done). Null until then."
        ),
    )
    bestScore = serializers.IntegerField(
        min_value=0, max_value=100, allow_null=True, help_text="Percent; null before a first quiz attempt."
    )
    passed = serializers.BooleanField(
        allow_null=True, help_text="Passed in any attempt; false after attempts without a pass; null before any."
    )
    signedAt = UtcMillisecondsField(allow_null=True, help_text="The first sign-off of the agreement.")
    signedName = serializers.CharField(allow_null=True, help_text="The name typed at that sign-off.")
    version = serializers.IntegerField(min_value=1, allow_null=True, help_text="The course version the learner took.")
    pagesSeen = serializers.IntegerField(min_value=0)
    pages = serializers.IntegerField(min_value=0)
    timeSpentSeconds = serializers.IntegerField(min_value=0, help_text="While the page was in view and in use.")
    attempts = serializers.IntegerField(min_value=0, help_text="Quiz attempts.")


def _time(moment: datetime.datetime | None) -> str | None:
    return None if moment is None else iso_utc_ms(moment)


def result_output(learner: Learner) -> dict:
    """The result row of ResultOutput, built directly (a list of a thousand rows stays cheap)."""
    return {
        "learnerId": learner.public_id,
        "externalId": learner.external_id,
        "name": learner.name or None,
        "startedAt": _time(learner.started_at),
        "lastSeenAt": _time(learner.last_seen_at),
        "progressPercent": learner.progress_percent,
        "completedAt": _time(learner.completed_at),
        "bestScore": learner.best_score,
        "passed": learner.passed,
        "signedAt": _time(learner.signed_at),
        "signedName": learner.signed_name or None,
        "version": learner.version,
        "pagesSeen": learner.pages_seen_count,
        "pages": learner.pages,
        "timeSpentSeconds": learner.seconds_spent,
        "attempts": learner.attempt_count,
    }


class ResultsOutput(serializers.Serializer):
    courseId = serializers.CharField()
    results = ResultOutput(many=True, help_text="Newest learners first.")
    nextCursor = serializers.CharField(allow_null=True, help_text="Pass as `cursor` for the next page; null on the last page.")
    nextSince = UtcMillisecondsField(
        help_text=(
            "Pass as `since` to read next only what changed after this read: every change made while its "
            "pages were read is in that next read (some rows may come twice). The same on every page of one "
            "read."
        )
    )


class ResultsInput(Input):
    completed = StrictBooleanField(required=False)
    passed = StrictBooleanField(required=False)
    since = Rfc3339Field(required=False)
    cursor = pagination.CursorField(pattern=queries.CURSOR_PATTERN, required=False)
    limit = serializers.IntegerField(min_value=1, max_value=RESULTS_PAGE_MAX, default=100)


# The learner events (learners.events), for the API document --------------------------------------


class LearnerEvent(serializers.Serializer):
    courseId = serializers.CharField()
    learnerId = serializers.CharField()
    externalId = serializers.CharField(allow_null=True, help_text="Your id of the learner; null for an anonymous one.")


class LearnerStartedEvent(LearnerEvent):
    event = serializers.ChoiceField(choices=["learner.started"])
    startedAt = UtcMillisecondsField()
    version = serializers.IntegerField(min_value=1)


class LearnerAttemptEvent(LearnerEvent):
    event = serializers.ChoiceField(choices=["learner.failed", "learner.passed"])
    attempt = serializers.IntegerField(min_value=1, help_text="The quiz attempt's number, from 1.")
    score = serializers.IntegerField(min_value=0, max_value=100, help_text="This attempt's score, in percent.")
    passed = serializers.BooleanField()
    bestScore = serializers.IntegerField(min_value=0, max_value=100, help_text="The best score so far.")
    attemptedAt = UtcMillisecondsField()
    version = serializers.IntegerField(min_value=1, help_text="The course version the quiz was taken in.")


class LearnerCompletedEvent(LearnerEvent):
    event = serializers.ChoiceField(choices=["learner.completed"])
    completedAt = UtcMillisecondsField()
    progressPercent = serializers.IntegerField(min_value=0, max_value=100)
    version = serializers.IntegerField(min_value=1)


class LearnerSignedEvent(LearnerEvent):
    event = serializers.ChoiceField(choices=["learner.signed"])
    signedAt = UtcMillisecondsField()
    signedName = serializers.CharField()
