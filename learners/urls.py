from django.urls import path

from learners import views

urlpatterns = [
    path("courses/<str:course_id>/learners", views.LearnersView.as_view()),
    path("courses/<str:course_id>/learners/<str:learner_id>", views.LearnerView.as_view()),
    path("courses/<str:course_id>/results", views.ResultsView.as_view()),
]
