"""Generation jobs: accepting them, running them, recording how they end, recovering lost ones."""

import datetime
import logging
import math
import time
from collections.abc import Sequence

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Q
from django.db.models.functions import Greatest
from django.dispatch import receiver
from django.utils import timezone

from accounts import services as account_services
from accounts.models import ApiKey
from core import errors, leases, metrics, queue
from courses import checkpoints, generation, idempotency, tasks, versions
from courses import content as course_content
from courses.generation.grounding import SourcesGone
from courses.models import Course, CourseVersion, GenerationJob, JobSource, Part
from courses.serializers import CourseOutput, JobErrorOutput
from sources import queries as source_queries
from sources import services as source_services
from sources import signals as source_signals
from sources.models import Source
from webhooks import services as webhook_services

logger = logging.getLogger(__name__)

Status = GenerationJob.Status

# A job is run at most this many times: once, and twice more if its worker died (each new attempt
# resumes from the last finished step). Attempts handed back by a stopping worker do not count.
MAX_ATTEMPTS = 3
# A job is held by one worker at a time: pending until one claims it, then running.
LEASE = leases.Lease(
    model=GenerationJob,
    waiting=Q(status=Status.PENDING),
    started=Q(status=Status.RUNNING),
    max_attempts=MAX_ATTEMPTS,
    claimed={"status": Status.RUNNING},
)
# How long after its message was sent a pending job is taken for lost and sent again.
LOST_MESSAGE_AFTER = datetime.timedelta(minutes=2)


class JobNotFound(errors.NotFound):
    message = "Job not found."


class InvalidSources(errors.ValidationError):
    """A source named in a request cannot be built from: unknown (or another key's), not read (yet)."""


def sources_to_build_from(*, api_key: ApiKey, public_ids: list[str]) -> list[Source]:
    """
    The key's ready sources with these ids, in that order (an id given twice counts once), kept from
    being deleted until the transaction ends: the job about to be made points at them.
    :raises InvalidSources: naming the first id that is unknown, another key's, pending or failed
    """
    found = source_queries.sources_of_key(api_key=api_key, public_ids=public_ids, held=True)
    for public_id in dict.fromkeys(public_ids):
        source, field = found.get(public_id), f"sources[{public_ids.index(public_id)}]"
        if source is None:
            raise InvalidSources(f"{public_id} is not a source of this API key.", field=field)
        if source.status == Source.Status.PENDING:
            raise InvalidSources(f"{public_id} is still being read; create the course once it is ready.", field=field)
        if source.status == Source.Status.FAILED:
            raise InvalidSources(
                f"{public_id} could not be read ({source.error_code}); it cannot be built from.", field=field
            )
    return [found[public_id] for public_id in dict.fromkeys(public_ids)]


def _attach_sources(job: GenerationJob, sources: Sequence[Source]) -> None:
    JobSource.objects.bulk_create(
        [JobSource(job=job, source=source, position=position) for position, source in enumerate(sources)]
    )


# Creating jobs --------------------------------------------------------------------------------


