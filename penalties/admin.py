"""Penalties in the admin: searchable, with their history; recording goes through the services."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from penalties.models import Penalty


@admin.register(Penalty)
class PenaltyAdmin(SimpleHistoryAdmin):
    list_display = ["tournament", "sequence", "kind", "registration", "session", "points", "cancelled_at"]
    list_filter = ["kind", "tournament", "session__number", ("cancelled_at", admin.EmptyFieldListFilter)]
    search_fields = ["registration__player__first_name", "registration__player__last_name", "reason"]
    readonly_fields = [
        "tournament",
        "registration",
        "kind",
        "points",
        "sequence",
        "recorded_by",
        "recorded_at",
    ]

    def has_add_permission(self, request):
        return False
