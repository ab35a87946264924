"""Sources: accepting documents, reading them in the background, and deleting them."""

import contextlib
import datetime
import logging
import os
import tempfile

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.files.base import ContentFile, File
from django.db import transaction
from django.db.models import Q, Sum
from django.utils import timezone

from accounts.models import Account, ApiKey
from core import errors, files, leases, queue
from core.outbound import transport, urls
from sources import failures, language, names, queries, signals, tasks
from sources.extraction import document as extraction
from sources.extraction import isolation, matter, passages, sandbox, sniff
from sources.models import Passage, Source
from sources.serializers import source_output
from webhooks import services as webhook_services

logger = logging.getLogger(__name__)

Status = Source.Status

# A document holding more text than this fails with SOURCE_TOO_LARGE (a 500-page book holds about
# 1.5 million characters).
MAX_CHARACTERS = 5_000_000
# A source is read at most this many times: once, and twice more if its worker died (a web source's
# fetched file is kept, so a new attempt reads it without fetching again). Hand-backs do not count.
MAX_ATTEMPTS = 3
# A source is read by one worker at a time; it stays pending while read, started once claimed.
LEASE = leases.Lease(
    model=Source,
    waiting=Q(status=Status.PENDING, started_at__isnull=True),
    started=Q(status=Status.PENDING, started_at__isnull=False),
    max_attempts=MAX_ATTEMPTS,
)
# How long after its message was sent a pending source is taken for lost and sent again.
LOST_MESSAGE_AFTER = datetime.timedelta(minutes=2)
USER_AGENT = "CourseGenerationService-Sources/1.0"
FETCH_FAILED, STORAGE_LIMIT, STORE_UNAVAILABLE = failures.FETCH_FAILED, failures.STORAGE_LIMIT, failures.STORE_UNAVAILABLE
_EXTENSIONS = {
    sniff.PDF: ".pdf",
    sniff.DOCX: ".docx",
    sniff.PPTX: ".pptx",
    sniff.HTML: ".html",
    sniff.MARKDOWN: ".md",
    sniff.TEXT: ".txt",
}


class SourceNotFound(errors.NotFound):
    message = "Source not found."


class SourceInUse(errors.AppError):
    status, code = 409, "SOURCE_IN_USE"

    def __init__(self, job_public_id: str):
        super().__init__(
            f"Job {job_public_id} builds from this source: delete the source once that job has ended."
        )


class UnsupportedMediaType(errors.AppError):
    status, code = 400, "UNSUPPORTED_MEDIA_TYPE"
    message = "The file is not a PDF, DOCX, PPTX, HTML, Markdown or plain text document."


class EmptyFile(errors.ValidationError):
    def __init__(self):
        super().__init__("The file is empty.", field="file")


class FileTooLarge(errors.AppError):
    status, code = 413, "PAYLOAD_TOO_LARGE"

    def __init__(self):
        super().__init__(f"The file is larger than {settings.SOURCE_MAX_BYTES} bytes (SOURCE_MAX_BYTES).")


class StorageLimitExceeded(errors.AppError):
    status, code = 403, STORAGE_LIMIT

    def __init__(self, plan_name: str, allowance_mb: int):
        super().__init__(
            f"Storage limit for sources exceeded for your plan ({plan_name}, {allowance_mb} MB): "
            "delete sources you no longer need, or upgrade."
        )


# Accepting sources ----------------------------------------------------------------------------


