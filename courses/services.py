"""Generation jobs and courses: every write and rule about them lives here."""

import datetime
import hashlib
import json
import logging
import time

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.files.base import ContentFile
from django.db import connection, transaction
from django.db.models import F, Max, Q
from django.db.models.functions import Greatest
from django.utils import timezone
from django.utils.crypto import salted_hmac

from accounts import services as account_services
from accounts.models import ApiKey
from config import errors, queue
from courses import generation, queries, tasks
from courses.cmi5 import package as cmi5_package
from courses.content import CourseContent
from courses.models import Course, Export, GenerationJob, IdempotencyRecord
from courses.scorm import package as scorm_package
from courses.serializers import course_output, export_output, job_error
from webhooks import services as webhook_services

logger = logging.getLogger(__name__)

Status = GenerationJob.Status

IDEMPOTENCY_WINDOW = datetime.timedelta(hours=24)
# A job is run at most this many times: once, and once more if its worker died.
MAX_ATTEMPTS = 2
# How long after its message was sent a pending job is taken for lost and sent again.
LOST_MESSAGE_AFTER = datetime.timedelta(minutes=2)


class IdempotencyKeyReused(errors.AppError):
    status, code = 409, "IDEMPOTENCY_KEY_REUSED"
    message = "This Idempotency-Key was already used with a different request body."


class InvalidIdempotencyKey(errors.AppError):
    message = "Idempotency-Key must be 1 to 255 printable ASCII characters."


class JobNotFound(errors.NotFound):
    message = "Job not found."


# Creating jobs --------------------------------------------------------------------------------


@transaction.atomic(durable=True)
def create_job(
    *,
    api_key: ApiKey,
    subject: str,
    format: str,
    language_id: str,
    outline: list[str],
    add_ons: list[str],
    callback_url: str = "",
    idempotency_key: str | None = None,
) -> GenerationJob:
    """
    Accept a course for generation: charge one credit, create the job and queue it after commit.
    With an idempotency key seen in the last 24 hours for the same request, return that job instead.
    :raises CreditsExhausted: if the account has no credit left this month
    :raises IdempotencyKeyReused: if the key was used for a different request
    """
    request = {
        "subject": subject,
        "format": format,
        "language_id": language_id,
        "outline": outline,
        "add_ons": add_ons,
        "callback_url": callback_url,
    }
    if idempotency_key is not None:
        replayed = _replay_idempotent_request(
            api_key=api_key, key=idempotency_key, request={"operation": "create", **request}
        )
        if replayed is not None:
            return replayed.job
    period = account_services.charge_credit(account=api_key.account)
    job = GenerationJob.objects.create(
        api_key=api_key, charged_period_date=period, enqueued_at=timezone.now(), **request
    )
    if idempotency_key is not None:
        IdempotencyRecord.objects.create(
            api_key=api_key,
            key=idempotency_key,
            request_hash=_request_hash({"operation": "create", **request}),
            job=job,
        )
    queue.enqueue_on_commit(tasks.run_generation, job_id=job.pk)
    return job


def _replay_idempotent_request(*, api_key: ApiKey, key: str, request: dict) -> IdempotencyRecord | None:
    """
    The record of the first request with this key in the last 24 hours, if `request` is the same;
    None if the key is new (or expired). Call inside the transaction that records the new request.
    :raises IdempotencyKeyReused: if the key was used for a different request
    """
    # Requests with the same key wait for each other (a lock for this transaction only), so two
    # retries racing each other still make one job and charge one credit.
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", [api_key.pk, key])
    record = IdempotencyRecord.objects.select_related("job", "export__course").filter(api_key=api_key, key=key).first()
    if record is None:
        return None
    if record.created_at < timezone.now() - IDEMPOTENCY_WINDOW:
        record.delete()
        return None
    if record.request_hash != _request_hash(request):
        raise IdempotencyKeyReused()
    return record


def purge_expired_idempotency_records() -> int:
    """Forget idempotency keys older than 24 hours; return how many."""
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=timezone.now() - IDEMPOTENCY_WINDOW).delete()
    return deleted


def _request_hash(request: dict) -> str:
    return hashlib.sha256(json.dumps(request, sort_keys=True).encode()).hexdigest()


# Running jobs ---------------------------------------------------------------------------------


