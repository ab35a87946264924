"""A course's settings: what clients change of it besides its document (which has versions)."""

from django.db import transaction

from accounts.models import ApiKey
from courses import queries, signals, versions
from courses.models import Course

_UNCHANGED = object()


@transaction.atomic(durable=True)
def update_course(*, api_key: ApiKey, course_public_id: str, learner_callback_url=_UNCHANGED) -> Course:
    """
    Change a course's settings: where its learners' events go (a URL checked as every callbackUrl
    is, or "" to send none). What its learners did until then is told to the URL of then, or to
    none (`signals.learner_callback_url_changing`).
    :raises CourseNotFound: unless this key created the course (or it was deleted meanwhile)
    """
    course = queries.course_summary_visible_to(api_key=api_key, public_id=course_public_id)
    if course is None:
        raise versions.CourseNotFound()
    if learner_callback_url is _UNCHANGED or learner_callback_url == course.learner_callback_url:
        return course
    # The course's row first, as its deletion takes it, then its learners (learners.events): FOR
    # UPDATE, so that a learner's first write and a sign-off, which hold it FOR KEY SHARE, wait too.
    locked = Course.objects.select_for_update().filter(pk=course.pk)
    was = locked.values_list("learner_callback_url", flat=True).first()
    if was is None:
        raise versions.CourseNotFound()
    course.learner_callback_url = learner_callback_url
    if learner_callback_url != was:  # unless a change at the same instant made it so
        course.api_key = api_key
        signals.learner_callback_url_changing.send(sender=Course, course=course, url=was)
        course.save(update_fields=["learner_callback_url"])
    return course
