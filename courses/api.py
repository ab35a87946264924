from api.views import ApiView
from courses import queries, versions
from courses.models import Course


class CourseReadView(ApiView):
    """Base of the endpoints that read a course named in the path (`course_id`)."""

    def course(self) -> Course:
        """
        The course the path names, without its document (which `course_with_document` reads), read
        once per request.
        :raises CourseNotFound: unless the request's key created it
        """
        if not hasattr(self, "_course"):
            self._course = queries.course_summary_visible_to(api_key=self.request.auth, public_id=self.kwargs["course_id"])
        if self._course is None:
            raise versions.CourseNotFound()
        return self._course

    def course_with_document(self) -> Course:
        """
        The course with its document, read whole in one query.
        :raises CourseNotFound: unless the request's key created it
        """
        course = queries.course_visible_to(api_key=self.request.auth, public_id=self.kwargs["course_id"])
        if course is None:
            raise versions.CourseNotFound()
        return course
