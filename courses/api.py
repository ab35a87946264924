from django.core.exceptions import ImproperlyConfigured

from accounts.models import ApiKey
from config.api import ApiView
from courses import queries, versions
from courses.models import Course


class CourseReadView(ApiView):
    """
    Base of the endpoints that read a course named in the path (`course_id`): on GET and HEAD, the
    key and that course (without its document) come in one query, so a read is one round trip to
    the database before the view's own. Other methods look the key up alone, since a change reads
    the course again under its lock.
    """

    found_course: Course | None = None

    def find_key(self, *, key_hash: str) -> ApiKey | None:
        if self.request.method not in ("GET", "HEAD"):
            return super().find_key(key_hash=key_hash)
        api_key, self.found_course = queries.key_with_course_summary(
            key_hash=key_hash, course_public_id=self.kwargs["course_id"]
        )
        return api_key

    def course(self) -> Course:
        """
        The course a GET or HEAD names, as looked up with the key: without its document, which
        `course_with_document` reads.
        :raises CourseNotFound: unless the request's key created it
        """
        if self.request.method not in ("GET", "HEAD"):
            raise ImproperlyConfigured(f"{type(self).__name__}: course() is for reads, not changes")
        if self.found_course is None:
            raise versions.CourseNotFound()
        return self.found_course

    def course_with_document(self) -> Course:
        """
        The course read again, whole, with its document (one query, as loading the document alone
        would be): an edit committed since the lookup never pairs a newer document with the older
        version, and a course deleted meanwhile is not found.
        :raises CourseNotFound
        """
        course = Course.objects.filter(pk=self.course().pk).first()
        if course is None:
            raise versions.CourseNotFound()
        return course
