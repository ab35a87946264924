"""Sign-offs of the agreement add-on, recorded from the preview page."""

from django.utils.crypto import salted_hmac

from core import errors
from courses.models import Course
from learners import completion, identity, progress
from learners.models import Signoff, new_signoff_id

SIGNOFF_NAME_MAX_LENGTH = 200


class InvalidSignoffName(errors.ValidationError):
    message = "A sign-off needs a name of 1 to 200 characters, with a letter or a digit."


class CourseHasNoAgreement(errors.NotFound):
    message = "This course has no agreement."


class CourseDeleted(Exception):
    """The course was deleted between reading it and recording its sign-off."""


def record_signoff(*, course: Course, name: str, client_ip: str, learner: identity.Known | None) -> Signoff:
    """
    Record that a learner confirmed the course's agreement, under the name they typed. A sign-off is
    the learner's the browser names, and is taken only once they have done everything else the
    course asks (learners.completion); their result shows their first sign-off, and the completion
    it makes (one write for both, see learners.progress). The IP is kept only as an HMAC (SHA-256,
    keyed with SECRET_KEY): enough to spot abuse, not to identify.
    :raises InvalidSignoffName: if the name is empty, too long, or without a letter or digit once tidied
    :raises CourseHasNoAgreement: if the course has no agreement add-on
    :raises completion.SignoffTooEarly: if the learner has more to do first, or the browser names none (nothing of
        theirs is recorded)
    :raises CourseDeleted: if the course was deleted meanwhile
    """
    if not course.content.get("agreement"):
        raise CourseHasNoAgreement()
    # Runs of whitespace become one space; other invisible characters go (PostgreSQL refuses NUL),
    # except the zero-width (non-)joiners some scripts need. A name has a letter or a digit.
    tidy = "".join(ch for ch in " ".join(name.split()) if ch.isprintable() or ch in "\u200c\u200d")
    if not 1 <= len(tidy) <= SIGNOFF_NAME_MAX_LENGTH or not any(ch.isalnum() for ch in tidy):
        raise InvalidSignoffName()
    if learner is None:
        raise completion.SignoffTooEarly(progress.remaining_for(course_id=course.pk, document=course.content, learner=None))
    ip_hash = salted_hmac("courses.signoff.ip", client_ip, algorithm="sha256").hexdigest()
    public_id = new_signoff_id()
    try:
        signoff_id, learner_id = progress.record_signoff(
            course_id=course.pk, document=course.content, learner=learner, name=tidy, ip_hash=ip_hash,
            public_id=public_id,
        )
    except progress.CourseNotFound:
        raise CourseDeleted() from None
    return Signoff(
        pk=signoff_id, public_id=public_id, course=course, learner_id=learner_id, name=tidy, ip_hash=ip_hash
    )
