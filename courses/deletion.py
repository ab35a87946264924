"""
Taking a course down, or one of its download links: what clients do to honour an erasure request.

Deleting a course removes it with everything stored about it (its versions, exports and their files,
sign-offs, its learners' records, and the webhook events about it and its learners), remembers its
page and download links as gone (410 from then on, see RemovedLink), keeps the jobs that made it or
generated parts of it again (their `course` is null from then on; the outline and instructions they
were given, course text, are blanked) and tells its callback URL with a `course.deleted` event.
Credits are not given back: the course was generated. Staff delete from the admin through the same function.
"""

import logging

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import ApiKey
from core import errors, ids, redis_client
from core.formats import iso_utc_ms
from courses import versions
from courses.models import Course, Export, GenerationJob, RemovedLink
from learners import services as learner_services
from webhooks import services as webhook_services

logger = logging.getLogger(__name__)


class ExportNotFound(errors.NotFound):
    message = "Export not found."


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
    # Its exports are locked before their links are marked gone, as a revocation locks the course
    # before its export: neither waits on the other while holding what the other needs.
    exports = list(
        Export.objects.select_for_update().filter(course_id=course.pk).values_list("public_id", "file")
    )
    files = [name for _, name in exports if name]
    # A link marked gone already (by a revocation that did not take turns on the course) stays so.
    RemovedLink.objects.bulk_create(
        [RemovedLink(public_id=course.public_id, language_id=course.language_id)]
        + [RemovedLink(public_id=public_id, language_id=course.language_id) for public_id, _ in exports],
        ignore_conflicts=True,
    )
    # Its learners' records go with it, the webhook events about them included (they name the
    # learners), as an erasure of each would.
    learner_services.erase_learners_of(course)
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
    _remove_after_commit(files=files, renderings=course.public_id)
    logger.info(
        "course deleted",
        extra={"course_id": course.public_id, "exports": len(exports), "deleted_by": by},
    )


def revoke_export(*, api_key: ApiKey, course_public_id: str, export_public_id: str) -> None:
    """
    Revoke an export of a course of this key (see revoke).
    :raises CourseNotFound: unless this key created a course with this id
    :raises ExportNotFound: unless the course has an export with this id
    """
    course = versions.course_of(api_key=api_key, public_id=course_public_id)
    export = None
    if ids.looks_like_public_id(export_public_id, "exp_"):
        export = course.exports.filter(public_id=export_public_id).first()
    if export is None:
        raise ExportNotFound()
    export.course = course
    revoke(export=export, by=f"api key {api_key.prefix}")


@transaction.atomic
def revoke(*, export: Export, by: str) -> None:
    """
    Delete the export and its file: its download link answers 410 from then on. The course and its
    other exports stay as they are. `by` (who asked) goes to the audit line in the log.
    :raises ExportNotFound: if it was revoked meanwhile
    """
    # The course first, as a deletion of the course locks it before its exports: a revocation and
    # the course's deletion at the same instant take turns rather than deadlock.
    Course.objects.select_for_update(no_key=True).filter(pk=export.course_id).exists()
    if not Export.objects.select_for_update().filter(pk=export.pk).exists():
        raise ExportNotFound()
    RemovedLink.objects.create(public_id=export.public_id, language_id=export.course.language_id)
    files = [export.file.name] if export.file else []
    export.delete()
    _remove_after_commit(files=files)
    logger.info(
        "export revoked",
        extra={
            "course_id": export.course.public_id,
            "export_id": ids.masked(export.public_id),  # whole, it would open the download link
            "deleted_by": by,
        },
    )


def is_removed(public_id: str) -> RemovedLink | None:
    """The record of a deleted course or export with this id, if it was one."""
    return RemovedLink.objects.filter(public_id=public_id).first()


def _remove_after_commit(*, files: list[str], renderings: str | None = None) -> None:
    # Once the rows are gone for good: the package files, and the course's stored renderings (its
    # pages and JSON, which nothing reads any more; were Redis unreachable, they expire within a
    # day). A file that cannot be removed is logged and left: the link answers 410 all the same.
    storage = Export.file.field.storage
    for name in files:
        transaction.on_commit(lambda name=name: storage.delete(name), robust=True)
    if renderings is not None:
        transaction.on_commit(lambda: redis_client.forget_course(renderings), robust=True)
