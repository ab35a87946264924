"""
The public pages of courses, served at the root: `/go/<course_id>` and what hangs off it, and what
the pages' script sends there (the learner cookie's path is the course's).
"""

from django.urls import path, register_converter

from preview import views


class ChapterNumber:
    """A chapter's page: 1 on (a classic course's overview is the course's own address)."""

    regex = "[1-9][0-9]{0,8}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(ChapterNumber, "chapter")

urlpatterns = [
    path("go/<str:course_id>", views.course_page, name="course-page"),
    path("go/<str:course_id>/<chapter:number>", views.chapter_page, name="course-chapter"),
    path("go/<str:course_id>/agreement", views.sign_agreement, name="course-sign"),
    path("go/<str:course_id>/signed/<str:token>", views.signed_page, name="course-signed"),
    path("go/<str:course_id>/progress", views.record_progress, name="course-progress"),
    path("go/<str:course_id>/quiz", views.check_answers, name="course-quiz"),
]
