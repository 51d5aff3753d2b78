"""Pages of the rankings app."""

from django.urls import path

from rankings.standings import views

urlpatterns = [
    path("t/<slug:slug>/standings/", views.standings, name="standings"),
    path("t/<slug:slug>/standings/rows/", views.standings_rows, name="standings-rows"),
    path("t/<slug:slug>/standings/needs/", views.needs, name="standings-needs"),
    path("t/<slug:slug>/standings/needs.csv", views.needs_csv, name="standings-needs-csv"),
]
urlpatterns += [
    path("t/<slug:slug>/director/standings/recompute/", views.director_recompute, name="director-recompute"),
    path("t/<slug:slug>/director/standings/tiebreaks/", views.director_tiebreaks, name="director-tiebreaks"),
]
