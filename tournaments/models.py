"""Players, tournaments, registrations, sessions, tables and seats.

Integrity lives in the database: one seat per registration per session, four distinct winds per
table, table numbers unique within a session, session numbers unique within a tournament.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from scoring.rules.base import RuleError
from scoring.rules.registry import get_ruleset
from tournaments.countries import validate_country
from tournaments.names import fold, name_clean
from tournaments.search import folded_name

RULESET_CHOICES = [
    ("mcr", "MCR (MERS)"),
    ("ema-riichi-2016", "EMA Riichi 2016"),
    ("ema-riichi-2025", "EMA Riichi 2025"),
    ("wrc-riichi", "WRC Riichi"),
    ("ema-riichi-2008", "EMA Riichi 2008"),
    ("salamanca", "Salamanca “Mayón” (Hong Kong)"),
    ("classical", _("Classical Chinese")),
]

ema_id_validator = RegexValidator(
    r"^[0-9]{8}\Z", _("An EMA number has exactly 8 digits (leading zeros kept).")
)


def settings_fault(value) -> str | None:
    """What is wrong with a tournament's settings (None when they are usable).

    An object; ``tiebreaks`` a list of keys (which keys exist is the standings' business: the API and the
    archive import check them), ``players_confirm`` a boolean, ``seating`` an object (its values are read
    with their own checks). Other keys are kept as they are.
    """
    if not isinstance(value, dict):
        return _("The settings must be a JSON object.")
    tiebreaks = value.get("tiebreaks", [])
    if not isinstance(tiebreaks, list) or not all(isinstance(k, str) for k in tiebreaks):
        return _("tiebreaks must be a list of tie-break keys.")
    if "players_confirm" in value and not isinstance(value["players_confirm"], bool):
        return _("players_confirm must be true or false.")
    if "seating" in value and not isinstance(value["seating"], dict):
        return _("seating must be a JSON object.")
    return None


def validate_language(value: str) -> None:
    """One of the site's languages (settings.LANGUAGES), or empty."""
    if value and value not in {code for code, _name in settings.LANGUAGES}:
        raise ValidationError(
            _("%(value)s is not one of the languages of this site."), params={"value": value}, code="language"
        )


def new_private_key() -> str:
    return secrets.token_urlsafe(16)


class Wind(models.IntegerChoices):
    """Seat winds at the start of a session, in seat order (the engines' seat numbers)."""

    EAST = 0, _("East")
    SOUTH = 1, _("South")
    WEST = 2, _("West")
    NORTH = 3, _("North")


WIND_LETTERS = ("E", "S", "W", "N")
#: Where a seat waits while a table's seats are corrected (``SEAT_PARKED`` + its real wind), inside that one
#: transaction only: the four rows change winds and keep their ids, never two players on one wind.
SEAT_PARKED = 10


class FixedParent(models.Model):
    """An object never moves to another parent (a registration's tournament, a session's tournament, a
    table's session, a seat's table): its tournament is where its permissions were checked."""

    fixed_parents: tuple[str, ...] = ()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        self.check_fixed_parents()
        super().save(*args, **kwargs)

    @classmethod
    def from_db(cls, db, field_names, values):
        instance = super().from_db(db, field_names, values)
        instance._loaded_parents = {name: instance.__dict__.get(f"{name}_id") for name in cls.fixed_parents}
        return instance

    def check_fixed_parents(self) -> None:
        loaded = getattr(self, "_loaded_parents", None)
        if self.pk is None or not loaded:
            return
        for name, was in loaded.items():
            if was is not None and getattr(self, f"{name}_id") != was:
                raise ValidationError(
                    {name: _("The %(field)s cannot change after creation.") % {"field": name}}
                )