def create_source_from_upload(*, api_key: ApiKey, upload, name: str = "", callback_url: str = "") -> Source:
    """
    Store an uploaded document and read it in the background.
    :raises FileTooLarge: over SOURCE_MAX_BYTES
    :raises EmptyFile: for a file of no bytes
    :raises UnsupportedMediaType: if its content is none of the kinds read
    :raises StorageLimitExceeded: if it does not fit in the plan's storage for sources
    """
    if upload.size > settings.SOURCE_MAX_BYTES:
        raise FileTooLarge()
    if upload.size == 0:
        raise EmptyFile()
    with _local_path(upload) as path:
        media_type = sniff.sniff(path)
    if media_type is None:
        raise UnsupportedMediaType()
    account = api_key.account
    _check_storage(account=account, adding=upload.size)
    source = Source(
        api_key=api_key,
        name=name or _name_from_file_name(upload.name) or "Untitled",
        media_type=media_type,
        bytes=upload.size,
        callback_url=callback_url,
    )
    upload.seek(0)
    # The file is written before the row (a row never points at a missing file) and removed again
    # if the row does not commit.
    with files.reaching_store("store a source"):
        source.file.save(f"{source.public_id}{_EXTENSIONS[media_type]}", File(upload), save=False)
    try:
        with transaction.atomic(durable=True):
            _check_storage(account=account, adding=upload.size, lock=True)
            source.enqueued_at = timezone.now()
            source.save()
            queue.enqueue_on_commit(tasks.extract_source, source_id=source.pk)
    except BaseException:
        files.discard(source.file)
        raise
    return source


@transaction.atomic(durable=True)
def create_source_from_url(*, api_key: ApiKey, url: str, name: str = "", callback_url: str = "") -> Source:
    """
    Fetch the page or file at `url` and read it, in the background.
    :raises StorageLimitExceeded: if the plan's storage for sources is already full
    """
    _check_storage(account=api_key.account, adding=1, lock=True)
    url = lower_case_scheme(url)
    source = Source.objects.create(
        api_key=api_key, url=url, name=name or names.name_from_url(url), callback_url=callback_url,
        enqueued_at=timezone.now(),
    )
    queue.enqueue_on_commit(tasks.extract_source, source_id=source.pk)
    return source


def lower_case_scheme(url: str) -> str:
    """
    The URL with its scheme in lower case, as a course's document writes a source's URL (`HTTPS://`
    is the same address, and a client may send it so): a course built from a source whose URL was
    kept as sent could not be stored.
    """
    scheme, separator, rest = url.partition("://")
    return scheme.lower() + separator + rest


def storage_used(*, account: Account) -> int:
    """Bytes of the account's stored sources (pending and ready ones: failed ones keep no file)."""
    used = Source.objects.filter(api_key__account=account, status__in=[Status.PENDING, Status.READY]).aggregate(
        total=Sum("bytes")
    )["total"]
    return used or 0


def _check_storage(*, account: Account, adding: int, lock: bool = False) -> None:
    if lock:
        # Uploads of one account take turns here, so two cannot both squeeze into the last megabytes.
        account = Account.objects.select_for_update().select_related("plan").get(pk=account.pk)
    allowance = account.plan.source_storage_mb * 1024 * 1024
    if storage_used(account=account) + adding > allowance:
        raise StorageLimitExceeded(account.plan.name, account.plan.source_storage_mb)


@contextlib.contextmanager
def _local_path(upload):
    # Large uploads are already on disk; small ones are held in memory and written out for reading.
    if hasattr(upload, "temporary_file_path"):
        yield upload.temporary_file_path()
        return
    with tempfile.NamedTemporaryFile(prefix="source-") as copy:
        upload.seek(0)
        for chunk in upload.chunks():
            copy.write(chunk)
        copy.flush()
        yield copy.name


def _name_from_file_name(file_name: str | None) -> str:
    base = os.path.basename((file_name or "").replace("\\", "/"))
    return extraction.clean_text(base)[:200]


# Reading sources ------------------------------------------------------------------------------


def read_source(*, source_id: int, worker: str = "") -> None:
    """
    Fetch (web sources) and read the source if this worker can claim it, then record the outcome:
    ready with its passages, or failed with a code. A source already finished, deleted or being
    read by a live worker is left alone.
    """
    sandbox_state = isolation.check()
    if not sandbox_state.available and settings.SOURCE_SANDBOX == "required":
        # Left pending, unclaimed: recovery sends it again, and a worker that can confine reads it.
        logger.error(
            "source left unread: no sandbox here, and SOURCE_SANDBOX=required",
            extra={"source_id": source_id, "reason": sandbox_state.reason},
        )
        return
    attempt = LEASE.claim(source_id, worker=worker)
    if attempt is None:
        return
    with LEASE.holding(source_id, attempt=attempt):
        _read(source_id=source_id, attempt=attempt, confined=sandbox_state.available)


