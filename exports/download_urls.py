from django.urls import path

from exports import views

# Mounted at /downloads/ by config/urls.py: the permanent links of exports (Export.download_url).
urlpatterns = [
    path("<str:export_id>", views.download_export),
]
