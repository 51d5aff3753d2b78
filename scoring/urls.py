"""Pages of the scoring app: result entry at a table, hand corrections, the players' confirmation and the
referees' view of a session."""

from django.urls import path

from scoring import views

urlpatterns = [
    path("t/<slug:slug>/s/<int:session>/tables/", views.session_tables, name="session-tables"),
    path("t/<slug:slug>/s/<int:session>/table/<int:number>/", views.table_page, name="table-page"),
    path(
        "t/<slug:slug>/s/<int:session>/table/<int:number>/hand/<int:hand>/",
        views.hand_edit,
        name="table-hand",
    ),
    path("table/<str:key>/", views.table_link, name="table-link"),
    path("table/<str:key>/hand/<int:hand>/", views.hand_edit_link, name="table-link-hand"),
    path("table/<str:key>/confirm/<str:player_key>/", views.player_confirm, name="table-player-confirm"),
    path("scoring/riichi-fu/", views.riichi_fu_options, name="riichi-fu-options"),
]