def run_job(*, job_id: int) -> None:
    """
    Generate the job's course if this worker can claim the job; record the outcome either way.
    A job already finished, or running under a live worker, is left alone.
    """
    attempt = _claim_job(job_id=job_id)
    if attempt is None:
        return
    job = GenerationJob.objects.get(pk=job_id)
    deadline = time.monotonic() + settings.GENERATION_TIMEOUT_S
    try:
        content = generation.generate_course(
            request=generation.CourseRequest(
                subject=job.subject,
                format=job.format,
                language_id=job.language_id,
                outline=list(job.outline),
                add_ons=list(job.add_ons),
            ),
            on_progress=lambda percent: record_progress(job_id=job_id, attempt=attempt, percent=percent),
            deadline=deadline,
        )
    except generation.GenerationError as exc:
        failure = exc
    except SoftTimeLimitExceeded:  # Celery's backstop when a generation overruns its own deadline
        failure = generation.GenerationTimeout()
    except Exception:
        logger.exception("generation crashed", extra={"job_id": job.public_id})
        failure = generation.GenerationFailed()
    else:
        try:
            complete_job(job_id=job_id, attempt=attempt, content=content)
            return
        except Exception:
            # Whatever goes wrong while storing the course ends the job now, credit back, rather
            # than leaving it running until recovery takes it for dead.
            logger.exception("storing the course failed", extra={"job_id": job.public_id})
            failure = generation.GenerationFailed()
    fail_job(job_id=job_id, attempt=attempt, code=failure.code, message=failure.message)


def _lease() -> datetime.timedelta:
    # A running job whose worker shows no result by then is taken for dead.
    return datetime.timedelta(seconds=settings.GENERATION_TIMEOUT_S + settings.GENERATION_LEASE_GRACE_S)


def _claim_job(*, job_id: int) -> int | None:
    """
    Mark the job running for this worker and return the attempt number, which fences off any
    earlier worker of the same job; None if the job is not ours to run.
    """
    now = timezone.now()
    claimable = Q(status=Status.PENDING) | Q(status=Status.RUNNING, started_at__lt=now - _lease())
    claimed = GenerationJob.objects.filter(claimable, pk=job_id, attempts__lt=MAX_ATTEMPTS).update(
        status=Status.RUNNING, attempts=F("attempts") + 1, started_at=now
    )
    if not claimed:
        return None
    return GenerationJob.objects.values_list("attempts", flat=True).get(pk=job_id)


def record_progress(*, job_id: int, attempt: int, percent: int) -> None:
    # GREATEST: progress never falls, not even when a retried job starts over.
    GenerationJob.objects.filter(pk=job_id, status=Status.RUNNING, attempts=attempt).update(
        progress=Greatest(F("progress"), min(max(int(percent), 0), 99))
    )


@transaction.atomic(durable=True)
def complete_job(*, job_id: int, attempt: int, content) -> Course | None:
    """Store the course and finish the job, with its course.created event; None if fenced off."""
    job = (
        GenerationJob.objects.select_for_update(of=("self",), no_key=True)
        .select_related("api_key__account")
        .filter(pk=job_id, status=Status.RUNNING, attempts=attempt)
        .first()
    )
    if job is None:
        return None  # another attempt took over or finished: its result stands
    course = Course.objects.create(
        job=job,
        api_key=job.api_key,
        name=content.name,
        headline=content.headline,
        format=job.format,
        language_id=job.language_id,
        content=content.model_dump(mode="json"),
        schema_version=content.schema_version,
    )
    job.status, job.progress, job.finished_at = Status.COMPLETED, 100, timezone.now()
    job.save(update_fields=["status", "progress", "finished_at"])
    if job.callback_url:
        webhook_services.record_event(
            account=job.api_key.account,
            url=job.callback_url,
            payload={"event": "course.created", "jobId": job.public_id, "course": course_output(course)},
        )
    return course


@transaction.atomic(durable=True)
def fail_job(*, job_id: int, attempt: int | None, code: str, message: str) -> bool:
    """
    Fail the job, give its credit back and record its course.failed event. With `attempt`, only
    if that attempt still owns the job. Return whether the job was failed by this call.
    """
    jobs = GenerationJob.objects.select_for_update(of=("self",), no_key=True).select_related("api_key__account")
    jobs = jobs.filter(pk=job_id, status__in=[Status.PENDING, Status.RUNNING])
    if attempt is not None:
        jobs = jobs.filter(attempts=attempt)
    job = jobs.first()
    if job is None:
        return False
    job.status, job.error_code, job.error_message = Status.FAILED, code, message
    job.finished_at = timezone.now()
    job.save(update_fields=["status", "error_code", "error_message", "finished_at"])
    if job.charged_period_date:
        account_services.refund_credit(account_id=job.api_key.account_id, period_date=job.charged_period_date)
    if job.callback_url:
        webhook_services.record_event(
            account=job.api_key.account,
            url=job.callback_url,
            payload={"event": "course.failed", "jobId": job.public_id, "error": job_error(job)},
        )
    return True


# Recovering lost work -------------------------------------------------------------------------


