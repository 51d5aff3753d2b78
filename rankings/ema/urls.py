"""Pages of the EMA ranking and of the results of tournaments held elsewhere (imports before the family
pages, whose pattern would take "imports" for a family)."""

from django.urls import path

from rankings.ema import views

urlpatterns = [
    path("ranking/imports/", views.imports_page, name="ema-imports"),
    path("ranking/imports/new/", views.import_new, name="ema-import-new"),
    path("ranking/imports/<int:pk>/", views.import_detail, name="ema-import-detail"),
    path("ranking/imports/<int:pk>/correct/", views.import_correct, name="ema-import-correct"),
    path("ranking/imports/<int:pk>/delete/", views.import_delete, name="ema-import-delete"),
    path("players/", views.players_search, name="players-search"),
    path("players/<int:pk>/", views.player_record, name="player-record"),
    path("ranking/", views.ranking_page, name="ema-ranking"),
    path("ranking/<slug:family>/", views.ranking_page, name="ema-ranking-family"),
    path("ranking/<slug:family>/export.<slug:fmt>", views.ranking_export, name="ema-ranking-export"),
    path("ranking/<slug:family>/<str:ema_id>/", views.ranking_player, name="ema-ranking-player"),
    path("ranking/<slug:family>/<str:ema_id>/what-if/", views.ranking_what_if, name="ema-ranking-what-if"),
]
