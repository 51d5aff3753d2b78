"""Results in the admin: read mostly; entry goes through the pages and the API (versions, history)."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from scoring.models import Hand, SeatSummary, TableResult


class HandInline(admin.TabularInline):
    model = Hand
    extra = 0
    fields = ["number", "data", "created_by", "created_at"]
    readonly_fields = fields
    can_delete = False


@admin.register(TableResult)
class TableResultAdmin(SimpleHistoryAdmin):
    list_display = ["table", "mode", "status", "version", "submitted_at", "confirmed_at"]
    list_filter = ["status", "mode", "table__session__tournament", "table__session__number"]
    search_fields = ["table__session__tournament__name", "table__seats__registration__player__last_name"]
    readonly_fields = [
        "table",
        "status",
        "version",
        "submitted_by",
        "submitted_at",
        "confirmed_by",
        "confirmed_at",
    ]
    inlines = [HandInline]

    def has_add_permission(self, request):
        return False


@admin.register(SeatSummary)
class SeatSummaryAdmin(admin.ModelAdmin):
    list_display = ["session", "table", "position", "registration", "game_score", "table_points", "final"]
    list_filter = ["tournament", "session__number", "excluded"]
    search_fields = ["registration__player__first_name", "registration__player__last_name"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
