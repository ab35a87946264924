from accounts.models import ApiKey
from core.ids import looks_like_public_id
from core.lookups import one_or_none
from courses.models import Course, GenerationJob

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
