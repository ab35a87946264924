"""Learners as clients manage them: personal links, erasure, where their events go, and retention."""

import dataclasses
import datetime

import psycopg
from django.conf import settings
from django.db import IntegrityError, transaction
from django.dispatch import receiver
from django.utils import timezone

from accounts.models import ApiKey
from core import errors
from core.ids import looks_like_public_id
from courses import signals as course_signals
from courses import versions
from courses.models import Course
from learners import identity, queries
from learners.models import Learner, QuizAttempt, Signoff
from webhooks import services as webhook_services

PURGE_BATCH = 500


class LearnerNotFound(errors.NotFound):
    message = "Learner not found."


def add_learner(*, api_key: ApiKey, course_public_id: str, external_id: str, name: str = "") -> tuple[Learner, bool]:
    """
    The course's learner with this `external_id`, made now (True) or already there (False): a
    repeat gives the same learner, renamed when it names them otherwise.
    :raises CourseNotFound: unless this key created the course
    """
    course = queries.course_of(api_key=api_key, public_id=course_public_id)
    # get_or_create retries the read when a concurrent repeat wins the insert (the unique constraint).
    try:
        learner, created = Learner.objects.get_or_create(
            course=course, external_id=external_id, defaults={"name": name}
        )
    except IntegrityError as exc:
        if isinstance(exc.__cause__, psycopg.errors.ForeignKeyViolation):
            raise versions.CourseNotFound() from None  # deleted since it was read
        raise
    if not created and name and learner.name != name:
        learner.name = name
        learner.updated_at = timezone.now()
        learner.save(update_fields=["name", "updated_at"])
    learner.course = course
    return learner, created


def personal_link(learner: Learner) -> str:
    """The share link that identifies the learner on any device (see learners.identity)."""
    return identity.personal_link(
        share_url=learner.course.share_url,
        course_public_id=learner.course.public_id,
        learner_public_id=learner.public_id,
    )


@dataclasses.dataclass(frozen=True)
class Erased:
    learners: int = 0
    quiz_attempts: int = 0
    signoffs: int = 0
    webhook_events: int = 0

    @property
    def records(self) -> int:
        return self.learners + self.quiz_attempts + self.signoffs + self.webhook_events

    def __add__(self, other: "Erased") -> "Erased":
        return Erased(*(a + b for a, b in zip(dataclasses.astuple(self), dataclasses.astuple(other), strict=True)))


@transaction.atomic(durable=True)
def erase_learner(*, api_key: ApiKey, course_public_id: str, learner_public_id: str) -> Erased:
    """
    Delete the learner and every record of theirs: their result, quiz attempts, sign-offs and the
    webhook events about them (with their delivery attempts), for the client's erasure requests.
    :raises CourseNotFound: unless this key created the course
    :raises LearnerNotFound: unless the course has this learner
    """
    course = queries.course_of(api_key=api_key, public_id=course_public_id)
    learner = None
    if looks_like_public_id(learner_public_id, "lrn_"):
        learner = Learner.objects.filter(course=course, public_id=learner_public_id).first()
    if learner is None:
        raise LearnerNotFound()
    return _erase(learner_ids=[learner.pk], public_ids=[learner.public_id])


@receiver(course_signals.course_deleting)
def _erase_learners_of_deleted_course(sender, *, course: Course, **kwargs) -> None:
    erase_learners_of(course)


def erase_learners_of(course: Course) -> Erased:
    """
    Every learner of the course and every record of theirs (as `erase_learner`), in batches, the
    webhook events about them included: the course is being deleted (courses.deletion), in the
    caller's transaction.
    """
    erased = Erased()
    while True:
        batch = list(Learner.objects.filter(course=course).values_list("pk", "public_id")[:PURGE_BATCH])
        if not batch:
            return erased
        erased += _erase(learner_ids=[pk for pk, _ in batch], public_ids=[public_id for _, public_id in batch])


def _erase(*, learner_ids: list[int], public_ids: list[str]) -> Erased:
    # The learners are locked first, as everything writing about a learner does (its progress, its
    # events): events recorded about them meanwhile are committed before they are looked for, and
    # none is recorded after. Their events go next (webhooks.services.delete_events_about). Then
    # counted one kind at a time, so the answer says what went; cascades then delete nothing more.
    learners = Learner.objects.filter(pk__in=learner_ids)
    list(learners.select_for_update().order_by("pk").values_list("pk", flat=True))
    events = webhook_services.delete_events_about(public_ids)
    signoffs = Signoff.objects.filter(learner_id__in=learner_ids).delete()[1].get("learners.Signoff", 0)
    attempts = QuizAttempt.objects.filter(learner_id__in=learner_ids).delete()[1].get("learners.QuizAttempt", 0)
    learners = learners.delete()[1].get("learners.Learner", 0)
    return Erased(learners=learners, quiz_attempts=attempts, signoffs=signoffs, webhook_events=events)


def purge_expired(*, now: datetime.datetime | None = None) -> Erased:
    """
    Delete the records of learners untouched for LEARNER_DATA_RETENTION_DAYS (everything
    `erase_learner` deletes: their sign-offs too). Runs daily.
    """
    cutoff = (now or timezone.now()) - datetime.timedelta(days=settings.LEARNER_DATA_RETENTION_DAYS)
    erased = Erased()
    while True:
        with transaction.atomic():
            batch = list(Learner.objects.filter(updated_at__lt=cutoff).values_list("pk", "public_id")[:PURGE_BATCH])
            if not batch:
                break
            erased += _erase(learner_ids=[pk for pk, _ in batch], public_ids=[public_id for _, public_id in batch])
    return erased