class Player(models.Model):
    first_name = models.CharField(_("first name"), max_length=100)
    last_name = models.CharField(_("last name"), max_length=100, blank=True)
    ema_id = models.CharField(
        _("EMA number"), max_length=8, null=True, blank=True, unique=True, validators=[ema_id_validator]
    )
    country = models.CharField(_("country"), max_length=3, blank=True, validators=[validate_country])
    club = models.CharField(_("club"), max_length=150, blank=True)
    # the name folded for search (lower case, no accents): see tournaments.search
    search_name = models.CharField(max_length=201, blank=True, editable=False, db_index=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    private_key = models.CharField(max_length=32, unique=True, default=new_private_key, editable=False)
    # the language chosen while on the private link: the link opens in it on any phone
    language = models.CharField(
        _("language"), max_length=10, blank=True, editable=False, validators=[validate_language]
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["last_name", "first_name", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ema_id__isnull=True) | Q(ema_id__regex=r"^[0-9]{8}$"),
                name="player_ema_id_8_digits",
            ),
        ]

    def __str__(self) -> str:
        return self.full_name

    def save(self, *args, **kwargs):
        self.first_name, self.last_name, self.club = map(
            name_clean, (self.first_name, self.last_name, self.club)
        )
        if self.ema_id == "":
            self.ema_id = None
        if self.country:
            self.country = self.country.upper()
        self.search_name = folded_name(self.first_name, self.last_name)
        if kwargs.get("update_fields") is not None and {"first_name", "last_name"} & set(
            kwargs["update_fields"]
        ):
            kwargs["update_fields"] = {*kwargs["update_fields"], "search_name"}
        super().save(*args, **kwargs)

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    ruleset = models.CharField(_("ruleset"), max_length=32, choices=RULESET_CHOICES)
    rules = models.JSONField(_("rule overrides"), default=dict, blank=True)
    starts_on = models.DateField(_("start date"))
    days = models.PositiveSmallIntegerField(
        _("days"), default=1, validators=[MinValueValidator(1), MaxValueValidator(30)]
    )
    city = models.CharField(_("city"), max_length=100, blank=True)
    country = models.CharField(_("country"), max_length=3, blank=True, validators=[validate_country])
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.DRAFT)
    is_public = models.BooleanField(_("public"), default=True)
    qualifies_for_championship = models.BooleanField(
        _("qualifies for a European championship"), default=False
    )
    settings = models.JSONField(_("settings"), default=dict, blank=True)
    team_size = models.PositiveSmallIntegerField(
        _("team size"),
        null=True,
        blank=True,
        validators=[MinValueValidator(2), MaxValueValidator(12)],
        help_text=_("Players per team in a team event; empty when the tournament has no teams."),
    )
    language = models.CharField(
        _("language"),
        max_length=10,
        blank=True,
        validators=[validate_language],
        help_text=_(
            "The language of the venue screen and the printouts, unless the reader chose another; empty: "
            "each reader's own."
        ),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "name"]
        permissions = [("organise_tournaments", "Can organise tournaments")]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        self.name, self.city = name_clean(self.name), name_clean(self.city)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("tournament-home", kwargs={"slug": self.slug})

    def clean(self):
        super().clean()
        if self.country:
            self.country = self.country.upper()
        if self.ruleset:
            try:
                get_ruleset(self.ruleset, self.rules or {})
            except RuleError as exc:
                field = "ruleset" if exc.path == "ruleset" else "rules"
                raise ValidationError({field: str(exc)}) from exc
        if fault := settings_fault(self.settings):
            raise ValidationError({"settings": fault})

    def get_rules(self):
        """The ruleset engine of this tournament, overrides applied."""

        return get_ruleset(self.ruleset, self.rules or {})

    @property
    def family(self) -> str:
        return self.get_rules().family


class Profile(models.Model):
    """What a user chose for themselves: the language of the pages they open signed in."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    language = models.CharField(_("language"), max_length=10, blank=True, validators=[validate_language])

    def __str__(self) -> str:
        return f"{self.user} – {self.language or '-'}"


class Role(models.TextChoices):
    DIRECTOR = "director", _("Director")
    REFEREE = "referee", _("Referee")
    SCORER = "scorer", _("Scorer")


class TournamentRole(models.Model):
    """A user's role in one tournament. Directors manage everything of their tournament; referees
    enter results and penalties; scorers enter results only."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_roles"
    )
    role = models.CharField(max_length=10, choices=Role.choices)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "user", "role"], name="role_once")]

    def __str__(self) -> str:
        return f"{self.user} – {self.get_role_display()} – {self.tournament}"