def create_job(
    *,
    api_key: ApiKey,
    subject: str,
    format: str,
    language_id: str,
    outline: list[str],
    add_ons: list[str],
    callback_url: str = "",
    sources: list[str] | None = None,
    learner_callback_url: str = "",
    idempotency_key: str | None = None,
) -> GenerationJob:
    """
    Accept a course for generation: charge one credit, create the job and queue it after commit.
    With `sources` (public ids), the course is built from those sources of the key.
    With an idempotency key seen in the last 24 hours for the same request, return that job instead.
    :raises InvalidSources: a source is unknown, another key's, or not ready (nothing is charged)
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
    if learner_callback_url:  # only when given, so keys recorded before it existed still match
        request["learner_callback_url"] = learner_callback_url
    source_ids = list(dict.fromkeys(sources or []))
    with transaction.atomic(durable=True):
        fingerprint = {"operation": "create", **request, **({"sources": source_ids} if source_ids else {})}
        if idempotency_key is not None:
            replayed = idempotency.replay(api_key=api_key, key=idempotency_key, request=fingerprint)
            if replayed is not None:
                return GenerationJob.objects.get(public_id=replayed.made)
        built_from = sources_to_build_from(api_key=api_key, public_ids=source_ids) if source_ids else []
        job = _accept(GenerationJob(api_key=api_key, from_sources=bool(built_from), **request), built_from)
        if idempotency_key is not None:
            idempotency.record(api_key=api_key, key=idempotency_key, request=fingerprint, made=job.public_id)
        return job


def _accept(job: GenerationJob, built_from: Sequence[Source] = ()) -> GenerationJob:
    """
    Charge the credit the new job costs, save it, attach the sources it is built from, and queue it
    once committed. Call inside the transaction that accepts it.
    :raises CreditsExhausted: if the account has no credit left this month
    """
    job.charged_period_date = account_services.charge_credit(account=job.api_key.account)
    job.enqueued_at = timezone.now()
    job.save()
    _attach_sources(job, built_from)
    _enqueue_on_commit(job_id=job.pk)
    return job


@transaction.atomic(durable=True)
def create_regeneration_job(
    *,
    api_key: ApiKey,
    course_public_id: str,
    part: str,
    chapter: int | None = None,
    instructions: str = "",
    callback_url: str = "",
    idempotency_key: str | None = None,
) -> GenerationJob:
    """
    Accept one part of a course (its chapter `chapter`, 1-based, or the introduction, wrap-up,
    assessment or agreement) for generating again: charge one credit, create the job and queue it
    after commit. The course cannot be edited until the job ends.
    :raises CourseNotFound: unless this key created the course
    :raises InvalidPart: the course has no such chapter, or not that add-on
    :raises CourseBusy: a part of the course is being generated again already
    :raises VersionLimitReached: the course has no version left to make
    :raises CreditsExhausted, IdempotencyKeyReused: as create_job
    """
    course = versions.course_of(api_key=api_key, public_id=course_public_id)
    request = {
        "course": course.public_id,
        "part": part,
        "chapter": chapter,
        "instructions": instructions,
        "callback_url": callback_url,
    }
    if idempotency_key is not None:
        replayed = idempotency.replay(api_key=api_key, key=idempotency_key, request={"operation": "regenerate", **request})
        if replayed is not None:
            return GenerationJob.objects.get(public_id=replayed.made)
    # Regenerations and edits of a course take turns (row lock), so a course is never edited while
    # a part of it is being written again.
    course = versions.locked(course)
    _check_part(course=course, part=part, chapter=chapter)
    built_from = _sources_left(course)
    if versions.is_busy(course=course):
        raise versions.CourseBusy()
    if course.version >= settings.COURSE_MAX_VERSIONS:
        raise versions.VersionLimitReached()
    original = course.job
    job = GenerationJob(
        api_key=api_key,
        subject=original.subject,
        format=course.format,
        language_id=course.language_id,
        outline=list(original.outline),
        add_ons=list(course.content.get("addOns", [])),
        callback_url=callback_url,
        regenerated_course=course,
        part=part,
        chapter=chapter if part == Part.CHAPTER else None,
        instructions=instructions,
        from_sources=bool(built_from),
    )
    _accept(job, built_from)
    if idempotency_key is not None:
        idempotency.record(
            api_key=api_key, key=idempotency_key, request={"operation": "regenerate", **request}, made=job.public_id
        )
    return job


def _enqueue_on_commit(*, job_id: int) -> None:
    # A job whose message could not be sent (Redis down) is marked unsent: recovery sends it as soon
    # as Redis is back, rather than waiting to take its message for lost.
    queue.enqueue_on_commit(
        tasks.run_generation,
        job_id=job_id,
        if_unsent=lambda: GenerationJob.objects.filter(pk=job_id, status=Status.PENDING).update(enqueued_at=None),
    )


class InvalidPart(errors.ValidationError):
    pass


def _sources_left(course: Course) -> list[Source]:
    """
    The sources a course was built from that still exist, to build a part of it from again, kept
    from being deleted until the transaction ends (a deletion locks the course first, then the
    source, in the same order as here, so the two never wait for each other).
    :raises InvalidPart: when the course was built from sources and all of them have been deleted
    """
    built_from = list(course.content.get("sources") or [])
    if not built_from:
        return []
    left = sorted(
        Source.objects.filter(job_sources__job_id=course.job_id, status=Source.Status.READY)
        .annotate(position=F("job_sources__position"))
        .order_by("pk")  # every job locks sources in the same order
        .select_for_update(no_key=True, of=("self",)),
        key=lambda source: source.position,
    )
    if not left:
        raise InvalidPart(
            "every source this course was built from has been deleted, so no part of it can be generated "
            "again from them; edit the course instead.",
            field="target",
        )
    return left


def _check_part(*, course: Course, part: str, chapter: int | None) -> None:
    document = course.content
    if part == Part.CHAPTER:
        count = len(document.get("chapters", []))
        if chapter is None or not 1 <= chapter <= count:
            raise InvalidPart(f"this course has chapters 1 to {count}.", field="chapter")
    elif part in (Part.WRAPUP, Part.ASSESSMENT, Part.AGREEMENT) and not document.get(part):
        raise InvalidPart(f"this course has no {part} (the add-on was not asked for).", field="target")


# Running jobs ---------------------------------------------------------------------------------


def run_job(*, job_id: int, worker: str = "") -> None:
    """
    Generate the job's course if this worker can claim the job; record the outcome either way.
    A job already finished, or running under a live worker, is left alone. `worker` names this
    worker (core.leases.worker_name), so that it can hand its jobs back when told to stop.
    """
    attempt = LEASE.claim(job_id, worker=worker)
    if attempt is None:
        return
    began = time.monotonic()
    with LEASE.holding(job_id, attempt=attempt):
        outcome = _run_attempt(job_id=job_id, attempt=attempt)
    metrics.JOB_SECONDS.labels(outcome=outcome).observe(time.monotonic() - began)


def _run_attempt(*, job_id: int, attempt: int) -> str:
    """Run the attempt; return how it ended: completed, failed, or stopped (taken over, or ended)."""
    job = GenerationJob.objects.select_related("regenerated_course").get(pk=job_id)
    deadline = time.monotonic() + settings.GENERATION_TIMEOUT_S
    on_progress = _progress_writer(job_id=job_id, attempt=attempt)
    kept = checkpoints.Checkpoints(job_id=job_id, attempt=attempt)  # the steps earlier attempts finished
    try:
        if job.is_regeneration:
            content = generation.regenerate_part(
                request=_course_request(job, variant=_next_variant(job)),
                document=course_content.read_stored(job.regenerated_course.content),
                part=job.part,
                chapter=job.chapter,
                on_progress=on_progress,
                deadline=deadline,
                checkpoints=kept,
            )
        else:
            content = generation.generate_course(
                request=_course_request(job), on_progress=on_progress, deadline=deadline, checkpoints=kept
            )
    except checkpoints.AttemptEnded:  # another attempt took the job over, or it ended
        logger.info(
            "generation stopped: the job no longer runs as this attempt", extra={"job_id": job.public_id}
        )
        return "stopped"
    except generation.GenerationError as exc:
        failure = exc
    except SoftTimeLimitExceeded:  # Celery's backstop when a generation overruns its own deadline
        failure = generation.GenerationTimeout()
    except Exception:
        logger.exception("generation crashed", extra={"job_id": job.public_id})
        failure = generation.GenerationFailed()
    else:
        try:
            complete = complete_regeneration if job.is_regeneration else complete_job
            _while_database_returns(lambda: complete(job_id=job_id, attempt=attempt, content=content))
            return "completed"
        except Exception:
            # Whatever goes wrong while storing the course ends the job now, credit back, rather
            # than leaving it running until recovery takes it for dead.
            logger.exception("storing the course failed", extra={"job_id": job.public_id})
            failure = generation.GenerationFailed()
    _while_database_returns(
        lambda: fail_job(job_id=job_id, attempt=attempt, code=failure.code, message=failure.message)
    )
    return "failed"


# How long a worker keeps trying to store a job's outcome while the database is unreachable (a
# restart, a failover) before it gives the job up to recovery.
STORE_RETRY_S = 60


def _while_database_returns(write):
    """`write()`, tried again every second while the database cannot be reached, for STORE_RETRY_S."""
    deadline = time.monotonic() + STORE_RETRY_S
    while True:
        try:
            return write()
        except errors.DATABASE_UNAVAILABLE:
            if time.monotonic() >= deadline:
                raise
            logger.warning("database unreachable, storing the job's outcome again in a second")
            connection.close()
            time.sleep(1)


def _course_request(job: GenerationJob, *, variant: int = 0) -> generation.CourseRequest:
    """
    What the job asks the generator for.
    :raises SourcesGone: when the job builds from sources and every one of them has been deleted
    """
    source_ids = tuple(job.job_sources.order_by("position").values_list("source_id", flat=True))
    if job.from_sources and not source_ids:
        raise SourcesGone()
    return generation.CourseRequest(
        subject=job.subject,
        format=job.format,
        language_id=job.language_id,
        outline=list(job.outline),
        add_ons=list(job.add_ons),
        instructions=job.instructions,
        variant=variant,
        source_ids=source_ids,
    )


def _next_variant(job: GenerationJob) -> int:
    # Each time a part is written again, the offline generator writes the next of its variants.
    done = GenerationJob.objects.filter(
        regenerated_course_id=job.regenerated_course_id, part=job.part, chapter=job.chapter, status=Status.COMPLETED
    )
    return done.count() + 1


@leases.on_worker_stop
def hand_back_jobs(worker: str) -> int:
    """
    Give back the jobs this worker runs (it was told to stop): each is free to take at once, and
    sent again, so another worker resumes it from its last finished step. Return how many.
    """
    return LEASE.hand_back(worker=worker, send=lambda job_id: queue.enqueue(tasks.run_generation, job_id=job_id))


# Clients poll every 5 seconds: progress is written at most once a second, so a fast generator does not
# commit a dozen times for a course that is done in a tenth of a second.
PROGRESS_WRITE_INTERVAL_S = 1.0


def _progress_writer(*, job_id: int, attempt: int):
    last_write = -math.inf

    def on_progress(percent: int) -> None:
        nonlocal last_write
        now = time.monotonic()
        if now - last_write >= PROGRESS_WRITE_INTERVAL_S:
            last_write = now
            try:
                record_progress(job_id=job_id, attempt=attempt, percent=percent)
            except errors.DATABASE_UNAVAILABLE:
                # Progress is only shown: a database away for a moment does not stop the work.
                logger.warning("progress not recorded, database unreachable", extra={"job_id": job_id})
                connection.close()

    return on_progress


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
    document = content.model_dump(mode="json")
    course = Course.objects.create(
        deleted_source_ids=_deleted_meanwhile(document),
        job=job,
        api_key=job.api_key,
        name=content.name,
        headline=content.headline,
        format=job.format,
        language_id=job.language_id,
        content=document,
        content_digest=course_content.digest(document),
        schema_version=content.schema_version,
        version=1,
        learner_callback_url=job.learner_callback_url,
    )
    CourseVersion.objects.create(
        course=course, number=1, content=document, source=CourseVersion.Source.GENERATED, changed="content"
    )
    job.status, job.progress, job.finished_at = Status.COMPLETED, 100, timezone.now()
    job.save(update_fields=["status", "progress", "finished_at"])
    checkpoints.clear(job_id=job.pk)
    if job.callback_url:
        webhook_services.record_event(
            account=job.api_key.account,
            url=job.callback_url,
            payload={"event": "course.created", "jobId": job.public_id, "course": CourseOutput(course).data},
            subject=course.public_id,
        )
    return course


@transaction.atomic(durable=True)
def complete_regeneration(*, job_id: int, attempt: int, content) -> Course | None:
    """Make the course's next version from the regenerated part and finish the job, with its
    course.updated event; None if fenced off."""
    job = (
        GenerationJob.objects.select_for_update(of=("self",), no_key=True)
        .select_related("api_key__account")
        .filter(pk=job_id, status=Status.RUNNING, attempts=attempt)
        .first()
    )
    if job is None:
        return None
    course = Course.objects.select_for_update().get(pk=job.regenerated_course_id)
    document = content.model_dump(mode="json")
    for source_id in _deleted_meanwhile(document):
        if source_id not in course.deleted_source_ids:
            course.deleted_source_ids.append(source_id)
            course.save(update_fields=["deleted_source_ids"])
    part = f"chapter {job.chapter}" if job.part == Part.CHAPTER else job.part
    course = versions.record_version(
        course=course, document=document, source=CourseVersion.Source.REGENERATED, changed=part
    )
    job.status, job.progress, job.finished_at = Status.COMPLETED, 100, timezone.now()
    job.save(update_fields=["status", "progress", "finished_at"])
    checkpoints.clear(job_id=job.pk)
    if job.callback_url:
        webhook_services.record_event(
            account=job.api_key.account,
            url=job.callback_url,
            payload={
                "event": "course.updated",
                "jobId": job.public_id,
                "course": CourseOutput(course).data,
                "version": course.version,
            },
            subject=course.public_id,
        )
    return course


def _deleted_meanwhile(document: dict) -> list[str]:
    """
    The sources of a document about to be stored that have been deleted since generation began. The
    rows of those left are locked until the transaction ends, so a source deleted from now on finds
    the course (_mark_courses_built_from) and marks it.
    """
    named = [source["id"] for source in document.get("sources") or []]
    if not named:
        return []
    left = set(
        Source.objects.select_for_update(no_key=True)
        .filter(public_id__in=named)
        .order_by("pk")  # every job locks sources in the same order
        .values_list("public_id", flat=True)
    )
    return [public_id for public_id in named if public_id not in left]


@receiver(source_signals.source_deleting)
def _refuse_while_a_job_builds_from(sender, *, source: Source, **kwargs) -> None:
    # A pending or running job reads the source to its end: deleting the source under it failed the
    # job and gave its credit back, so one credit could start generation after generation. Exact
    # when sent with the source's row held by the deletion: no job can be made from the source
    # then (a new job holds its sources first: sources_to_build_from, _sources_left), and a job
    # that has ended never runs again, so the answer read then holds until the deletion commits.
    job = (
        GenerationJob.objects.filter(job_sources__source=source, status__in=[Status.PENDING, Status.RUNNING])
        .order_by("created_at", "pk")
        .values_list("public_id", flat=True)
        .first()
    )
    if job is not None:
        raise source_services.SourceInUse(job)


@receiver(source_signals.source_deleting)
def _mark_courses_built_from(sender, *, source: Source, **kwargs) -> None:
    # The courses built from the source (the jobs that write parts of them again name the course's
    # own sources) show it as deleted from now on. Each is locked while its list grows. With
    # _deleted_meanwhile, no course stored while the source is deleted misses the mark.
    courses = (
        Course.objects.select_for_update(of=("self",))
        .filter(job__job_sources__source=source)
        .exclude(deleted_source_ids__contains=[source.public_id])
        .order_by("pk")
    )
    for course in courses:
        course.deleted_source_ids = [*course.deleted_source_ids, source.public_id]
        course.save(update_fields=["deleted_source_ids"])


@transaction.atomic(durable=True)
def fail_job(*, job_id: int, attempt: int | None, code: str, message: str) -> bool:
    """
    Fail the job, give its credit back and record its course.failed event. With `attempt`, only
    if that attempt still owns the job (0: only if no attempt has started it). Return whether the
    job was failed by this call.
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
    checkpoints.clear(job_id=job.pk)
    if job.charged_period_date:
        account_services.refund_credit(account_id=job.api_key.account_id, period_date=job.charged_period_date)
    if job.callback_url:
        webhook_services.record_event(
            account=job.api_key.account,
            url=job.callback_url,
            payload={"event": "course.failed", "jobId": job.public_id, "error": JobErrorOutput(job).data},
        )
    return True


