from accounts.models import ApiKey
from config.ids import looks_like_public_id
from config.sql import Lookup, Table
from courses.models import Course, GenerationJob


# Every poll: the job with what the answer shows of its course (not the course's content), one
# query compiled once (config/sql.py).
_JOB_WITH_COURSE = Lookup(
    Table(GenerationJob, "j"),
    Table(Course, "c", only=("public_id", "name", "headline", "format", "language_id", "created_at")),
    joins='LEFT JOIN "courses_course" c ON c."job_id" = j."id" WHERE j."public_id" = %s AND j."api_key_id" = %s',
    relations=("course",),
)


def job_visible_to(*, api_key: ApiKey, public_id: str) -> GenerationJob | None:
    """The job with this id if this key created it, with its course's public fields: one query."""
    if not looks_like_public_id(public_id, "job_"):
        return None
    found = _JOB_WITH_COURSE.one(public_id, api_key.pk)
    return None if found is None else found[0]


def course_visible_to(*, api_key: ApiKey, public_id: str) -> Course | None:
    """The course with this id if this key created it."""
    if not looks_like_public_id(public_id, "cou_"):
        return None
    return Course.objects.filter(api_key=api_key, public_id=public_id).first()
