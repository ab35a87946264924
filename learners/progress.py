"""
What the preview page records of a learner. The page's script sends small batches (a page view,
the pages seen, time spent) and, apart, each quiz attempt, which the service scores; each is one
SQL statement, one write: it updates the learner's row, and with a quiz attempt inserts that too
(data-modifying WITH). A new learner's first write finds no row to update: it takes one of its
address's new learners for the minute, then a second statement makes the row. A sign-off is one
statement the same way. Every statement that makes a fact (started, an attempt, completed, signed)
marks the row for learners.events, which tells the client's receiver after the write. Whether a
write completes the course is learners.completion's rule.

The pages of a course, for progress and resume: 0 is the introduction (a classic course's
overview), 1 to n its chapters, n + 1 the closing page (wrap-up, assessment, agreement) when the
course has one of them. A onepage course numbers its sections the same way.
"""

import dataclasses
import datetime
import functools
import json
import math
import re

import psycopg
from django.conf import settings
from django.db import IntegrityError, connection
from django.utils import timezone

from core import errors, queue, ratelimit
from core.ids import looks_like_public_id
from courses import content as course_content
from learners import completion, identity
from learners.models import new_learner_id

# Limits of what a batch may say; the page sends far less.
MAX_BATCH_CHARACTERS = 4096
MAX_PAGES = 63  # pages_seen is a 64-bit integer; a course has at most 11 pages
MAX_SECONDS_PER_BATCH = 120  # the page sends every 15 seconds; more than this is not believed
MAX_QUESTIONS = 20
MAX_VERSION = 1_000_000
_ATTEMPT_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")


class CourseNotFound(errors.NotFound):
    message = "No such course."


class InvalidBatch(errors.ValidationError):
    message = "The progress batch is malformed."


class InvalidAttempt(errors.ValidationError):
    message = "The quiz attempt is malformed."


class TooManyRequests(errors.AppError):
    status, code, message = 429, "RATE_LIMIT_EXCEEDED", "Too much progress sent; try again in a minute."

    def __init__(self, decision: ratelimit.Decision):
        super().__init__()
        self.retry_after_seconds = decision.retry_after_seconds


def page_count(content: dict) -> int:
    """The pages of a course document (see the module's docstring)."""
    closing = any(content.get(part) for part in ("wrapup", "assessment", "agreement"))
    return 1 + len(content.get("chapters") or []) + (1 if closing else 0)


# Batches ---------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Batch:
    version: int  # of the course, as the page showed it
    page: int | None = None  # the page (or section) being read
    seen: frozenset[int] = frozenset()
    seconds: int = 0
    # The first batch of a page load: it asks where the learner left off, and a view of the
    # course's first page does not move that place.
    hello: bool = False
    answers: tuple[int | None, ...] | None = None  # a quiz attempt: the option chosen per question
    attempt: str | None = None  # the page's id of that attempt, the same when sent again


def parse_batch(raw) -> Batch:
    """
    The batch of progress a page sent (JSON in the form field `batch`).
    :raises InvalidBatch: for anything but the shape the page sends
    """
    data = _json_object(raw, keys={"version", "page", "seen", "seconds", "hello"}, error=InvalidBatch)
    seen = data.get("seen", [])
    if not isinstance(seen, list) or len(seen) > MAX_PAGES + 1:
        raise InvalidBatch()
    hello = data.get("hello", False)
    if not isinstance(hello, bool):
        raise InvalidBatch()
    return Batch(
        version=_whole(data.get("version"), 1, MAX_VERSION, InvalidBatch),
        page=None if data.get("page") is None else _whole(data["page"], 0, MAX_PAGES, InvalidBatch),
        seen=frozenset(_whole(page, 0, MAX_PAGES, InvalidBatch) for page in seen),
        seconds=min(_whole(data.get("seconds", 0), 0, 24 * 60 * 60, InvalidBatch), MAX_SECONDS_PER_BATCH),
        hello=hello,
    )


