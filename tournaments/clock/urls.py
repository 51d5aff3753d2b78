"""Pages of the session clock, the venue screen, the referees' overview and the printouts."""

from django.urls import path

from tournaments.clock import views

urlpatterns = [
    path("t/<slug:slug>/clock/", views.clock_page, name="clock-page"),
    path("t/<slug:slug>/clock/control/", views.clock_control, name="clock-control"),
    path("t/<slug:slug>/clock/announcements/", views.announcement_post, name="clock-announcements"),
    path("t/<slug:slug>/screen/", views.venue_screen, name="venue-screen"),
    path("t/<slug:slug>/screen/panels/", views.venue_screen_panels, name="venue-screen-panels"),
    path("t/<slug:slug>/s/<int:number>/clock/", views.tables_overview, name="clock-tables"),
    path("t/<slug:slug>/print/schedules/", views.print_schedules, name="print-schedules"),
    path("t/<slug:slug>/s/<int:number>/print/sheets/", views.print_sheets, name="print-sheets"),
]
