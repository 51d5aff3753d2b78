"""The director's console pages (see tournaments/console/views.py)."""

from django.urls import path

from tournaments.console import views

urlpatterns = [
    path("my/", views.my_tournaments, name="my-tournaments"),
    path("new/", views.tournament_new, name="tournament-new"),
    path("ema-list/", views.ema_list, name="console-ema-list"),
    path("welcome/<str:uid>/<str:token>/", views.sign_in, name="console-sign-in"),
    path("my/password/", views.password_set, name="console-password"),
    path("first-organiser/", views.first_organiser, name="first-organiser"),
    path("t/<slug:slug>/console/", views.console_home, name="console-home"),
    path("t/<slug:slug>/console/edit/", views.tournament_edit, name="console-edit"),
    path("t/<slug:slug>/console/edit/add-session/", views.session_add, name="console-session-add"),
    path("t/<slug:slug>/console/edit/remove-session/", views.session_remove, name="console-session-remove"),
    path("t/<slug:slug>/console/rules/", views.rules_edit, name="console-rules"),
    path("t/<slug:slug>/console/staff/", views.staff, name="console-staff"),
    path("t/<slug:slug>/console/players/", views.players, name="console-players"),
    path("t/<slug:slug>/console/players/ema-search/", views.ema_search, name="console-ema-search"),
    path("t/<slug:slug>/console/players/ema-register/", views.ema_register, name="console-ema-register"),
    path("t/<slug:slug>/console/players/<str:key>/", views.player_edit, name="console-player"),
    path("t/<slug:slug>/console/s/<int:number>/", views.session_page, name="console-session"),
    path(
        "t/<slug:slug>/console/s/<int:number>/<slug:action>/",
        views.session_action,
        name="console-session-action",
    ),
    path("t/<slug:slug>/console/reveal/", views.reveal, name="console-reveal"),
    path(
        "t/<slug:slug>/console/do/<slug:action>/", views.tournament_action, name="console-tournament-action"
    ),
]