def parse_attempt(raw) -> Batch:
    """
    The quiz attempt a page sent (JSON in the form field `attempt`): the version the page showed,
    the option chosen per question (null for none), and the page's id of the attempt.
    :raises InvalidAttempt: for anything but that shape
    """
    data = _json_object(raw, keys={"version", "answers", "id"}, error=InvalidAttempt)
    answers = data.get("answers")
    if not isinstance(answers, list) or not 1 <= len(answers) <= MAX_QUESTIONS:
        raise InvalidAttempt()
    attempt = data.get("id")
    if attempt is not None and (not isinstance(attempt, str) or not _ATTEMPT_ID.fullmatch(attempt)):
        raise InvalidAttempt()
    return Batch(
        version=_whole(data.get("version"), 1, MAX_VERSION, InvalidAttempt),
        answers=tuple(None if a is None else _whole(a, 0, 5, InvalidAttempt) for a in answers),
        attempt=attempt,
    )


def _json_object(raw, *, keys: set[str], error: type[errors.AppError]) -> dict:
    if not isinstance(raw, str) or len(raw) > MAX_BATCH_CHARACTERS:
        raise error()
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise error() from None
    if not isinstance(data, dict) or not set(data) <= keys:
        raise error()
    return data


def _whole(value, low: int, high: int, error: type[errors.AppError]) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise error()
    return value


# Who may send -----------------------------------------------------------------------------------

# Crawlers and link previews run no script, or not for long; those that do must not become learners.
# Named as the crawlers name themselves (Slackbot, TelegramBot, LinkedInBot, Pinterestbot,
# Discordbot all end in "bot"), not by their company: the in-app browsers of LinkedIn, Telegram and
# Pinterest carry their app's name, and a person reads in them. A Cubot phone is not a bot.
_NOT_A_LEARNER = re.compile(
    r"(?<!cu)bot\b|bot/|crawl|spider|slurp|preview|facebookexternalhit|facebookcatalog|embedly|"
    r"quora link|whatsapp/|vkshare|lighthouse|pagespeed|prerender|validator",
    re.IGNORECASE,
)


def is_a_learner(user_agent: str) -> bool:
    """Whether a request's User-Agent may be a person's browser (no User-Agent at all is not one)."""
    return bool(user_agent) and not _NOT_A_LEARNER.search(user_agent)


def _check_rate(*, learner_public_id: str, attempt: bool) -> None:
    """
    The learner's own bucket counts the batch, and a quiz attempt is counted in a tighter one of its
    own: each attempt is an event sent to the client's receiver.
    """
    _count("learner", learner_public_id, limit=settings.PREVIEW_PROGRESS_LIMIT)
    if attempt:
        _count("attempts", learner_public_id, limit=settings.PREVIEW_QUIZ_ATTEMPTS_LIMIT)


def _reserve_new_learner(*, client_address: str) -> None:
    """
    Take one of the client address's new learners for this minute, before the learner's row is made,
    so learners made at the same instant are counted each. Learners already recorded never come
    here: a crowd behind one address is not held up.
    """
    _count("new", client_address, limit=settings.PREVIEW_NEW_LEARNERS_LIMIT)


def _count(kind: str, name: str, *, limit: int) -> None:
    """One request in a bucket, atomically: one Redis round trip, failing open (core.ratelimit)."""
    decision = ratelimit.hit(bucket=f"{settings.RATE_LIMIT_KEY_PREFIX}:progress:{kind}:{name}", limit=limit)
    if not decision.allowed:
        raise TooManyRequests(decision)


# Recording ------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Scored:
    """A quiz attempt as the service scored it, against the assessment of the version the page showed."""

    version: int
    answers: tuple[int | None, ...]
    right: tuple[bool, ...]  # per question
    correct: int
    questions: int
    score: int  # percent, rounded half up
    needed: int  # right answers needed to pass
    passed: bool
    document: dict  # that version's document (schema version 3), with each question's answer
    deleted_source_ids: tuple[str, ...]  # of the course now: its page marks what they cited so


