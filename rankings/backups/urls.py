"""Pages of the backups."""

from django.urls import path

from rankings.backups import views

urlpatterns = [
    path("t/<slug:slug>/director/backups/", views.backups_page, name="director-backups"),
    path("t/<slug:slug>/director/backups/now/", views.backup_now, name="director-backup-now"),
    path("t/<slug:slug>/director/backups/restore/", views.backup_restore, name="director-backup-restore"),
    path("t/<slug:slug>/director/backups/<str:name>", views.backup_download, name="director-backup-download"),
]