class Team(models.Model):
    """A club or national team of a tournament. Its members are registrations; teammates never
    share a table and the team ranks on the sum of its members' table points and score."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("name"), max_length=100)
    country = models.CharField(_("country"), max_length=3, blank=True, validators=[validate_country])
    club = models.CharField(_("club"), max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "name"]
        constraints = [models.UniqueConstraint(fields=["tournament", "name"], name="team_name_unique")]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        self.name, self.club = name_clean(self.name), name_clean(self.club)
        super().save(*args, **kwargs)


class Registration(FixedParent):
    fixed_parents = ("tournament",)

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    key = models.CharField(
        _("key"), max_length=40, help_text=_("The player's key in the tournament archive (p1, p2, …).")
    )
    nickname = models.CharField(
        _("nickname"),
        max_length=60,
        blank=True,
        help_text=_("How this tournament shows the player, when not by name."),
    )
    is_substitute = models.BooleanField(_("substitute"), default=False)
    team = models.ForeignKey(
        "Team",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="members",
        verbose_name=_("team"),
    )
    withdrawn_from = models.PositiveSmallIntegerField(
        _("withdrawn from session"),
        null=True,
        blank=True,
        help_text=_("First session the player no longer plays."),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="registration_once"),
            models.UniqueConstraint(fields=["tournament", "key"], name="registration_key_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.tournament}"

    def save(self, *args, **kwargs):
        self.nickname = name_clean(self.nickname)
        super().save(*args, **kwargs)

    @property
    def display_name(self) -> str:
        return self.nickname or self.player.full_name

    def is_active_in(self, session_number: int) -> bool:
        return self.withdrawn_from is None or session_number < self.withdrawn_from

    def plays_in(self, session: Session) -> bool:
        """Due to play ``session``: not withdrawn by then and not absent from it (a substitute plays)."""
        return self.is_active_in(session.number) and self.key not in (session.absent or ())


class Session(FixedParent):
    class Status(models.TextChoices):
        PLANNED = "planned", _("Planned")
        SEATED = "seated", _("Seated")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    fixed_parents = ("tournament",)

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="sessions")
    number = models.PositiveSmallIntegerField(_("number"), validators=[MinValueValidator(1)])
    starts_at = models.DateTimeField(_("planned start"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PLANNED)
    seating_published = models.BooleanField(_("seating published"), default=False)
    checked_in = models.JSONField(
        _("checked in"), default=list, blank=True, help_text=_("Keys of the players present at check-in.")
    )
    absent = models.JSONField(
        _("absent"),
        default=list,
        blank=True,
        help_text=_(
            "Keys of the players absent from this session only (a substitute plays it); they stay in the "
            "draw for the later sessions."
        ),
    )

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="session_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="session_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – {_('session')} {self.number}"


class Table(FixedParent):
    fixed_parents = ("session",)

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("number"), validators=[MinValueValidator(1)])
    private_key = models.CharField(max_length=32, unique=True, default=new_private_key, editable=False)

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="table_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{_('Table')} {self.number} ({_('session')} {self.session.number})"


class Seat(FixedParent):
    """A registration at a table. ``session`` repeats the table's session so that the database itself
    refuses a second seat for one registration in one session."""

    fixed_parents = ("table",)

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="seats", editable=False)
    position = models.PositiveSmallIntegerField(_("wind"), choices=Wind.choices)
    registration = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_wind_unique"),
            models.UniqueConstraint(fields=["session", "registration"], name="seat_once_per_session"),
            models.CheckConstraint(
                condition=Q(position__lte=3) | Q(position__gte=SEAT_PARKED, position__lte=SEAT_PARKED + 3),
                name="seat_wind_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.get_position_display()} {self.registration.player}"

    def save(self, *args, **kwargs):
        self.session_id = self.table.session_id
        super().save(*args, **kwargs)

    @property
    def wind(self) -> str:
        return WIND_LETTERS[self.position]


class EMAPlayer(models.Model):
    """A line of the locally kept EMA player list, imported as CSV; registering by EMA number reads it."""

    ema_id = models.CharField(_("EMA number"), max_length=8, unique=True, validators=[ema_id_validator])
    first_name = models.CharField(_("first name"), max_length=100)
    last_name = models.CharField(_("last name"), max_length=100, blank=True)
    country = models.CharField(_("country"), max_length=3, blank=True)
    search_text = models.CharField(max_length=220, editable=False, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["last_name", "first_name", "ema_id"]
        constraints = [
            models.CheckConstraint(condition=Q(ema_id__regex=r"^[0-9]{8}$"), name="ema_player_id_8_digits"),
        ]

    def __str__(self) -> str:
        return f"{self.ema_id} {self.full_name}"

    def save(self, *args, **kwargs):

        self.first_name, self.last_name = name_clean(self.first_name), name_clean(self.last_name)

        self.search_text = fold(f"{self.ema_id} {self.first_name} {self.last_name}")[:220]
        super().save(*args, **kwargs)

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


class SessionClock(models.Model):
    """The countdown of one session, kept in the database so that a restart changes nothing.

    While running it keeps the instant time is up (``ends_at``); while paused, the time left
    (``remaining_ms``) and, for a table whose own time was up before the pause, when it was
    (``table_ended``); once ended, when time was to be up (``ends_at``) and when it was ended (``ended_at``). ``table_extra`` maps table numbers to extra seconds (negative removes time).
    The arithmetic lives in ``tournaments.clock.engine``.
    """

    class State(models.TextChoices):
        STOPPED = "stopped", _("Not started")
        RUNNING = "running", _("Running")
        PAUSED = "paused", _("Paused")
        ENDED = "ended", _("Ended")

    session = models.OneToOneField(Session, on_delete=models.CASCADE, related_name="clock")
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.STOPPED)
    length_seconds = models.PositiveIntegerField(_("length (seconds)"))
    ends_at = models.DateTimeField(null=True, blank=True)
    remaining_ms = models.BigIntegerField(null=True, blank=True)
    extra_seconds = models.IntegerField(default=0)
    table_extra = models.JSONField(default=dict, blank=True)
    # table number -> ISO instant its own time was up, for a table whose time was up when the clock paused
    table_ended = models.JSONField(default=dict, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=1)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=~Q(state="running") | Q(ends_at__isnull=False), name="clock_running_has_end"
            ),
            models.CheckConstraint(
                condition=~Q(state="paused") | Q(remaining_ms__isnull=False), name="clock_paused_has_rest"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.session}: {self.get_state_display()}"


class Announcement(models.Model):
    """A line the director types for the venue screen."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="announcements")
    text = models.CharField(_("announcement"), max_length=280)
    is_active = models.BooleanField(_("shown"), default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.text
