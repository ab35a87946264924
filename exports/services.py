"""
Exports: a course packaged for an LMS (SCORM or cmi5), stored, with its permanent download link;
revoking one, and what a course's deletion takes of its exports.
"""

import datetime
import logging

from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import Max
from django.dispatch import receiver
from django.utils import timezone

from accounts.models import ApiKey
from core import errors, files, ids
from courses import citations, deletion, idempotency, queries, signals, versions
from courses import content as course_content
from courses.models import Course
from exports.cmi5 import package as cmi5_package
from exports.models import Export
from exports.scorm import package as scorm_package
from exports.serializers import ExportOutput
from webhooks import services as webhook_services

logger = logging.getLogger(__name__)


class CourseNotFound(errors.NotFound):
    message = "Course not found."


class ExportNotFound(errors.NotFound):
    message = "Export not found."


def export_course(
    *,
    api_key: ApiKey,
    course_public_id: str,
    format: str,
    callback_url: str = "",
    idempotency_key: str | None = None,
) -> Export:
    """
    Build the course's package in `format` (SCORM or cmi5), store it and record the export, with its
    course.exported event when a callback URL was given. Every call makes a new export, except a
    retry with the same idempotency key and request within 24 hours, which returns the first.
    :raises CourseNotFound: if no course with this id belongs to this key
    :raises IdempotencyKeyReused: if the idempotency key was used for a different request
    """
    course = queries.course_visible_to(api_key=api_key, public_id=course_public_id)
    if course is None:
        raise CourseNotFound()
    # Sources deleted since the course was made are shown as such in the package.
    content = course_content.read_stored(
        citations.with_deleted_sources(course.content, course.deleted_source_ids)
    )
    if format == Export.ExportFormat.CMI5:
        package = cmi5_package.build_package(content=content, course_iri=course.share_url)
    else:
        package = scorm_package.build_package(content=content, course_id=course.public_id, format=format)
    export = Export(course=course, api_key=api_key, format=format, version=course.version, callback_url=callback_url)
    # The file is written before the row (a row must never point at a missing file) and removed
    # again if the row does not commit.
    with files.reaching_store("store an export"):
        export.file.save(f"{export.public_id}.zip", ContentFile(package), save=False)
    request = {"operation": "export", "course": course.public_id, "format": format, "callback_url": callback_url}
    replayed = None
    try:
        with transaction.atomic(durable=True):
            if idempotency_key is not None:
                replayed = _replayed(api_key=api_key, key=idempotency_key, request=request)
            if replayed is None:
                export.exported_at = _next_export_time(course=course)
                export.save()
                if idempotency_key is not None:
                    idempotency.record(api_key=api_key, key=idempotency_key, request=request, made=export.public_id)
                if callback_url:
                    webhook_services.record_event(
                        account=api_key.account,
                        url=callback_url,
                        payload={"event": "course.exported", **ExportOutput(export).data},
                        subject=course.public_id,
                    )
    except BaseException:
        files.discard(export.file)
        raise
    if replayed is not None:  # the first request's export; this one's file goes, outside the transaction
        files.discard(export.file)
        return replayed
    return export


def _replayed(*, api_key: ApiKey, key: str, request: dict) -> Export | None:
    """The export the first request with this idempotency key made, unless it was revoked since."""
    record = idempotency.replay(api_key=api_key, key=key, request=request)
    if record is None:
        return None
    export = Export.objects.select_related("course").filter(public_id=record.made).first()
    if export is None:  # revoked, or its course deleted: the key makes a new export
        idempotency.forget(record)
    return export


def _next_export_time(*, course: Course) -> datetime.datetime:
    # Receivers deduplicate course.exported on courseId + exportedAt, which shows milliseconds:
    # two exports of a course must never share one. Exports of the same course take turns (row
    # lock), and each is stamped in whole milliseconds, after the one before.
    if not Course.objects.select_for_update(no_key=True).filter(pk=course.pk).values_list("pk", flat=True):
        raise CourseNotFound()  # deleted meanwhile
    now = timezone.now()
    now = now.replace(microsecond=now.microsecond // 1000 * 1000)
    previous = course.exports.aggregate(latest=Max("exported_at"))["latest"]
    if previous is not None and now <= previous:
        return previous + datetime.timedelta(milliseconds=1)
    return now


# Revoking ---------------------------------------------------------------------------------------


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
    deletion.remember_removed([export.public_id], language_id=export.course.language_id)
    stored = [export.file.name] if export.file else []
    export.delete()
    _remove_files_after_commit(stored)
    logger.info(
        "export revoked",
        extra={
            "course_id": export.course.public_id,
            "export_id": ids.masked(export.public_id),  # whole, it would open the download link
            "deleted_by": by,
        },
    )


@receiver(signals.course_deleting)
def _take_down_exports_of(sender, *, course: Course, **kwargs) -> None:
    # The course's exports go with it (ON DELETE CASCADE): their links are remembered as gone, and
    # their files removed once that commits. They are locked before their links are marked gone, as a
    # revocation locks the course before its export: neither waits on the other while holding what
    # the other needs.
    exports = list(Export.objects.select_for_update().filter(course_id=course.pk).values_list("public_id", "file"))
    deletion.remember_removed([public_id for public_id, _ in exports], language_id=course.language_id)
    _remove_files_after_commit([name for _, name in exports if name])


def _remove_files_after_commit(names: list[str]) -> None:
    # Once the rows are gone for good: the link answers 410 whether or not the store lets them go.
    for name in names:
        files.remove_after_commit(Export.file.field.storage, name)
