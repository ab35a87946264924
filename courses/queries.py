from accounts.models import ApiKey
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
    shown = [f"{relation}__{field}" for relation in ("course", "regenerated_course") for field in _COURSE_SHOWN]
    jobs = GenerationJob.objects.select_related("course", "regenerated_course").only(
        "public_id", "api_key", "status", "progress", "error_code", "error_message", "part", "regenerated_course",
        *shown,
    )
    return one_or_none(jobs.filter(api_key=api_key, public_id=public_id))


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