@dataclasses.dataclass(frozen=True)
class Recorded:
    learner: identity.Known  # who was recorded: the learner the browser named, or a new one
    resume: int | None  # the page to resume at (known with `hello`)
    signed_at: datetime.datetime | None  # when they first signed the course's agreement (known with `hello`)
    remaining: completion.Remaining  # what they have left to do, after this write
    attempt: Scored | None = None  # the quiz attempt recorded, scored


@dataclasses.dataclass(frozen=True)
class _Course:
    id: int
    version: int
    pages: int
    requirements: completion.Requirements
    document: dict | None  # of the version the batch names, when it holds a quiz attempt
    deleted_source_ids: tuple[str, ...] = ()  # with that document


def record(
    *, course_public_id: str, learner: identity.Known | None, batch: Batch, client_address: str
) -> Recorded | None:
    """
    Record a batch of progress, or a quiz attempt (parse_attempt), of the learner the browser names,
    in one write, and return who was recorded, what remains of the course for them and, with a
    `hello`, where they left off. A browser that names no learner (it keeps no cookies) is not
    recorded (None). An anonymous learner's first write makes their row; a personal link's learner
    who was erased meanwhile is recorded afresh, as a new anonymous learner.
    :raises TooManyRequests: the learner sent too much, or their address made too many learners, this minute
    :raises CourseNotFound, InvalidBatch, InvalidAttempt
    """
    if learner is None:
        return None
    if not looks_like_public_id(course_public_id, "cou_"):
        raise CourseNotFound()
    _check_rate(learner_public_id=learner.public_id, attempt=batch.answers is not None)
    course = _course(course_public_id, quiz_version=batch.version if batch.answers is not None else None)
    attempt = None if batch.answers is None else _score(course, batch)
    values = _values(course, batch, attempt)
    row = _write(_statement(_UPDATE, attempt), {**values, "learner": learner.public_id}, attempt=attempt)
    if row is None:  # a new learner (a first view), or a personal link's learner erased meanwhile
        _reserve_new_learner(client_address=client_address)
        if learner.personal:
            learner = identity.Known(public_id=new_learner_id())
        row = _write(
            _statement(_UPSERT, attempt), {**values, **_first_values(course, values), "learner": learner.public_id},
            attempt=attempt,
        )
    if row is None:  # an id of another course's learner: not this course's to record
        raise CourseNotFound()
    learner_id, current_page, events_pending, signed_at, pages_seen, passed = row
    if events_pending:
        _tell(learner_id)
    remaining = completion.remaining(
        course.requirements, pages_seen=pages_seen, passed=passed, signed=signed_at is not None
    )
    return Recorded(
        learner=learner,
        resume=current_page if batch.hello else None,
        signed_at=signed_at if batch.hello else None,
        remaining=remaining,
        attempt=attempt,
    )


def check_attempt(
    *, course_public_id: str, learner: identity.Known | None, attempt: Batch, client_address: str
) -> tuple[Scored, Recorded | None]:
    """
    Score a quiz attempt (parse_attempt) and record it for the learner the browser names, as
    `record` does; return it scored, and what was recorded. A browser that names no learner has its
    attempt scored all the same, and nothing recorded (None): its page still shows the verdict. Its
    attempts are counted per client address, as tightly as a learner's.
    :raises TooManyRequests: too many attempts this minute
    :raises CourseNotFound, InvalidAttempt
    """
    recorded = record(course_public_id=course_public_id, learner=learner, batch=attempt, client_address=client_address)
    if recorded is not None:
        return recorded.attempt, recorded
    if not looks_like_public_id(course_public_id, "cou_"):
        raise CourseNotFound()
    _count("unrecorded-attempts", client_address, limit=settings.PREVIEW_QUIZ_ATTEMPTS_LIMIT)
    return _score(_course(course_public_id, quiz_version=attempt.version), attempt), None