def sandbox_detail() -> dict:
    """
    How this machine reads documents, for operators (/readyz, a worker's start): `confined` in the
    sandbox; else `unconfined` (SOURCE_SANDBOX=optional) or `refused` (required), with the reason.
    """
    state = isolation.check()
    if state.available:
        return {"reading": "confined", "seccomp": state.seccomp}
    reading = "refused" if settings.SOURCE_SANDBOX == "required" else "unconfined"
    return {"reading": reading, "reason": state.reason}


def _read(*, source_id: int, attempt: int, confined: bool) -> None:
    try:
        source = Source.objects.select_related("api_key__account__plan").get(pk=source_id)
        if source.url and not source.file:
            _fetch(source)
        with _stored_copy(source) as path:
            document = sandbox.extract(
                path=path,
                media_type=source.media_type,
                max_pages=settings.SOURCE_MAX_PAGES,
                max_characters=MAX_CHARACTERS,
                timeout_s=settings.SOURCE_EXTRACTION_TIMEOUT_S,
                memory_mb=settings.SOURCE_EXTRACTION_MEMORY_MB,
                confined=confined,
            )
        split = passages.split(document)
        detected = language.detect(split.text)
        _complete(source_id=source_id, attempt=attempt, document=document, split=split, detected=detected)
    except Source.DoesNotExist:
        return  # deleted meanwhile
    except extraction.ExtractionError as exc:
        _fail(source_id=source_id, attempt=attempt, code=exc.code, message=exc.message)
    except files.StoreUnavailable:
        _fail(source_id=source_id, attempt=attempt, code=STORE_UNAVAILABLE, message=_STORE_UNAVAILABLE)
    except SoftTimeLimitExceeded:
        _fail(source_id=source_id, attempt=attempt, code=extraction.TOO_LARGE, message=_TOOK_TOO_LONG)
    except Exception:
        logger.exception("reading a source failed", extra={"source_id": source_id})
        _fail(source_id=source_id, attempt=attempt, code=extraction.UNREADABLE, message=_UNREADABLE)


_TOOK_TOO_LONG = "Reading the document took too long."
_UNREADABLE = "The document could not be read."
_STORE_UNAVAILABLE = "The service could not reach its file store to read the document. Please add it again."
_INTERRUPTED = "Reading the document was interrupted too often. Please try again."


@leases.on_worker_stop
def hand_back_sources(worker: str) -> int:
    """Give back the sources this stopping worker reads, to be read again at once. Return how many."""
    return LEASE.hand_back(worker=worker, send=lambda source_id: queue.enqueue(tasks.extract_source, source_id=source_id))


