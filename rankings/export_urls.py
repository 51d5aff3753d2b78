"""Pages of the exports and of the EMA ranking."""

from django.urls import path

from rankings import export_views as views
from rankings.ema import ranking_views

urlpatterns = [
    path("t/<slug:slug>/exports/", views.exports_page, name="export-list"),
    path("t/<slug:slug>/exports/<int:pk>/", views.export_job, name="export-job"),
    path("t/<slug:slug>/exports/<int:pk>/download/", views.export_download, name="export-download"),
    path("ranking/", ranking_views.ranking_page, name="ema-ranking"),
    path("ranking/<slug:family>/", ranking_views.ranking_page, name="ema-ranking-family"),
    path("ranking/<slug:family>/export.<slug:fmt>", ranking_views.ranking_export, name="ema-ranking-export"),
    path("ranking/<slug:family>/<str:ema_id>/", ranking_views.ranking_player, name="ema-ranking-player"),
]
