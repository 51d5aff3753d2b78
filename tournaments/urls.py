from django.urls import path

from tournaments import views

urlpatterns = [
    path("", views.home, name="home"),
    path("me/<str:key>/", views.player_private, name="player-private"),
    path("live/", views.live_stamp, name="live-stamp"),
    path("t/<slug:slug>/", views.tournament_home, name="tournament-home"),
    path("t/<slug:slug>/players/", views.tournament_players, name="tournament-players"),
    path("t/<slug:slug>/p/<str:key>/", views.player_public, name="player-public"),
    path("t/<slug:slug>/s/<int:number>/", views.session_page, name="session"),
    path("t/<slug:slug>/director/", views.director_dashboard, name="director-dashboard"),
    path("t/<slug:slug>/director/players/", views.director_players, name="director-players"),
    path(
        "t/<slug:slug>/director/players/import/<int:pk>/",
        views.director_players_job,
        name="director-players-job",
    ),
]
