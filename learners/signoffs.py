"""Sign-offs of the agreement add-on, recorded from the preview page."""

import psycopg
from django.db import IntegrityError
from django.utils.crypto import salted_hmac

from core import errors
from courses.models import Course
from learners import progress
from learners.models import Signoff, new_signoff_id

SIGNOFF_NAME_MAX_LENGTH = 200


class InvalidSignoffName(errors.ValidationError):
    message = "A sign-off needs a name of 1 to 200 characters, with a letter or a digit."


class CourseHasNoAgreement(errors.NotFound):
    message = "This course has no agreement."


class CourseDeleted(Exception):
    """The course was deleted between reading it and recording its sign-off."""


def record_signoff(*, course: Course, name: str, client_ip: str, learner=None) -> Signoff:
    """
    Record that a learner confirmed the course's agreement, under the name they typed. The IP is
    kept only as an HMAC (SHA-256, keyed with SECRET_KEY): enough to spot abuse, not to identify.
    With the learner the browser names (learners.identity.Known), the sign-off is theirs: their result
    shows their first sign-off (one write for both, see learners.progress), and a reader not recorded
    yet is recorded by it. The sign-off's `signer` is who it was recorded under: a new anonymous
    learner when the browser's personal link named one who was erased, for the page to remember.
    Without one (the browser keeps no cookies) it stands on its own.
    :raises InvalidSignoffName: if the name is empty, too long, or without a letter or digit once tidied
    :raises CourseHasNoAgreement: if the course has no agreement add-on
    :raises CourseDeleted: if the course was deleted meanwhile
    """
    if not course.content.get("agreement"):
        raise CourseHasNoAgreement()
    # Runs of whitespace become one space; other invisible characters go (PostgreSQL refuses NUL),
    # except the zero-width (non-)joiners some scripts need. A name has a letter or a digit.
    tidy = "".join(ch for ch in " ".join(name.split()) if ch.isprintable() or ch in "\u200c\u200d")
    if not 1 <= len(tidy) <= SIGNOFF_NAME_MAX_LENGTH or not any(ch.isalnum() for ch in tidy):
        raise InvalidSignoffName()
    ip_hash = salted_hmac("courses.signoff.ip", client_ip, algorithm="sha256").hexdigest()
    if learner is None:
        try:
            return course.signoffs.create(name=tidy, ip_hash=ip_hash)
        except IntegrityError as exc:
            if isinstance(exc.__cause__, psycopg.errors.ForeignKeyViolation):
                raise CourseDeleted() from None
            raise
    public_id = new_signoff_id()
    try:
        signoff_id, learner_id, signer = progress.record_signoff(
            course_id=course.pk, course_version=course.version, pages=progress.page_count(course.content),
            learner=learner, name=tidy, ip_hash=ip_hash, public_id=public_id,
        )
    except progress.CourseNotFound:
        raise CourseDeleted() from None
    signoff = Signoff(
        pk=signoff_id, public_id=public_id, course=course, learner_id=learner_id, name=tidy, ip_hash=ip_hash
    )
    signoff.signer = signer
    return signoff