def _fetch(source: Source) -> None:
    """Fetch a web source's content and store it as its file. :raises ExtractionError:"""
    try:
        download = transport.get(
            url=source.url,
            max_bytes=settings.SOURCE_MAX_BYTES,
            timeout=settings.SOURCE_FETCH_TIMEOUT_S,
            user_agent=f"{USER_AGENT} (+{settings.PUBLIC_BASE_URL})",
        )
    except urls.UnsafeDestination as exc:
        raise extraction.ExtractionError(FETCH_FAILED, f"The URL was not fetched: {exc}") from None
    except transport.ResponseTooLarge:
        raise extraction.ExtractionError(
            extraction.TOO_LARGE, f"The URL's content is larger than {settings.SOURCE_MAX_BYTES} bytes."
        ) from None
    except transport.FetchFailed as exc:
        raise extraction.ExtractionError(FETCH_FAILED, str(exc)) from None
    if not download.content:
        raise extraction.ExtractionError(extraction.NO_TEXT, "The URL answered with no content.")
    with tempfile.NamedTemporaryFile(prefix="source-") as copy:
        copy.write(download.content)
        copy.flush()
        media_type = sniff.sniff(copy.name)
    if media_type is None:
        raise extraction.ExtractionError(extraction.UNSUPPORTED, UnsupportedMediaType.message)
    account = source.api_key.account
    try:
        _check_storage(account=account, adding=len(download.content))
    except StorageLimitExceeded as exc:
        raise extraction.ExtractionError(STORAGE_LIMIT, exc.message) from None
    # As an upload: the file before the row, and the row written holding the account, so that
    # sources stored at the same instant are counted each.
    with files.reaching_store("store a fetched source"):
        source.file.save(f"{source.public_id}{_EXTENSIONS[media_type]}", ContentFile(download.content), save=False)
    try:
        with transaction.atomic():
            _check_storage(account=account, adding=len(download.content), lock=True)
            updated = Source.objects.filter(pk=source.pk).update(
                file=source.file.name, media_type=media_type, bytes=len(download.content)
            )
    except BaseException as exc:
        files.discard(source.file)
        if isinstance(exc, StorageLimitExceeded):
            raise extraction.ExtractionError(STORAGE_LIMIT, exc.message) from None
        raise
    if not updated:  # deleted while we fetched
        files.discard(source.file)
        raise Source.DoesNotExist()
    source.media_type, source.bytes = media_type, len(download.content)


@contextlib.contextmanager
def _stored_copy(source: Source):
    # The child reads a local file; storage may be an object store, so the file is copied out.
    with tempfile.NamedTemporaryFile(prefix="source-", suffix=_EXTENSIONS.get(source.media_type, "")) as copy:
        try:
            with files.reaching_store("read a source"), source.file.open("rb") as stored:
                for chunk in stored.chunks():
                    copy.write(chunk)
        except FileNotFoundError:
            # Stored by a machine whose disk this one cannot see: many machines without an object store.
            logger.error("stored source missing", extra={"source_id": source.pk})
            raise files.StoreUnavailable() from None
        copy.flush()
        yield copy.name


@transaction.atomic(durable=True)
def _complete(*, source_id: int, attempt: int, document, split, detected: language.Detected) -> Source | None:
    source = (
        Source.objects.select_for_update(of=("self",), no_key=True)
        .select_related("api_key__account")
        .filter(pk=source_id, status=Status.PENDING, attempts=attempt)
        .first()
    )
    if source is None:
        return None  # deleted, or another attempt took over
    matter_kinds = matter.kinds(split)
    Passage.objects.bulk_create(
        [
            Passage(
                source=source,
                ordinal=ordinal,
                heading_path=passage.heading_path,
                page=passage.page,
                page_end=passage.page_end,
                page_breaks=passage.page_breaks,
                char_start=passage.start,
                char_end=passage.end,
                text=split.text[passage.start : passage.end],
                words=passage.words,
                matter=kind or "",
            )
            for ordinal, (passage, kind) in enumerate(zip(split.passages, matter_kinds, strict=True))
        ],
        batch_size=500,
    )
    queries.index_passages(source_id=source.pk, config=detected.config)
    source.title = document.title or ""
    source.pages = document.pages
    source.outline = [{"title": h.title, "level": h.level, "page": h.page} for h in split.outline]
    source.matter = matter.parts(split.passages, matter_kinds)
    source.language = detected.code
    source.search_config = detected.config
    source.text = split.text
    source.status = Status.READY
    source.finished_at = timezone.now()
    source.save()
    if source.callback_url:
        webhook_services.record_event(
            account=source.api_key.account,
            url=source.callback_url,
            payload={"event": "source.ready", "source": source_output(source)},
            subject=source.public_id,
        )
    return source


