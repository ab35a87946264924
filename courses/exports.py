"""Exports: a course packaged for an LMS, stored, with its permanent download link."""

import datetime

from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from accounts.models import ApiKey
from core import errors
from courses import citations, idempotency, queries
from courses import content as course_content
from courses.cmi5 import package as cmi5_package
from courses.models import Course, Export
from courses.scorm import package as scorm_package
from courses.serializers import ExportOutput
from webhooks import services as webhook_services


class CourseNotFound(errors.NotFound):
    message = "Course not found."


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
    export.file.save(f"{export.public_id}.zip", ContentFile(package), save=False)
    request = {"operation": "export", "course": course.public_id, "format": format, "callback_url": callback_url}
    try:
        with transaction.atomic(durable=True):
            if idempotency_key is not None:
                replayed = idempotency.replay(api_key=api_key, key=idempotency_key, request=request)
                if replayed is not None:
                    export.file.delete(save=False)
                    return replayed.export
            export.exported_at = _next_export_time(course=course)
            export.save()
            if idempotency_key is not None:
                idempotency.record(api_key=api_key, key=idempotency_key, request=request, export=export)
            if callback_url:
                webhook_services.record_event(
                    account=api_key.account,
                    url=callback_url,
                    payload={"event": "course.exported", **ExportOutput(export).data},
                    subject=course.public_id,
                )
    except BaseException:
        export.file.delete(save=False)
        raise
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
