"""Reads of learners: a course's results, a page at a time, with the filters of the results endpoint."""

import dataclasses
import datetime

from django.db.models import Count, Q

from accounts.models import ApiKey
from config import cursors
from courses import queries as course_queries
from courses import versions
from courses.models import Course
from learners.models import Learner


@dataclasses.dataclass(frozen=True)
class ResultsPage:
    course: Course
    learners: list[Learner]
    next_cursor: str | None


def results_of(
    course: Course,
    *,
    completed: bool | None = None,
    passed: bool | None = None,
    since: datetime.datetime | None = None,
    cursor: str | None = None,
    limit: int = 100,
) -> ResultsPage:
    """
    The course's learners, newest first, `limit` at a time (config/cursors.py): one query.
    `completed`: only those who completed (True) or not (False); `passed`: only those who passed
    (True) or who tried and have not passed (False); `since`: only those whose record changed at
    or after that moment.
    """
    page = cursors.newest_first(_filtered(course, completed=completed, passed=passed, since=since),
                                cursor=cursor, limit=limit)
    for learner in page.rows:
        learner.course = course
    return ResultsPage(course=course, learners=page.rows, next_cursor=page.next_cursor)


def course_of(*, api_key: ApiKey, public_id: str) -> Course:
    """
    The course with this id if this key created it, without its document: one query.
    :raises CourseNotFound: otherwise
    """
    course = course_queries.course_summary_visible_to(api_key=api_key, public_id=public_id)
    if course is None:
        raise versions.CourseNotFound()
    return course


def summary_of(course: Course) -> dict[str, int]:
    """How many learners the course has, completed, passed and signed: one query."""
    return Learner.objects.filter(course=course).aggregate(
        learners=Count("id"),
        completed=Count("id", filter=Q(completed_at__isnull=False)),
        passed=Count("id", filter=Q(passed=True)),
        signed=Count("id", filter=Q(signed_at__isnull=False)),
    )


def every_result_of(course: Course):
    """All of the course's learners, newest first, read in chunks (for a whole CSV)."""
    for learner in Learner.objects.filter(course=course).order_by("-created_at", "-id").iterator(chunk_size=1000):
        learner.course = course
        yield learner


def _filtered(course: Course, *, completed, passed, since):
    learners = Learner.objects.filter(course=course)
    if completed is not None:
        learners = learners.filter(completed_at__isnull=not completed)
    if passed is not None:
        learners = learners.filter(passed=passed)
    if since is not None:
        learners = learners.filter(updated_at__gte=since)
    return learners
