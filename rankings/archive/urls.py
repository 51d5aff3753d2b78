"""Pages of the tournament archive."""

from django.urls import path

from rankings.archive import views

urlpatterns = [
    path("archive/import/", views.archive_import_page, name="archive-import"),
    path("archive/import/<int:pk>/", views.archive_import_job, name="archive-import-job"),
    path("t/<slug:slug>/director/archive/", views.director_archive, name="director-archive"),
    path(
        "t/<slug:slug>/director/archive.json",
        views.director_archive_download,
        name="director-archive-download",
    ),
]
