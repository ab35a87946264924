"""What the preview page's script sends, under the course's path (where the learner cookie lives)."""

from django.urls import path

from learners import views

urlpatterns = [
    path("go/<str:course_id>/progress", views.record_progress, name="course-progress"),
]
