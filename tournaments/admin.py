from django.contrib import admin

from tournaments.models import (
    Announcement,
    EMAPlayer,
    Player,
    Registration,
    Seat,
    Session,
    SessionClock,
    Table,
    Tournament,
    TournamentRole,
)


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    autocomplete_fields = ["player"]
    fields = ["key", "player", "is_substitute", "withdrawn_from"]


class RoleInline(admin.TabularInline):
    model = TournamentRole
    extra = 0
    autocomplete_fields = ["user"]


class SessionInline(admin.TabularInline):
    model = Session
    extra = 0
    fields = ["number", "starts_at", "status", "seating_published"]
    readonly_fields = ["status", "seating_published"]  # the lifecycle writes them (the console's actions)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "ruleset", "starts_on", "days", "city", "country", "status", "is_public"]
    list_filter = ["status", "ruleset", "is_public", "country", "starts_on"]
    search_fields = ["name", "slug", "city"]
    prepopulated_fields = {"slug": ["name"]}
    date_hierarchy = "starts_on"
    readonly_fields = ["status"]  # the lifecycle writes it (the console's finish and reopen)
    inlines = [RoleInline, SessionInline, RegistrationInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["last_name", "first_name", "ema_id", "country", "club"]
    list_filter = ["country"]
    search_fields = ["first_name", "last_name", "ema_id", "club"]
    readonly_fields = ["private_key", "created_at"]
    autocomplete_fields = ["user"]


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["player", "tournament", "key", "is_substitute", "withdrawn_from"]
    list_filter = ["tournament", "is_substitute"]
    search_fields = ["player__first_name", "player__last_name", "player__ema_id", "key"]
    autocomplete_fields = ["player", "tournament"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["position", "registration"]
    autocomplete_fields = ["registration"]


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "starts_at", "status", "seating_published"]
    list_filter = ["tournament", "status", "seating_published"]
    search_fields = ["tournament__name"]
    readonly_fields = ["status", "seating_published"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["session", "number"]
    list_filter = ["session__tournament", "session__number"]
    search_fields = ["session__tournament__name", "seats__registration__player__last_name"]
    readonly_fields = ["private_key"]
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["table", "position", "registration"]
    list_filter = ["session__tournament", "session__number", "position"]
    search_fields = ["registration__player__first_name", "registration__player__last_name"]
    autocomplete_fields = ["registration"]


@admin.register(TournamentRole)
class TournamentRoleAdmin(admin.ModelAdmin):
    list_display = ["tournament", "user", "role"]
    list_filter = ["role", "tournament"]
    search_fields = ["user__username", "tournament__name"]
    autocomplete_fields = ["user", "tournament"]


@admin.register(EMAPlayer)
class EMAPlayerAdmin(admin.ModelAdmin):
    list_display = ["ema_id", "first_name", "last_name", "country", "updated_at"]
    search_fields = ["ema_id", "first_name", "last_name", "search_text"]
    list_filter = ["country"]
    readonly_fields = ["search_text"]


@admin.register(SessionClock)
class SessionClockAdmin(admin.ModelAdmin):
    """Read-only: the clock changes through its page and API, which check the roles and the states."""

    list_display = ["session", "state", "length_seconds", "ends_at", "extra_seconds", "updated_at"]
    list_filter = ["state", "session__tournament"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Announcement)
class AnnouncementAdmin(admin.ModelAdmin):
    list_display = ["tournament", "text", "is_active", "created_at", "created_by"]
    list_filter = ["is_active", "tournament"]
    search_fields = ["text"]