def remaining_for(*, course_id: int, document: dict, learner: identity.Known | None) -> completion.Remaining:
    """What remains of the course for the learner the browser names (everything, for none yet): one query."""
    row = None
    if learner is not None:
        with connection.cursor() as cursor:
            cursor.execute(_STANDING, {"course": course_id, "learner": learner.public_id})
            row = cursor.fetchone()
    pages_seen, passed, signed_at = row or (0, None, None)
    return completion.remaining(
        completion.requirements_of(document), pages_seen=pages_seen, passed=passed, signed=signed_at is not None
    )


def record_signoff(
    *, course_id: int, document: dict, learner: identity.Known, name: str, ip_hash: str, public_id: str
) -> tuple[int, int]:
    """
    Record a sign-off (its id `public_id`) by the learner the cookie names, and, in the same
    statement, their first sign-off and the completion it makes on their row, if everything else
    the course asks is done (learners.completion). Return the sign-off's id and the learner's.
    :raises completion.SignoffTooEarly: the learner has not done the rest (or was never recorded, or was erased)
    :raises CourseNotFound: if the course was deleted meanwhile
    """
    requirements = completion.requirements_of(document)
    values = {
        **completion.sql_values(requirements),
        "course": course_id, "learner": learner.public_id, "name": name, "ip_hash": ip_hash, "public_id": public_id,
    }
    row = _execute(_SIGN, values)
    if row is not None:
        signoff_id, learner_id = row
        _tell(learner_id)
        return signoff_id, learner_id
    with connection.cursor() as cursor:
        cursor.execute('SELECT 1 FROM "courses_course" WHERE "id" = %s', [course_id])
        if cursor.fetchone() is None:
            raise CourseNotFound()
    raise completion.SignoffTooEarly(remaining_for(course_id=course_id, document=document, learner=learner))


def _tell(learner_id: int) -> None:
    from learners import tasks  # tasks import the events, which import this module's models

    queue.enqueue_on_commit(tasks.send_events, learner_id=learner_id)


# The course, without its document (with a quiz attempt, the document of the version the page
# showed). How many pages it has and what completing it asks depend on its document only: they are
# kept per process under the document's digest, and read from the JSON in the database once.
_COURSE = """
SELECT c."id", c."version", c."content_digest"{document}
FROM "courses_course" c WHERE c."public_id" = %(course)s
"""
_DOCUMENT_OF_VERSION = """, c."deleted_source_ids",
       (SELECT v."content" FROM "courses_courseversion" v
        WHERE v."course_id" = c."id" AND v."number" = %(quiz_version)s)"""
_FACTS = """
SELECT CASE WHEN jsonb_typeof(c."content"->'chapters') = 'array'
            THEN jsonb_array_length(c."content"->'chapters') ELSE 0 END,
       jsonb_typeof(c."content"->'wrapup') = 'object',
       jsonb_typeof(c."content"->'assessment') = 'object',
       jsonb_typeof(c."content"->'agreement') = 'object'
FROM "courses_course" c WHERE c."id" = %s
"""
# What a learner has done of the course, for what remains.
_STANDING = """
SELECT l."pages_seen", l."passed", l."signed_at" FROM "learners_learner" l
WHERE l."public_id" = %(learner)s AND l."course_id" = %(course)s
"""


def _course(public_id: str, *, quiz_version: int | None) -> _Course:
    sql = _COURSE.format(document=_DOCUMENT_OF_VERSION if quiz_version is not None else "")
    with connection.cursor() as cursor:
        cursor.execute(sql, {"course": public_id, "quiz_version": quiz_version})
        row = cursor.fetchone()
    if row is None:
        raise CourseNotFound()
    course_id, version, digest = row[:3]
    deleted_source_ids, document = (_json(value) for value in row[3:]) if len(row) > 3 else ((), None)
    pages, requirements = _facts(course_id, digest)
    return _Course(
        id=course_id, version=version, pages=pages, requirements=requirements, document=document,
        deleted_source_ids=tuple(deleted_source_ids or ()),
    )


def _json(value):
    # Django has PostgreSQL send jsonb as text, for its JSONField to read.
    return json.loads(value) if isinstance(value, str) else value