@transaction.atomic(durable=True)
def _fail(*, source_id: int, attempt: int | None, code: str, message: str) -> bool:
    sources = Source.objects.select_for_update(of=("self",), no_key=True).select_related("api_key__account")
    sources = sources.filter(pk=source_id, status=Status.PENDING)
    if attempt is not None:
        sources = sources.filter(attempts=attempt)
    source = sources.first()
    if source is None:
        return False
    stored = source.file.name
    source.status, source.error_code, source.error_message = Status.FAILED, code, message[:1000]
    source.finished_at = timezone.now()
    # A document that could not be read is not kept: nothing will use it, and it may be hostile.
    source.file = ""
    source.save()
    if stored:  # the source has failed, whether or not the store lets the file go
        files.remove_after_commit(source.file.storage, stored)
    if source.callback_url:
        webhook_services.record_event(
            account=source.api_key.account,
            url=source.callback_url,
            payload={"event": "source.failed", "source": source_output(source)},
            subject=source.public_id,
        )
    return True


# Deleting sources -----------------------------------------------------------------------------


@transaction.atomic(durable=True)
def delete_source(*, api_key: ApiKey, public_id: str) -> None:
    """
    Delete the source, its file, its text and its passages (with their search index entries). Courses
    built from it keep their text and citations, and show the source as deleted.
    :raises SourceNotFound: if no source with this id belongs to this key
    :raises SourceInUse: while a job that builds from it is pending or running (courses.jobs)
    """
    source = queries.source_visible_to(api_key=api_key, public_id=public_id)
    if source is None:
        raise SourceNotFound()
    # What was made from it (courses) is locked first, then the source: the order in which a part of
    # a course generated again holds its course and then its sources, so neither waits on the other.
    # A course stored meanwhile held the source until it was committed: it is marked once the
    # source is ours. A receiver refuses while a job builds from the source (SourceInUse); only
    # its answer once the source is ours is exact, since no job can be made from it after that.
    signals.source_deleting.send(sender=Source, source=source)
    source = queries.source_visible_to(api_key=api_key, public_id=public_id, for_update=True)
    if source is None:  # deleted meanwhile
        raise SourceNotFound()
    signals.source_deleting.send(sender=Source, source=source)
    webhook_services.delete_events_about([source.public_id])  # source.ready names its title and headings
    stored, storage = source.file.name, source.file.storage
    source.delete()  # passages go with it (ON DELETE CASCADE in one statement per table)
    if stored:  # the source is gone once the row is, whether or not the store lets the file go
        files.remove_after_commit(storage, stored)


# Recovering lost work -------------------------------------------------------------------------


def recover_sources() -> dict[str, int]:
    """
    Set going again the sources nobody is reading: a pending one whose message was lost is sent
    again; one whose worker died (no heartbeat for GENERATION_HEARTBEAT_TIMEOUT_S) is read again,
    until MAX_ATTEMPTS workers died on it, then failed. Return counts for the log.
    """
    now = timezone.now()
    counts = {"resent": 0, "retried": 0, "failed": 0}
    # Lost after the bound jobs and webhooks use (core.queue.lost_after): longer while messages wait
    # in the queue, but not only once it is empty, which under a steady backlog it never is.
    wait = queue.lost_after(settings.CELERY_TASK_DEFAULT_QUEUE, usually=LOST_MESSAGE_AFTER)
    if wait is not None:
        lost = Source.objects.filter(status=Status.PENDING, started_at__isnull=True, enqueued_at__lt=now - wait)
        for source_id, enqueued_at in lost.values_list("pk", "enqueued_at"):
            # Claimed by a conditional update: of two sweeps at once, only the one that changed it sends it.
            if lost.filter(pk=source_id, enqueued_at=enqueued_at).update(enqueued_at=now):
                queue.enqueue(tasks.extract_source, source_id=source_id)
                counts["resent"] += 1
    LEASE.run_again_or_fail(
        now=now, counts=counts,
        send=lambda source_id: queue.enqueue(tasks.extract_source, source_id=source_id),
        fail=lambda source_id, attempt: _fail(
            source_id=source_id, attempt=attempt, code=extraction.UNREADABLE, message=_INTERRUPTED
        ),
    )
    return counts
