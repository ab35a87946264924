"""Reads of learners: a course's results, a page at a time, with the filters of the results endpoint."""

import dataclasses
import datetime

from django.db import connection
from django.db.models import Count, Q

from accounts.models import ApiKey
from api import pagination
from courses import queries as course_queries
from courses import versions
from courses.models import Course
from learners.models import Learner

# A results cursor is a position in the list (api/pagination.py) and the read's `next_since`, in
# microseconds since 1970, which every page of one read gives. (A cursor of a position alone, from
# before reads gave `next_since`, is refused: a `next_since` of a later page could miss a change.)
CURSOR_PATTERN = pagination.PATTERN.removesuffix("$") + "_[0-9]{1,16}$"

# How far behind the database's clock a web process's may run: a row's `updated_at` is taken from
# the process's clock just before its write's transaction starts, so that much earlier than the
# transaction (with clocks kept in step, a few milliseconds).
CLOCK_MARGIN = datetime.timedelta(seconds=5)


@dataclasses.dataclass(frozen=True)
class ResultsPage:
    course: Course
    learners: list[Learner]
    next_cursor: str | None
    next_since: datetime.datetime


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
    The course's learners, newest first, `limit` at a time (api/pagination.py): one query, and on a
    read's first page one more before it for `next_since` (see changes_until).
    `completed`: only those who completed (True) or not (False); `passed`: only those who passed
    (True) or who tried and have not passed (False); `since`: only those whose record changed at
    or after that moment.
    """
    position = None
    if cursor:
        position, _, carried = cursor.rpartition("_")
        next_since = pagination.from_micros(int(carried))
    else:
        next_since = changes_until()
    page = pagination.newest_first(_filtered(course, completed=completed, passed=passed, since=since),
                                cursor=position, limit=limit)
    for learner in page.rows:
        learner.course = course
    next_cursor = None if page.next_cursor is None else f"{page.next_cursor}_{pagination.to_micros(next_since)}"
    return ResultsPage(course=course, learners=page.rows, next_cursor=next_cursor, next_since=next_since)


def changes_until() -> datetime.datetime:
    """
    A moment before which every change of a learner is committed, seen by a read that starts after
    this one: as `since` later, a client misses no change made while it read (one query).
    A write still under way may commit a row whose `updated_at` is earlier than a read that does not
    see it; so the moment is the start of the oldest transaction still open in the database (or
    now, if none is), less CLOCK_MARGIN. A write that begins later takes a later time. Rows changed
    meanwhile are given again, never missed; a transaction left open (a session of a person's) holds
    the moment back, and more rows are given again. The database's own processes (autovacuum) write
    no learner, and do not count.
    """
    with connection.cursor() as cursor:
        cursor.execute(
            'SELECT LEAST(statement_timestamp(), MIN(a."xact_start")) - %s FROM pg_stat_activity a '
            "WHERE a.\"datname\" = current_database() AND a.\"backend_type\" = 'client backend'",
            [CLOCK_MARGIN],
        )
        return cursor.fetchone()[0]


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


def every_result_of(course: Course, *, chunk_size: int = 1000):
    """All of the course's learners, newest first, read `chunk_size` at a time (for a whole CSV)."""
    # Each chunk is a query of its own, starting after the last row of the one before (the order of
    # the index learner_course_newest), rather than one server-side cursor: a cursor outlives its
    # transaction only on its own connection, which a transaction pooler gives to others between
    # two reads (docs/run/deployment.md, "Which pooler").
    learners = Learner.objects.filter(course=course).order_by("-created_at", "-id")
    chunk = list(learners[:chunk_size])
    while chunk:
        for learner in chunk:
            learner.course = course
            yield learner
        last = chunk[-1]
        after = Q(created_at__lt=last.created_at) | Q(created_at=last.created_at, id__lt=last.id)
        chunk = list(learners.filter(after)[:chunk_size]) if len(chunk) == chunk_size else []


def _filtered(course: Course, *, completed, passed, since):
    learners = Learner.objects.filter(course=course)
    if completed is not None:
        learners = learners.filter(completed_at__isnull=not completed)
    if passed is not None:
        learners = learners.filter(passed=passed)
    if since is not None:
        learners = learners.filter(updated_at__gte=since)
    return learners