@functools.lru_cache(maxsize=4096)
def _facts(course_id: int, content_digest: str) -> tuple[int, completion.Requirements]:
    """The course's page count and what completing it asks, for this document of it."""
    with connection.cursor() as cursor:
        cursor.execute(_FACTS, [course_id])
        chapters, wrapup, assessment, agreement = cursor.fetchone()
    closing = 1 if wrapup or assessment or agreement else 0
    requirements = completion.Requirements(chapters=chapters, assessment=bool(assessment), agreement=bool(agreement))
    return 1 + chapters + closing, requirements


def _score(course: _Course, batch: Batch) -> Scored:
    """Score the answers against the assessment of the version the page showed."""
    # A version the previous release stored while a deploy ran may be of schema version 2
    # (courses.content.upgraded: this module reads the JSON without the ORM).
    document = course_content.upgraded(course.document) if isinstance(course.document, dict) else {}
    assessment = document.get("assessment")
    questions = assessment.get("questions") if isinstance(assessment, dict) else None
    if not questions or len(questions) != len(batch.answers):
        raise InvalidAttempt("The answers do not fit the assessment of that version.")
    right = tuple(answer == question.get("correctIndex") for question, answer in zip(questions, batch.answers, strict=True))
    correct = sum(right)
    total = len(questions)
    needed = math.ceil(total * assessment.get("passingScorePercent", 80) / 100)
    return Scored(
        version=batch.version,
        answers=batch.answers,
        right=right,
        correct=correct,
        questions=total,
        score=(correct * 200 + total) // (2 * total),  # the percentage, rounded half up
        needed=needed,
        passed=correct >= needed,
        document=document,
        deleted_source_ids=course.deleted_source_ids,
    )


def _values(course: _Course, batch: Batch, attempt: Scored | None) -> dict:
    pages = course.pages
    seen = 0
    for page in batch.seen:
        if page < pages:  # a page the course no longer has (an older version's) is not counted
            seen |= 1 << page
    page = batch.page if batch.page is not None and batch.page < pages else None
    values = {
        **completion.sql_values(course.requirements),
        "course": course.id,
        "version": min(batch.version, course.version),
        "pages": pages,
        "seen": seen,
        "page": page,
        # Looking at the first page again (the course's own link) keeps the place to resume.
        "keep_place": page is None or (batch.hello and page == 0),
        "seconds": batch.seconds,
        "most": datetime.timedelta(seconds=MAX_SECONDS_PER_BATCH),
        "attempts": 0 if attempt is None else 1,
        "score": None,
        "passed": None,
    }
    if attempt is not None:
        values.update(
            answers=json.dumps(list(attempt.answers)), correct=attempt.correct, questions=attempt.questions,
            score=attempt.score, passed=attempt.passed, quiz_version=attempt.version,
            attempt_key=batch.attempt,
        )
    return values


def _first_values(course: _Course, values: dict) -> dict:
    remaining = completion.remaining(
        course.requirements, pages_seen=values["seen"], passed=values["passed"], signed=False
    )
    return {
        "completes_at_first": remaining.complete,
        "best_score": values.get("score"),
        "first_passed": values.get("passed"),
    }


def _statement(template: str, attempt: Scored | None) -> str:
    return template.format(
        completes=completion.BATCH_COMPLETES, credit=_CREDIT, counted_from=_COUNTED_FROM,
        attempt=_ATTEMPT if attempt is not None else "",
        new_attempt=_NEW_ATTEMPT if attempt is not None else "%(attempts)s",
        relaxed=_RELAXED if attempt is None else "",
    )


def _write(sql: str, values: dict, *, attempt: Scored | None):
    """A batch's statement: waiting for the disk with a quiz attempt, and written again, once, when a
    copy of its attempt sent at the same instant was recorded first (see _HAS_THE_ATTEMPT)."""
    try:
        return _execute(sql, values)
    except IntegrityError as exc:
        constraint = getattr(getattr(exc.__cause__, "diag", None), "constraint_name", None)
        if attempt is None or constraint != _ATTEMPT_KEY_CONSTRAINT:
            raise
    return _execute(sql, values)


