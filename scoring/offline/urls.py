from django.urls import path

from scoring.offline import views

urlpatterns = [
    path("entry-sw.js", views.service_worker, name="entry-sw"),
    path("entry.webmanifest", views.manifest, name="entry-manifest"),
]
