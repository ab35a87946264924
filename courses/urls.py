from django.urls import path

from courses import views

urlpatterns = [
    path("courses", views.CoursesView.as_view()),
    path("courses/jobs", views.JobsView.as_view()),
    path("courses/jobs/<str:job_id>", views.PollJobView.as_view()),
    path("courses/<str:course_id>", views.CourseView.as_view()),
    path("courses/<str:course_id>/versions", views.ListVersionsView.as_view()),
    path("courses/<str:course_id>/versions/<int:number>", views.ReadVersionView.as_view()),
    path("courses/<str:course_id>/content", views.EditContentView.as_view()),
    path("courses/<str:course_id>/regenerate", views.RegenerateView.as_view()),
    path("courses/<str:course_id>/quality", views.CourseQualityView.as_view()),
]
