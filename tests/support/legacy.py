"""
Rows as they could be stored before a rule they break: courses (a rule of the course schema),
states the services refuse to write now, but must still read (courses.content.read_stored) and keep.
"""

import copy

from courses import content
from courses.models import Course, CourseVersion


def store_with_options_that_say_the_same(course: Course) -> Course:
    """
    Store the course's document, as the course and as every version of it, with the second option of
    its first question the first one with a trailing space, as before "two options say the same".
    """
    stored = copy.deepcopy(course.content)
    options = stored["assessment"]["questions"][0]["options"]
    options[1] = options[0] + " "
    Course.objects.filter(pk=course.pk).update(content=stored, content_digest=content.digest(stored))
    CourseVersion.objects.filter(course=course).update(content=stored)
    course.refresh_from_db()
    return course