def _execute(sql: str, values: dict):
    # The statement's time is taken as it is sent, not when its values were worked out: a statement
    # sent after another waited for a lock (an erasure, a copy of its quiz attempt) would write a
    # time from before that wait, and a results read meanwhile would give a nextSince after it
    # (learners.queries.changes_until).
    values = {**values, "now": timezone.now()}
    with connection.cursor() as cursor:
        try:
            cursor.execute(sql, values)
        except IntegrityError as exc:
            # The course was deleted between reading it and this write: nothing is left to record.
            if isinstance(exc.__cause__, psycopg.errors.ForeignKeyViolation):
                raise CourseNotFound() from None
            raise
        return cursor.fetchone()


# The SQL. `l` is the learner's row before the write: in PostgreSQL an UPDATE's expressions read the
# row as it was (and, when another write to it commits first, as that one left it).

# Time spent is counted against the clock: up to now, from where the counting stopped, or from a
# batch's most (MAX_SECONDS_PER_BATCH) before now if that is later. One page's script sends each
# second once; several tabs, or a script of one's own, add no more time than passed, and a learner
# back after a week has no week to spend.
_COUNTED_FROM = (
    'GREATEST(COALESCE(l."time_counted_until", %(now)s - %(most)s), %(now)s - %(most)s)'
)
_CREDIT = (
    "LEAST(%(seconds)s, GREATEST(0, FLOOR(EXTRACT(EPOCH FROM %(now)s - " + _COUNTED_FROM + "))))::integer"
)

# The changes a batch makes to a learner's row.
_CHANGES = """
    "updated_at" = %(now)s,
    "last_seen_at" = %(now)s,
    "started_at" = COALESCE(l."started_at", %(now)s),
    "version" = GREATEST(COALESCE(l."version", 0), %(version)s),
    "pages" = %(pages)s,
    "pages_seen" = l."pages_seen" | %(seen)s,
    "current_page" = CASE WHEN %(keep_place)s THEN l."current_page" ELSE %(page)s END,
    "seconds_spent" = l."seconds_spent" + {credit},
    "time_counted_until" = {counted_from} + make_interval(secs => {credit}),
    "completed_at" = COALESCE(l."completed_at", CASE WHEN {completes} THEN %(now)s END),
    "attempt_count" = l."attempt_count" + {new_attempt},
    "best_score" = CASE WHEN {new_attempt} = 1 THEN GREATEST(COALESCE(l."best_score", 0), %(score)s)
                        ELSE l."best_score" END,
    "passed" = CASE WHEN {new_attempt} = 1 THEN COALESCE(l."passed", false) OR %(passed)s ELSE l."passed" END,
    "events_pending" = l."events_pending" OR l."started_at" IS NULL OR {new_attempt} = 1
                       OR (l."completed_at" IS NULL AND {completes})
"""
# Time and pages seen are the most of what the page sends, and they are worth less than a commit's
# wait for the disk: a batch without a quiz attempt commits without it (SET LOCAL, inside the one
# statement), so a crash of the database loses at most its last fraction of a second of them.
_RELAXED = ", (SELECT set_config('synchronous_commit', 'off', true)) AS relaxed"
_RETURNING = (
    'RETURNING l."id", l."current_page", l."attempt_count", l."events_pending", l."signed_at", l."pages_seen",'
    ' l."passed"'
)

# A learner already recorded: a personal link's learner was when the client added them, an
# anonymous one by their first batch.
_UPDATE = (
    """
WITH learner AS (
  UPDATE "learners_learner" AS l SET """
    + _CHANGES
    + """
  WHERE l."public_id" = %(learner)s AND l."course_id" = %(course)s
  """
    + _RETURNING
    + """
){attempt}
SELECT "id", "current_page", "events_pending", "signed_at", "pages_seen", "passed" FROM learner{relaxed}
"""
)