def recover_jobs() -> dict[str, int]:
    """
    Find jobs that nobody is working on and set them going again, or fail them when they can't be:
    a pending job whose message was lost is sent again; a running job whose worker died is run
    once more, then failed; a job pending for too long is failed. Return counts for the log.
    """
    now = timezone.now()
    counts = {"resent": 0, "retried": 0, "failed": 0}

    for job_id in GenerationJob.objects.filter(
        status=Status.PENDING, created_at__lt=now - datetime.timedelta(seconds=settings.JOB_PENDING_MAX_S)
    ).values_list("pk", flat=True):
        counts["failed"] += fail_job(
            job_id=job_id, attempt=None, code="GENERATION_TIMEOUT", message=_NOT_STARTED_MESSAGE
        )

    # A pending job's message counts as lost only while no messages wait in the queue: under a
    # backlog the job is simply waiting its turn, and sending it again would only pile up duplicates.
    if queue.waiting_messages(settings.CELERY_TASK_DEFAULT_QUEUE) == 0:
        lost = GenerationJob.objects.filter(status=Status.PENDING, enqueued_at__lt=now - LOST_MESSAGE_AFTER)
        for job_id in lost.values_list("pk", flat=True):
            # Sending twice is harmless: only one worker can claim a pending job.
            GenerationJob.objects.filter(pk=job_id).update(enqueued_at=now)
            queue.enqueue(tasks.run_generation, job_id=job_id)
            counts["resent"] += 1

    dead = GenerationJob.objects.filter(status=Status.RUNNING, started_at__lt=now - _lease())
    for job_id, attempts in dead.values_list("pk", "attempts"):
        if attempts < MAX_ATTEMPTS:
            queue.enqueue(tasks.run_generation, job_id=job_id)
            counts["retried"] += 1
        else:
            counts["failed"] += fail_job(
                job_id=job_id, attempt=attempts, code="GENERATION_FAILED", message=_INTERRUPTED_MESSAGE
            )
    return counts


_NOT_STARTED_MESSAGE = "The course could not be started in time. Please try again."
_INTERRUPTED_MESSAGE = "Course generation was interrupted. Please try again."


# Sign-offs of the agreement add-on --------------------------------------------------------------

SIGNOFF_NAME_MAX_LENGTH = 200


class InvalidSignoffName(errors.ValidationError):
    message = "A sign-off needs a name of 1 to 200 characters."


class CourseHasNoAgreement(errors.NotFound):
    message = "This course has no agreement."


def record_signoff(*, course: Course, name: str, client_ip: str):
    """
    Record that a learner confirmed the course's agreement, under the name they typed. The IP is
    kept only as an HMAC (SHA-256, keyed with SECRET_KEY): enough to spot abuse, not to identify.
    :raises InvalidSignoffName: if the name is empty or too long once whitespace is tidied
    :raises CourseHasNoAgreement: if the course has no agreement add-on
    """
    if not course.content.get("agreement"):
        raise CourseHasNoAgreement()
    # Runs of whitespace become one space; other invisible characters go (PostgreSQL refuses NUL),
    # except the zero-width (non-)joiners some scripts need.
    tidy = "".join(ch for ch in " ".join(name.split()) if ch.isprintable() or ch in "\u200c\u200d")
    if not 1 <= len(tidy) <= SIGNOFF_NAME_MAX_LENGTH:
        raise InvalidSignoffName()
    ip_hash = salted_hmac("courses.signoff.ip", client_ip, algorithm="sha256").hexdigest()
    return course.signoffs.create(name=tidy, ip_hash=ip_hash)


# Exports --------------------------------------------------------------------------------------


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
    content = CourseContent.model_validate(course.content)
    if format == Export.ExportFormat.CMI5:
        package = cmi5_package.build_package(content=content, course_iri=course.share_url)
    else:
        package = scorm_package.build_package(content=content, course_id=course.public_id, format=format)
    export = Export(course=course, api_key=api_key, format=format, callback_url=callback_url)
    # The file is written before the row (a row must never point at a missing file) and removed
    # again if the row does not commit.
    export.file.save(f"{export.public_id}.zip", ContentFile(package), save=False)
    request = {"operation": "export", "course": course.public_id, "format": format, "callback_url": callback_url}
    try:
        with transaction.atomic(durable=True):
            if idempotency_key is not None:
                replayed = _replay_idempotent_request(api_key=api_key, key=idempotency_key, request=request)
                if replayed is not None:
                    export.file.delete(save=False)
                    return replayed.export
            export.exported_at = _next_export_time(course=course)
            export.save()
            if idempotency_key is not None:
                IdempotencyRecord.objects.create(
                    api_key=api_key, key=idempotency_key, request_hash=_request_hash(request), export=export
                )
            if callback_url:
                webhook_services.record_event(
                    account=api_key.account,
                    url=callback_url,
                    payload={"event": "course.exported", **export_output(export)},
                )
    except BaseException:
        export.file.delete(save=False)
        raise
    return export


def _next_export_time(*, course: Course) -> datetime.datetime:
    # Receivers deduplicate course.exported on courseId + exportedAt, which shows milliseconds:
    # two exports of a course must never share one. Exports of the same course take turns (row
    # lock), and each is stamped in whole milliseconds, after the one before.
    Course.objects.select_for_update(no_key=True).filter(pk=course.pk).values_list("pk", flat=True).get()
    now = timezone.now()
    now = now.replace(microsecond=now.microsecond // 1000 * 1000)
    previous = course.exports.aggregate(latest=Max("exported_at"))["latest"]
    if previous is not None and now <= previous:
        return previous + datetime.timedelta(milliseconds=1)
    return now
