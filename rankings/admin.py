"""Standings snapshots, export jobs and the EMA ranking in the admin (read-only: tasks write them)."""

from django.contrib import admin

from rankings.ema.models import EmaRankingEntry, EmaTournament, ImportedTournament, TournamentResult
from rankings.exports.models import ExportJob
from rankings.standings.models import StandingsState


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(StandingsState)
class StandingsStateAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "input_version", "computed_version", "computed_at", "queue_failed_at"]


@admin.register(ExportJob)
class ExportJobAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "exporter", "format", "status", "progress", "requested_by", "created_at"]
    list_filter = ["status", "exporter", "format"]


@admin.register(EmaTournament)
class EmaTournamentAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "family", "players", "countries", "counted", "computed_at"]


@admin.register(TournamentResult)
class TournamentResultAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "player", "place", "base_rank"]
    list_filter = ["tournament"]
    search_fields = ["player__first_name", "player__last_name", "player__ema_id"]


@admin.register(EmaRankingEntry)
class EmaRankingEntryAdmin(ReadOnlyAdmin):
    list_display = ["family", "position", "player", "ema_id", "ranking", "results"]
    list_filter = ["family"]
    search_fields = ["player__first_name", "player__last_name", "ema_id"]


@admin.register(ImportedTournament)
class ImportedTournamentAdmin(ReadOnlyAdmin):
    """Imported results are corrected and removed through the import pages, which check every line."""

    list_display = ("name", "family", "starts_on", "players", "countries", "weight", "imported_at")
    list_filter = ("family",)
    search_fields = ("name", "city")
