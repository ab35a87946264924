from django.urls import path

from exports import views

urlpatterns = [
    path("courses/<str:course_id>/export", views.ExportCourseView.as_view()),
    path("courses/<str:course_id>/exports/<str:export_id>", views.RevokeExportView.as_view()),
]
