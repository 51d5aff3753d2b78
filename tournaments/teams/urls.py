"""The director's team pages."""

from django.urls import path

from tournaments.teams import views

urlpatterns = [
    path("t/<slug:slug>/teams/", views.teams_page, name="teams"),
    path("t/<slug:slug>/teams/<int:team_id>/", views.team_edit, name="team-edit"),
    path("t/<slug:slug>/teams/<int:team_id>/delete/", views.team_remove, name="team-delete"),
]
