"""
Taking a course down: what clients do to honour an erasure request.

Deleting a course removes it with everything stored about it (its versions; what the apps built on
courses keep of it, told by `signals.course_deleting`: exports and their files, sign-offs, its
learners' records, and the webhook events about them), remembers its page link as gone (410 from then
on, see RemovedLink, which remembers revoked download links too), keeps the jobs that made it or
generated parts of it again (their `course` is null from then on; the outline and instructions they
were given, course text, are blanked) and tells its callback URL with a `course.deleted` event.
Credits are not given back: the course was generated. Staff delete from the admin through the same function.
"""

import logging

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import ApiKey
from core import redis_client
from core.formats import iso_utc_ms
from courses import signals, versions
from courses.models import Course, GenerationJob, RemovedLink
from webhooks import services as webhook_services

logger = logging.getLogger(__name__)


def delete_course_of(*, api_key: ApiKey, course_public_id: str) -> None:
    """
    Delete a course of this key (see delete_course).
    :raises CourseNotFound: unless this key created a course with this id
    :raises CourseBusy: while a part of it is being generated again
    """
    course = versions.course_of(api_key=api_key, public_id=course_public_id)
    delete_course(course=course, by=f"api key {api_key.prefix}")


# Not durable: the admin's delete view calls these inside its own transaction.
@transaction.atomic
def delete_course(*, course: Course, by: str) -> None:
    """
    Delete the course and everything stored about it, as the module says; `by` (who asked) goes to
    the audit line in the log.
    :raises CourseNotFound: if it was deleted meanwhile
    :raises CourseBusy: while a part of it is being generated again (delete once that job has ended)
    """
    course = versions.locked(course)
    if versions.is_busy(course=course):
        raise versions.CourseBusy()
    job = course.job
    remember_removed([course.public_id], language_id=course.language_id)
    signals.course_deleting.send(sender=Course, course=course)
    # The events about the course go too (course.created and course.updated name it and show its
    # headline; course.exported has a download link): only course.deleted, with ids, is kept.
    webhook_services.delete_events_about([course.public_id])
    its_jobs = GenerationJob.objects.filter(Q(course=course) | Q(regenerated_course=course))
    its_jobs.update(outline=[], instructions="")
    deleted_at = timezone.now()
    course.delete()
    if job.callback_url:
        webhook_services.record_event(
            account=course.api_key.account,
            url=job.callback_url,
            payload={
                "event": "course.deleted",
                "courseId": course.public_id,
                "jobId": job.public_id,
                "deletedAt": iso_utc_ms(deleted_at),
            },
            subject=course.public_id,
        )
    # Its stored renderings (its pages and JSON), which nothing reads any more; were Redis
    # unreachable, they expire within a day.
    transaction.on_commit(lambda: redis_client.forget_course(course.public_id), robust=True)
    logger.info("course deleted", extra={"course_id": course.public_id, "deleted_by": by})


def remember_removed(public_ids: list[str], *, language_id: str) -> None:
    """
    Remember these public links (a course's, its exports') as gone: each answers 410 from now on, in
    the course's language. A link remembered already stays so.
    """
    RemovedLink.objects.bulk_create(
        [RemovedLink(public_id=public_id, language_id=language_id) for public_id in public_ids],
        ignore_conflicts=True,
    )


def is_removed(public_id: str) -> RemovedLink | None:
    """The record of a deleted course or export with this id, if it was one."""
    return RemovedLink.objects.filter(public_id=public_id).first()