# A new learner: their row, made by their first batch under the id their browser was given (or, when
# two first batches cross, updated by the second).
_UPSERT = (
    """
WITH learner AS (
  INSERT INTO "learners_learner" AS l (
    "public_id", "course_id", "external_id", "name", "created_at", "updated_at", "started_at", "last_seen_at",
    "version", "pages", "pages_seen", "current_page", "seconds_spent", "completed_at", "attempt_count",
    "best_score", "passed", "signed_at", "signed_name", "events_pending", "notified", "attempts_notified",
    "time_counted_until"
  ) VALUES (
    %(learner)s, %(course)s, NULL, '', %(now)s, %(now)s, %(now)s, %(now)s,
    %(version)s, %(pages)s, %(seen)s, %(page)s, %(seconds)s,
    CASE WHEN %(completes_at_first)s THEN %(now)s END, %(attempts)s,
    %(best_score)s, %(first_passed)s, NULL, '', true, 0, 0,
    %(now)s - %(most)s + make_interval(secs => %(seconds)s)
  )
  ON CONFLICT ("public_id") DO UPDATE SET """
    + _CHANGES
    + """
  WHERE l."course_id" = %(course)s
  """
    + _RETURNING
    + """
){attempt}
SELECT "id", "current_page", "events_pending", "signed_at", "pages_seen", "passed" FROM learner{relaxed}
"""
)

# A quiz attempt counts unless the learner has it already, by the id the page gave it: an attempt
# sent again after its answer was lost on the way is recorded once. (Two copies sent at the same
# instant each find none: the second then meets the first's key, and is written again, finding it.)
_HAS_THE_ATTEMPT = """EXISTS (
    SELECT 1 FROM "learners_quizattempt" q WHERE q."learner_id" = {learner}."id" AND q."key" = %(attempt_key)s
)"""
_ATTEMPT_KEY_CONSTRAINT = "quiz_attempt_key_per_learner"
_NEW_ATTEMPT = "(CASE WHEN " + _HAS_THE_ATTEMPT.format(learner="l") + " THEN 0 ELSE 1 END)"
_ATTEMPT = (
    """,
attempt AS (
  INSERT INTO "learners_quizattempt" (
    "learner_id", "number", "version", "answers", "correct", "questions", "score", "passed", "created_at",
    "key"
  )
  SELECT "id", "attempt_count", %(quiz_version)s, %(answers)s::jsonb, %(correct)s, %(questions)s, %(score)s,
         %(passed)s, %(now)s, %(attempt_key)s
  FROM learner
  WHERE NOT """
    + _HAS_THE_ATTEMPT.format(learner="learner")
    + """
)"""
)

# A sign-off by its learner, who has done everything else the course asks (learners.completion): the
# first sign-off is the learner's (name and time), and it completes the course. The course is held
# first (as its deletion holds it before its learners), then the learner's row, then the sign-off's
# row, which names the course: a sign-off and the course's deletion at the same instant take turns
# rather than deadlock, and the sign-off then finds the course gone. A learner not recorded, erased,
# or with more to do first is not written, nor is the sign-off.
_SIGN = (
    """
WITH course AS (
  SELECT c."id" FROM "courses_course" c WHERE c."id" = %(course)s FOR KEY SHARE
),
learner AS (
  UPDATE "learners_learner" AS l SET
    "updated_at" = %(now)s,
    "last_seen_at" = %(now)s,
    "signed_at" = COALESCE(l."signed_at", %(now)s),
    "signed_name" = CASE WHEN l."signed_at" IS NULL THEN %(name)s ELSE l."signed_name" END,
    "completed_at" = COALESCE(l."completed_at", %(now)s),
    "events_pending" = true
  WHERE l."course_id" = (SELECT "id" FROM course) AND l."public_id" = %(learner)s AND """
    + completion.MAY_SIGN
    + """
  RETURNING l."id"
)
INSERT INTO "learners_signoff" ("public_id", "course_id", "learner_id", "name", "ip_hash", "signed_at")
SELECT %(public_id)s, %(course)s, learner."id", %(name)s, %(ip_hash)s, %(now)s FROM learner
RETURNING "id", "learner_id"
"""
)