# Recovering lost work -------------------------------------------------------------------------


def recover_jobs() -> dict[str, int]:
    """
    Find jobs that nobody is working on and set them going again, or fail them when they can't be:
    a pending job whose message was lost is sent again; a running job whose worker died (no
    heartbeat for GENERATION_HEARTBEAT_TIMEOUT_S) is run again, until MAX_ATTEMPTS workers died on
    it, then failed; a job pending for too long is failed. Return counts for the log.
    """
    now = timezone.now()
    counts = {"resent": 0, "retried": 0, "failed": 0}

    for job_id in GenerationJob.objects.filter(
        status=Status.PENDING, created_at__lt=now - datetime.timedelta(seconds=settings.JOB_PENDING_MAX_S)
    ).values_list("pk", flat=True):
        # Unless a worker started it meanwhile: its message came late, behind a backlog.
        counts["failed"] += fail_job(
            job_id=job_id, attempt=0, code="GENERATION_TIMEOUT", message=_NOT_STARTED_MESSAGE
        )

    # A job whose message was never sent (the broker was down) is sent as soon as it can be; one
    # sent but not started is taken for lost after the same bound as webhooks' (core.queue.lost_after):
    # longer while messages wait in the queue, where it is most likely waiting its turn, but never
    # only once the queue is empty, which under a steady backlog it never is.
    wait = queue.lost_after(settings.CELERY_TASK_DEFAULT_QUEUE, usually=LOST_MESSAGE_AFTER)
    if wait is not None:
        lost = Q(enqueued_at__isnull=True) | Q(enqueued_at__lt=now - wait)
        lost_jobs = GenerationJob.objects.filter(lost, status=Status.PENDING)
        for job_id, enqueued_at in lost_jobs.values_list("pk", "enqueued_at"):
            # Claimed first, by a conditional update, so that of two sweeps at once only one sends it
            # (sending twice would be harmless all the same: only one worker can claim a pending job).
            claim = GenerationJob.objects.filter(pk=job_id, status=Status.PENDING, enqueued_at=enqueued_at)
            if not claim.update(enqueued_at=now):
                continue
            if queue.enqueue(tasks.run_generation, job_id=job_id):
                counts["resent"] += 1
            else:  # not sent: lost again, for the next sweep
                GenerationJob.objects.filter(pk=job_id, enqueued_at=now).update(enqueued_at=enqueued_at)

    # A job nobody holds: its worker's heartbeat stopped (the worker died), or it was handed back and
    # its message lost. It runs again from its last finished step, unless workers died on it too often.
    LEASE.run_again_or_fail(
        now=now, counts=counts,
        send=lambda job_id: queue.enqueue(tasks.run_generation, job_id=job_id),
        fail=lambda job_id, attempt: fail_job(
            job_id=job_id, attempt=attempt, code="GENERATION_FAILED", message=_INTERRUPTED_MESSAGE
        ),
    )
    return counts


_NOT_STARTED_MESSAGE = "The course could not be started in time. Please try again."
_INTERRUPTED_MESSAGE = "Course generation was interrupted. Please try again."
