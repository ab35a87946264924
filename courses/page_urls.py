"""The public pages of courses, served at the root: `/go/<course_id>` and what hangs off it."""

from django.urls import path

from courses import pages

urlpatterns = [
    path("go/<str:course_id>", pages.course_page, name="course-page"),
    path("go/<str:course_id>/<int:number>", pages.chapter_page, name="course-chapter"),
    path("go/<str:course_id>/agreement", pages.sign_agreement, name="course-sign"),
    path("go/<str:course_id>/signed/<str:token>", pages.signed_page, name="course-signed"),
]
