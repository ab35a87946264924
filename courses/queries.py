from django.db.models import OuterRef, Subquery

from accounts.models import ApiKey
from accounts.queries import key_and_kept_row, key_and_row, key_lookup, live_key
from config.ids import looks_like_public_id
from config.sql import Lookup, Table
from courses.models import Course, CourseVersion, Export, GenerationJob

# Every poll: the key (accounts.queries) with its job and what the answer shows of the job's course
# (not the course's content), one query compiled once (config/sql.py), or none while this process
# keeps both (config/row_cache.py). The job is found by its id alone and kept for whichever key asks;
# only the key that created it sees it.
_SHOWN = ("public_id", "name", "headline", "format", "language_id", "created_at", "version")
_JOB_ANSWERED = ("public_id", "api_key", "status", "progress", "error_code", "error_message", "part",
                 "regenerated_course")
_JOB_TABLES = (
    Table(GenerationJob, "j", only=_JOB_ANSWERED),
    Table(Course, "c", only=_SHOWN, parent="j", relation="course"),  # the course a job made
    Table(Course, "r", only=_SHOWN, parent="j", relation="regenerated_course"),  # or generates again
)
_COURSES_OF_JOB = (
    'LEFT JOIN "courses_course" c ON c."job_id" = j."id" '
    'LEFT JOIN "courses_course" r ON r."id" = j."regenerated_course_id" '
)
_JOB = Lookup(*_JOB_TABLES, joins=_COURSES_OF_JOB + 'WHERE j."public_id" = %(job_id)s')
_KEY_WITH_JOB = key_lookup(
    *_JOB_TABLES, joins='LEFT JOIN "courses_generationjob" j ON j."public_id" = %(job_id)s ' + _COURSES_OF_JOB
)


def key_with_job(*, key_hash: str, job_public_id: str) -> tuple[ApiKey | None, GenerationJob | None]:
    """
    The live key with this SHA-256 (as accounts.queries.live_key) and, if that key created it, the
    job with this id with its course's public fields: one query at most.
    """
    if not looks_like_public_id(job_public_id, "job_"):  # another shape: no job
        return live_key(key_hash=key_hash), None
    api_key, job = key_and_kept_row(
        _KEY_WITH_JOB, _JOB, "j", key_hash=key_hash, kept_as=("job", job_public_id), job_id=job_public_id
    )
    return api_key, job if api_key is not None and job is not None and job.api_key_id == api_key.pk else None


def course_visible_to(*, api_key: ApiKey, public_id: str) -> Course | None:
    """The course with this id if this key created it."""
    if not looks_like_public_id(public_id, "cou_"):
        return None
    return Course.objects.filter(api_key=api_key, public_id=public_id).first()


# Reading a course: everything but its document, which is read only when its JSON is not stored.
_SUMMARY = Table(Course, "c", only=tuple(field.name for field in Course._meta.concrete_fields if field.name != "content"))
_COURSE = Lookup(_SUMMARY, joins='WHERE c."public_id" = %s AND c."api_key_id" = %s')
_KEY_WITH_COURSE = key_lookup(
    _SUMMARY, joins='LEFT JOIN "courses_course" c ON c."public_id" = %(course_id)s AND c."api_key_id" = k."id" '
)


def course_summary_visible_to(*, api_key: ApiKey, public_id: str) -> Course | None:
    """The course with this id if this key created it, its document left to load on first use: one query."""
    if not looks_like_public_id(public_id, "cou_"):
        return None
    found = _COURSE.one(public_id, api_key.pk)
    return None if found is None else found["c"]


def key_with_course_summary(*, key_hash: str, course_public_id: str) -> tuple[ApiKey | None, Course | None]:
    """
    The live key with this SHA-256 (as accounts.queries.live_key) and, if that key created it, the
    course with this id as `course_summary_visible_to` has it: one query.
    """
    course_id = course_public_id if looks_like_public_id(course_public_id, "cou_") else None  # no course
    return key_and_row(_KEY_WITH_COURSE, "c", key_hash=key_hash, course_id=course_id)


def export_to_download(*, public_id: str) -> Export | None:
    """
    The export with this id and its course, and `packaged_name`: the course's name in the version
    the package holds, which names the download however the course is renamed since. One query.
    """
    name_then = CourseVersion.objects.filter(course=OuterRef("course"), number=OuterRef("version"))
    return (
        Export.objects.select_related("course")
        .annotate(packaged_name=Subquery(name_then.values("content__name")[:1]))
        .filter(public_id=public_id)
        .first()
    )
