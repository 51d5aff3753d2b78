"""Pages of the penalties app: recording from a table or a player page, the tournament's list, cancel and
appeal."""

from django.urls import path

from penalties import views

urlpatterns = [
    path("t/<slug:slug>/penalties/", views.penalty_list, name="penalty-list"),
    path("t/<slug:slug>/penalties/player/<str:key>/", views.player_penalties, name="player-penalties"),
    path("t/<slug:slug>/penalties/<int:pk>/cancel/", views.penalty_cancel, name="penalty-cancel"),
    path("t/<slug:slug>/penalties/<int:pk>/appeal/", views.penalty_appeal, name="penalty-appeal"),
    path(
        "t/<slug:slug>/s/<int:session>/table/<int:number>/penalty/<str:kind>/",
        views.table_penalty,
        name="table-penalty",
    ),
]
