"""Pages of the exports (the EMA ranking's pages are in rankings.ema.urls)."""

from django.urls import path

from rankings.exports import views

urlpatterns = [
    path("t/<slug:slug>/exports/", views.exports_page, name="export-list"),
    path("t/<slug:slug>/exports/<int:pk>/", views.export_job, name="export-job"),
    path("t/<slug:slug>/exports/<int:pk>/download/", views.export_download, name="export-download"),
]
