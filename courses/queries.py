import datetime

from accounts.models import ApiKey
from api import pagination
from core import metrics
from core.ids import looks_like_public_id
from core.lookups import one_or_none
from courses.models import Course, GenerationJob
from courses.quality import coverage
from sources.models import Passage

# What a poll shows of a job's course (not its document, which can weigh a megabyte).
_COURSE_SHOWN = ("public_id", "name", "headline", "format", "language_id", "created_at")


def job_visible_to(*, api_key: ApiKey, public_id: str) -> GenerationJob | None:
    """The job with this id if this key created it, with the public fields of its course: one query."""
    if not looks_like_public_id(public_id, "job_"):
        return None
    return one_or_none(_jobs_as_polled().filter(api_key=api_key, public_id=public_id))


def jobs_of(*, api_key: ApiKey, status: str | None = None, cursor: str | None = None, limit: int = 20) -> pagination.Page:
    """The key's jobs, newest first, `limit` at a time after `cursor`, as a poll shows each: one query."""
    jobs = _jobs_as_polled().filter(api_key=api_key)
    if status is not None:
        jobs = jobs.filter(status=status)
    return pagination.newest_first(jobs, cursor=cursor, limit=limit)


def _jobs_as_polled():
    """Jobs with what a poll shows: their own state and the public fields of their course."""
    shown = [f"{relation}__{field}" for relation in ("course", "regenerated_course") for field in _COURSE_SHOWN]
    return GenerationJob.objects.select_related("course", "regenerated_course").only(
        "public_id", "api_key", "status", "progress", "error_code", "error_message", "part", "regenerated_course",
        "created_at", *shown,
    )


def courses_of(
    *, api_key: ApiKey, language_id: str | None = None, created_after: datetime.datetime | None = None,
    cursor: str | None = None, limit: int = 20,
) -> pagination.Page:
    """The key's courses without their documents, newest first, `limit` at a time after `cursor`: one query."""
    courses = Course.objects.only(*_COURSE_SHOWN, "api_key", "version", "updated_at").filter(api_key=api_key)
    if language_id is not None:
        courses = courses.filter(language_id=language_id)
    if created_after is not None:
        courses = courses.filter(created_at__gt=created_after)
    return pagination.newest_first(courses, cursor=cursor, limit=limit)


def course_visible_to(*, api_key: ApiKey, public_id: str) -> Course | None:
    """The course with this id if this key created it."""
    if not looks_like_public_id(public_id, "cou_"):
        return None
    return one_or_none(Course.objects.filter(api_key=api_key, public_id=public_id))


def course_summary_visible_to(*, api_key: ApiKey, public_id: str) -> Course | None:
    """The course with this id if this key created it, its document left to load on first use: one query."""
    if not looks_like_public_id(public_id, "cou_"):
        return None
    return one_or_none(Course.objects.defer("content").filter(api_key=api_key, public_id=public_id))


def source_sections(document: dict) -> tuple[coverage.Section, ...]:
    """The body's sections of the sources a stored course document names, in document order: one query."""
    source_ids = [
        source["id"]
        for source in document.get("sources") or ()
        if isinstance(source, dict) and "id" in source
    ]
    if not source_ids:
        return ()
    rows = (
        Passage.objects.filter(source__public_id__in=source_ids, matter="")
        .order_by("source_id", "ordinal")
        .values_list("source__public_id", "public_id", "heading_path", "words")
    )
    found: dict[tuple[str, tuple], dict[str, int]] = {}
    for source_id, passage_id, heading_path, words in rows:
        found.setdefault((source_id, tuple(heading_path or ())[: coverage.DEPTH]), {})[passage_id] = words
    return tuple(
        coverage.Section(
            source_id=source_id,
            title=path[-1] if path else "",
            passage_ids=frozenset(passages),
            words=sum(passages.values()),
        )
        for (source_id, path), passages in found.items()
    )


def jobs_by_status() -> dict[str, int]:
    """How many jobs there are in each status, for /metrics: one query."""
    return metrics.counted_by(GenerationJob.objects, "status", GenerationJob.Status.values)
