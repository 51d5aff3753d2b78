"""One router for the whole API."""

from django.urls import path
from rest_framework.routers import DefaultRouter

from penalties import api as penalties_api
from rankings.archive import api as archive_api
from rankings.ema import api as ema_api
from rankings.exports import api as export_api
from rankings.standings import api as rankings_api
from rankings.submission import api as submission_api
from scoring import api as scoring_api
from scoring.calls import api as calls_api
from scoring.tiles import api as tiles_api
from tournaments import api as tournaments_api
from tournaments.clock import api as clock_api
from tournaments.console import api as console_api
from tournaments.seating import api as seating_api
from tournaments.teams import api as teams_api

router = DefaultRouter()
router.register("tournaments", tournaments_api.TournamentViewSet, basename="tournament")
router.register("players", tournaments_api.PlayerViewSet, basename="player")
router.register("registrations", tournaments_api.RegistrationViewSet, basename="registration")
router.register("sessions", tournaments_api.SessionViewSet, basename="session")
router.register("tables", tournaments_api.TableViewSet, basename="table")
router.register("seats", tournaments_api.SeatViewSet, basename="seat")
router.register(r"tables/(?P<table_pk>[0-9]+)", scoring_api.TableResultViewSet, basename="table-result")
router.register(r"tables/(?P<table_pk>[0-9]+)/tiles", tiles_api.TableTilesViewSet, basename="table-tiles")
router.register(r"tables/(?P<table_pk>[0-9]+)", calls_api.TableCallViewSet, basename="table-call-api")
router.register(
    r"tournaments/(?P<tournament_slug>[^/.]+)/referee-calls",
    calls_api.RefereeCallViewSet,
    basename="referee-call-api",
)
router.register("notable-hands", tiles_api.NotableHandViewSet, basename="notable-hand")
router.register(
    r"tournaments/(?P<tournament_slug>[^/.]+)/statistics", tiles_api.StatisticsViewSet, basename="statistics"
)
router.register("penalties", penalties_api.PenaltyViewSet, basename="penalty")
router.register(
    r"tournaments/(?P<tournament_slug>[^/.]+)/standings", rankings_api.StandingsViewSet, basename="standings"
)
router.register(r"tournaments/(?P<tournament_slug>[^/.]+)/needs", rankings_api.NeedsViewSet, basename="needs")
router.register(
    r"tournaments/(?P<tournament_slug>[^/.]+)/exports",
    export_api.ExportJobViewSet,
    basename="tournament-export",
)
router.register("archives", archive_api.ArchiveViewSet, basename="archive")
router.register("ranking-imports", ema_api.ImportedTournamentViewSet, basename="ranking-import")
router.register(r"ema-ranking/(?P<family>[a-z]+)", ema_api.EmaRankingViewSet, basename="ema-ranking-api")
router.register("player-records", ema_api.PlayerRecordViewSet, basename="player-record-api")
router.register(
    r"tournaments/(?P<tournament_slug>[^/.]+)/seating", seating_api.SeatingViewSet, basename="seating-api"
)
router.register(r"tournaments/(?P<tournament_slug>[^/.]+)/teams", teams_api.TeamViewSet, basename="teams-api")

router.register(
    r"tournaments/(?P<tournament_slug>[^/.]+)/console/sessions",
    console_api.ConsoleSessionViewSet,
    basename="console-session-api",
)
router.register(
    r"tournaments/(?P<tournament_slug>[^/.]+)/console", console_api.ConsoleViewSet, basename="console-api"
)

urlpatterns = router.urls

urlpatterns += [
    path(
        "tournaments/<slug:tournament_slug>/ema-submission/",
        submission_api.SubmissionView.as_view(),
        name="ema-submission-api",
    ),
    path(
        "tournaments/<slug:tournament_slug>/ema-submission/report/",
        submission_api.SubmissionReportView.as_view(),
        name="ema-submission-report-api",
    ),
    path("tournaments/<slug:tournament_slug>/clock/", clock_api.ClockView.as_view(), name="clock-api"),
    path(
        "tournaments/<slug:tournament_slug>/announcements/",
        clock_api.AnnouncementsView.as_view(),
        name="announcements-api",
    ),
    path(
        "tournaments/<slug:tournament_slug>/announcements/<int:pk>/",
        clock_api.AnnouncementDetailView.as_view(),
        name="announcement-api",
    ),
]
