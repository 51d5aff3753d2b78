"""Pages of the exports and of the EMA ranking."""

from django.urls import path

from rankings.exports import views

urlpatterns = [
    path("t/<slug:slug>/exports/", views.exports_page, name="export-list"),
    path("t/<slug:slug>/exports/<int:pk>/", views.export_job, name="export-job"),
    path("t/<slug:slug>/exports/<int:pk>/download/", views.export_download, name="export-download"),
    path("ranking/", views.ema_ranking_page, name="ema-ranking"),
    path("ranking/<slug:family>/", views.ema_ranking_page, name="ema-ranking-family"),
    path("ranking/<slug:family>/export.<slug:fmt>", views.ema_ranking_export, name="ema-ranking-export"),
    path("ranking/<slug:family>/<str:ema_id>/", views.ema_ranking_player, name="ema-ranking-player"),
]
