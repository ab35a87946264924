"""The public pages of courses, served at the root: `/go/<course_id>` and what hangs off it."""

from django.urls import path, register_converter

from courses import pages


class ChapterNumber:
    """A chapter's page: 1 on (a classic course's overview is the course's own address)."""

    regex = "[1-9][0-9]{0,8}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(ChapterNumber, "chapter")

urlpatterns = [
    path("go/<str:course_id>", pages.course_page, name="course-page"),
    path("go/<str:course_id>/<chapter:number>", pages.chapter_page, name="course-chapter"),
    path("go/<str:course_id>/agreement", pages.sign_agreement, name="course-sign"),
    path("go/<str:course_id>/signed/<str:token>", pages.signed_page, name="course-signed"),
]
