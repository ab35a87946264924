from django.urls import path

from sources import views

urlpatterns = [
    path("sources", views.SourcesView.as_view()),
    path("sources/<str:source_id>", views.SourceView.as_view()),
]
