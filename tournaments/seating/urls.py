"""The director's seating pages."""

from django.urls import path

from tournaments.seating import views

urlpatterns = [
    path("t/<slug:slug>/seating/", views.seating_page, name="seating"),
    path("t/<slug:slug>/seating/generate/", views.seating_generate, name="seating-generate"),
    path("t/<slug:slug>/seating/import/", views.seating_import, name="seating-import"),
    path("t/<slug:slug>/seating/replan/", views.seating_replan, name="seating-replan"),
    path("t/<slug:slug>/seating/settings/", views.seating_settings, name="seating-settings"),
    path("t/<slug:slug>/seating/s/<int:number>/swap/", views.seating_swap, name="seating-swap"),
    path("t/<slug:slug>/seating/s/<int:number>/publish/", views.seating_publish, name="seating-publish"),
    path(
        "t/<slug:slug>/seating/s/<int:number>/unpublish/", views.seating_unpublish, name="seating-unpublish"
    ),
    path("t/<slug:slug>/seating/print/tables/", views.print_tables, name="seating-print-tables"),
    path("t/<slug:slug>/seating/print/players/", views.print_players, name="seating-print-players"),
    path("t/<slug:slug>/seating/print/cards/", views.print_cards, name="seating-print-cards"),
]
