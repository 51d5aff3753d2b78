"""Importing a tournament archive, validated as live entry is and written in one transaction.

The document is read in its order of meaning: the tournament (ruleset and overrides through the registry),
the players, then the sessions one at a time (seats, and each table's game replayed by the rule engine or
its totals checked), then the penalties through the same service as live entry. The first fault stops the
import with the JSON path of the faulty value and nothing is written.

Played tables become confirmed results with their summary rows, so the standings follow at once, unless
the document records another state: a backup of a running tournament keeps each table's state (draft,
submitted), each session's and the tournament's status, and its tables' empty seats.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings as site_settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from penalties.kinds import kind_of
from penalties.models import Penalty
from penalties.services import penalty_record
from rankings.standings.engine import check_tiebreaks
from rankings.submission import services as submission_services
from scoring import handshape
from scoring.calls import services as call_services
from scoring.lifecycle import CONFIRMED, result_loaded
from scoring.models import Hand, SeatSummary, TableResult
from scoring.rules.base import GameResult, RuleError
from scoring.rules.numbers import read_text
from scoring.rules.registry import get_ruleset
from scoring.services import seats_note, summary_rows
from scoring.tiles import services as tiles_services
from tournaments import lifecycle
from tournaments import services as tournament_services
from tournaments.countries import is_country
from tournaments.models import Player, Registration, Role, Seat, Session, Table, Team, Tournament
from tournaments.permissions import Actor
from tournaments.search import folded_name
from tournaments.signals import RESULTS, ROSTER, SCHEDULE, SETTINGS, one_event
from tournaments.teams.services import MAX_TEAM_SIZE

from . import shape
from .shape import join, show

IMPORT_REASON = "imported from a tournament archive"
# hands written (with their history rows) at a time: their rows and query parameters are held until written
HAND_BATCH = 200
_END = object()


@dataclass
class _PlannedTable:
    number: int
    seat_keys: tuple[str, ...]
    hands: list[dict[str, Any]]
    scores: list[Any] | None
    imbalance_reason: str
    game: GameResult | None  # the engine's game, None when not played
    valuations: list[dict[str, Any] | None] = dataclasses.field(default_factory=list)  # per hand (tiles)
    status: str = CONFIRMED  # a played table's result: confirmed unless the document says otherwise
    seat_corrections: list[dict[str, Any]] = dataclasses.field(
        default_factory=list
    )  # as the result keeps them

    @property
    def played(self) -> bool:
        return self.game is not None


def _validation_error(exc: ValidationError, path: str) -> RuleError:
    """A model validation error as a RuleError naming the field."""
    if hasattr(exc, "error_dict"):
        name, errors = next(iter(exc.error_dict.items()))
        messages = [str(m) for e in errors for m in e.messages]
        return RuleError(messages[0] if messages else "invalid value", join(path, name))
    return RuleError(str(exc.messages[0]) if exc.messages else "invalid value", path)


def tournament_delete(tournament: Tournament) -> None:
    """Delete a tournament and everything in it (its players stay: they are shared)."""
    Penalty.objects.filter(tournament=tournament).delete()
    SeatSummary.objects.filter(tournament=tournament).delete()
    Seat.objects.filter(session__tournament=tournament).delete()
    tournament.delete()


class ArchiveImport:
    """One import: call :meth:`run` once."""

    def __init__(self, source, *, replace: bool = False, user=None, progress=None):
        self.source = source
        self.progress = progress  # called with (steps done, steps in all): players, each session, penalties
        self.replace = replace
        self.user = user if user is not None and getattr(user, "is_authenticated", False) else None
        self.actor = Actor(user=self.user, role=Role.DIRECTOR)
        self.registrations: dict[str, int] = {}  # player key -> registration id
        self.players_by_key: dict[str, dict] = {}  # player key -> the player's checked fields
        self.absent: dict[int, list[str]] = {}  # session number -> players absent from it only
        self.tiles_mode = tiles_services.DEFAULT_MODE  # the tournament's setting "tiles"
        self.sessions: dict[int, Session] = {}
        self.statuses: dict[int, str] = {}  # session id → the status the document records
        self.tournament_status: str | None = None  # as the document records it (None: from the sessions)
        self.kept_roles: list[tuple[int, str]] = []
        self.previous_players: dict[str, Player] = {}
        self.now = timezone.now()
        self.penalties_made: list[Penalty] = []  # in the order of the archive's penalties

    # -- the whole document ------------------------------------------------------------------------

    def run(self) -> Tournament:
        head = self.source.head
        shape.fields(head, "", "the archive", shape.TOP_REQUIRED, shape.TOP_OPTIONAL)
        if head["format"] != shape.FORMAT:
            raise RuleError(f'format must be "{shape.FORMAT}", not {show(head["format"])}', "format")
        if head["version"] != shape.VERSION or isinstance(head["version"], bool):
            raise RuleError(
                f"this is version {show(head['version'])} of the archive format; "
                f"version {shape.VERSION} is the one known here",
                "version",
            )
        with transaction.atomic(), one_event():  # what it writes is one change, said once at the end
            self.tournament = self._tournament(head["tournament"])
            self._players(head["players"])
            self._teams(head.get("teams"))
            steps = 2 + getattr(self.source, "session_count", 0)
            self._report(1, steps)
            sessions = self.source.sessions()
            index = 0
            while (raw := next(sessions, _END)) is not _END:
                planned = self._session(index, raw)
                del raw  # only the checked plan of the session stays in memory while it is written
                self._write_session(*planned)
                index += 1
                self._report(1 + index, max(steps, 2 + index))
            self._penalties(head.get("penalties"))
            self._referee_calls(head.get("referee_calls"))
            self._ema_submission(head.get("ema_submission"))
            self._statuses()
        return self.tournament

    def _ema_submission(self, doc: Any) -> None:
        """The EMA submission's facts (observer, referees, prizes, substitutes' answers, the observer's
        comments), checked by the service that live entry uses; faults name ``ema_submission.<field>``."""
        if doc is None:
            return
        if not isinstance(doc, dict):
            raise RuleError(f"ema_submission must be an object, not {show(doc)}", "ema_submission")
        try:
            submission_services.submission_update(tournament=self.tournament, changes=doc)
        except RuleError as exc:
            raise exc.within("ema_submission") from None

    def _report(self, done: int, steps: int) -> None:
        if self.progress is not None:
            self.progress(done, steps)

    # -- tournament ----------------------------------------------------------------------------------

    def _tournament(self, doc: Any) -> Tournament:
        path = "tournament"
        t = shape.fields(doc, path, "the tournament", shape.TOURNAMENT_REQUIRED, shape.TOURNAMENT_OPTIONAL)
        fields = self._tournament_fields(t, path)
        settings = self._tournament_settings(t, path)
        self._replace_existing(fields["slug"], path)
        try:
            tournament = tournament_services.tournament_create(
                **fields, ruleset=t["ruleset"], settings=dict(settings), director=self.user
            )
        except ValidationError as exc:
            raise _validation_error(exc, path) from None
        for user_id, role in self.kept_roles:
            tournament.roles.get_or_create(user_id=user_id, role=role)
        if self.team_size is not None:
            tournament.team_size = self.team_size
            tournament.save(update_fields=["team_size"])
        return tournament

    def _tournament_fields(self, t: Mapping[str, Any], path: str) -> dict[str, Any]:
        """The tournament's checked fields, as ``tournament_create`` takes them; its ruleset, team size
        and status kept on the import."""
        name = shape.text(t, "name", path, max_length=200, required=True)
        slug = t["slug"]
        if not isinstance(slug, str) or not shape.SLUG.match(slug) or len(slug) > 80:
            raise RuleError(
                f"slug must be 1 to 80 letters, digits, hyphens or underscores, not {show(slug)}",
                join(path, "slug"),
            )
        rules = t.get("rules")
        if rules is None:
            rules = {}
        try:
            self.rules = get_ruleset(t["ruleset"], rules)
        except RuleError as exc:
            raise exc.within(path) from None
        starts_on = shape.date(t, "starts_on", path)
        days = shape.whole(t.get("days", 1), join(path, "days"), "days")
        if days > 30:
            raise RuleError(f"days must be at most 30, not {days}", join(path, "days"))
        fields = {
            "name": name,
            "slug": slug,
            "rules": dict(rules),
            "starts_on": starts_on,
            "days": days,
            "city": shape.text(t, "city", path, max_length=100),
            "country": self._country(t, path),
            "is_public": shape.flag(t, "is_public", path, default=True),
            "qualifies_for_championship": shape.flag(t, "qualifies_for_championship", path),
            "language": self._language(t, path),
        }
        self.team_size = self._team_size(t, path)
        status = t.get("status")
        if status is not None and status not in shape.TOURNAMENT_STATUSES:
            raise RuleError(
                f"status must be one of {', '.join(shape.TOURNAMENT_STATUSES)}, not {show(status)}",
                join(path, "status"),
            )
        self.tournament_status = status
        return fields

    @staticmethod
    def _language(t: Mapping[str, Any], path: str) -> str:
        language = shape.text(t, "language", path, max_length=10)
        codes = [code for code, _name in site_settings.LANGUAGES]
        if language and language not in codes:
            raise RuleError(
                f"language must be one of {', '.join(codes)}, not {show(language)}", join(path, "language")
            )
        return language

    @staticmethod
    def _team_size(t: Mapping[str, Any], path: str) -> int | None:
        team_size = t.get("team_size")
        if team_size is not None:
            team_size = shape.whole(team_size, join(path, "team_size"), "team_size")
            if not 2 <= team_size <= MAX_TEAM_SIZE:
                raise RuleError(
                    f"team_size must be from 2 to {MAX_TEAM_SIZE}, not {team_size}", join(path, "team_size")
                )
        return team_size

    def _tournament_settings(self, t: Mapping[str, Any], path: str) -> Mapping[str, Any]:
        """The tournament's settings, their tiles mode and tie-breaks checked."""
        settings = t.get("settings")
        if settings is None:
            settings = {}
        if not isinstance(settings, Mapping):
            raise RuleError(f"settings must be an object, not {show(settings)}", join(path, "settings"))
        if "tiles" in settings:
            try:
                tiles_services.tiles_mode_check(settings["tiles"])
            except RuleError as exc:
                raise exc.within(join(path, "settings")) from None
        self.tiles_mode = settings.get("tiles", tiles_services.DEFAULT_MODE)
        if "tiebreaks" in settings:
            try:
                check_tiebreaks(settings["tiebreaks"])
            except RuleError as exc:
                raise exc.within(join(path, "settings")) from None
        return settings

    def _replace_existing(self, slug: str, path: str) -> None:
        """Delete the tournament of the same slug when replacing it (its staff roles and players are kept
        for the new one); refuse otherwise."""
        existing = Tournament.objects.select_for_update().filter(slug=slug).first()
        if existing is None:
            return
        if not self.replace:
            raise RuleError(
                f"a tournament with the slug '{slug}' already exists; import with replace to overwrite it",
                join(path, "slug"),
            )
        self.kept_roles = list(existing.roles.values_list("user_id", "role"))
        self.previous_players = {r.key: r.player for r in existing.registrations.select_related("player")}
        tournament_delete(existing)

    @staticmethod
    def _country(obj: Mapping[str, Any], path: str) -> str:
        country = shape.text(obj, "country", path, max_length=3).upper()
        if country and not is_country(country):
            raise RuleError(
                f"{country} is not an ISO 3166 three-letter country code (for example ESP, FRA, NLD)",
                join(path, "country"),
            )
        return country

    # -- players -------------------------------------------------------------------------------------

    def _players(self, doc: Any) -> None:
        if not isinstance(doc, list):
            raise RuleError(f"players must be a list of players, not {show(doc)}", "players")
        keys: dict[str, int] = {}
        ema_ids: dict[str, int] = {}
        parsed = [self._player(i, raw, keys, ema_ids) for i, raw in enumerate(doc)]
        known = {p.ema_id: p for p in Player.objects.filter(ema_id__in=list(ema_ids))}
        self._refuse_hidden(known, ema_ids)
        chosen = self._chosen_players(parsed, known)
        registrations = []
        for i, (p, player) in enumerate(zip(parsed, chosen, strict=True)):
            registration = Registration(
                tournament=self.tournament,
                player=player,
                key=p["key"],
                is_substitute=p["substitute"],
                withdrawn_from=p["withdrawn_from"],
            )
            self._clean(registration, f"players[{i}]")
            registrations.append(registration)
        for registration in Registration.objects.bulk_create(registrations):
            self.registrations[registration.key] = registration.pk
        self.player_teams = [(i, p["key"], p["team"]) for i, p in enumerate(parsed) if p["team"]]
        self.players_by_key = {p["key"]: p for p in parsed}

    def _player(self, i: int, raw: Any, keys: dict[str, int], ema_ids: dict[str, int]) -> dict[str, Any]:
        """The checked fields of ``players[i]``; ``keys`` and ``ema_ids``: where each was seen so far."""
        path = f"players[{i}]"
        p = shape.fields(raw, path, "a player", shape.PLAYER_REQUIRED, shape.PLAYER_OPTIONAL)
        key = p["key"]
        if not isinstance(key, str) or not key or key != key.strip() or len(key) > 40:
            raise RuleError(
                f"a player's key is 1 to 40 characters without surrounding spaces, not {show(key)}",
                join(path, "key"),
            )
        if key in keys:
            raise RuleError(f"the key {key} is already used by players[{keys[key]}]", join(path, "key"))
        keys[key] = i
        ema_id = p.get("ema_id")
        if ema_id in (None, ""):
            ema_id = None
        elif not isinstance(ema_id, str) or not shape.EMA_ID.match(ema_id):
            raise RuleError(
                f"an EMA number is text of exactly 8 digits (leading zeros kept), not {show(ema_id)}",
                join(path, "ema_id"),
            )
        elif ema_id in ema_ids:
            raise RuleError(
                f"EMA number {ema_id} is already given to players[{ema_ids[ema_id]}]",
                join(path, "ema_id"),
            )
        else:
            ema_ids[ema_id] = i
        withdrawn = p.get("withdrawn_from")
        if withdrawn is not None:
            withdrawn = shape.whole(withdrawn, join(path, "withdrawn_from"), "withdrawn_from")
        return {
            "key": key,
            "first_name": shape.text(p, "first_name", path, max_length=100, required=True),
            "last_name": shape.text(p, "last_name", path, max_length=100),
            "ema_id": ema_id,
            "country": self._country(p, path),
            "club": shape.text(p, "club", path, max_length=150),
            "substitute": shape.flag(p, "substitute", path),
            "withdrawn_from": withdrawn,
            "team": shape.text(p, "team", path, max_length=100),
        }

    def _refuse_hidden(self, known: dict[str, Player], ema_ids: dict[str, int]) -> None:
        """A player the importer may not see (another organiser's private player) is never reused; the
        replaced tournament's own players are his."""
        kept = {player.pk for player in self.previous_players.values()}
        hidden = tournament_services.players_hidden(
            ids=[p.pk for p in known.values() if p.pk not in kept], user=self.user
        )
        for ema_id, i in ema_ids.items():
            if ema_id in known and known[ema_id].pk in hidden:
                raise RuleError(
                    f"EMA number {ema_id} belongs to a player of a tournament you cannot see; check the "
                    "number, or ask that tournament's director or the site's staff to import it",
                    f"players[{i}].ema_id",
                )

    def _chosen_players(self, parsed: list[dict[str, Any]], known: dict[str, Player]) -> list[Player]:
        """Each player's record: the one of their EMA number, the replaced tournament's, or a new one."""
        chosen: list[Player] = []
        new: list[Player] = []
        for i, p in enumerate(parsed):
            player = known.get(p["ema_id"]) if p["ema_id"] else self._previous(p)
            if player is None:
                player = Player(
                    first_name=p["first_name"],
                    last_name=p["last_name"],
                    ema_id=p["ema_id"],
                    country=p["country"],
                    club=p["club"],
                    search_name=folded_name(p["first_name"], p["last_name"]),
                )
                self._clean(player, f"players[{i}]")
                new.append(player)
            chosen.append(player)
        Player.objects.bulk_create(new)
        return chosen

    def _teams(self, doc: Any) -> None:
        """The top-level ``teams`` (name, country, club) and every team a player names; each team at most
        ``team_size`` players."""
        details: dict[str, dict[str, str]] = {}
        if doc is not None:
            if not isinstance(doc, list):
                raise RuleError(f"teams must be a list, not {show(doc)}", "teams")
            for i, raw in enumerate(doc):
                path = f"teams[{i}]"
                t = shape.fields(raw, path, "a team", shape.TEAM_REQUIRED, shape.TEAM_OPTIONAL)
                name = shape.text(t, "name", path, max_length=100, required=True)
                if name.casefold() in details:
                    raise RuleError(f"the team {name!r} is listed twice", join(path, "name"))
                details[name.casefold()] = {
                    "name": name,
                    "country": self._country(t, path),
                    "club": shape.text(t, "club", path, max_length=150),
                }
        for _i, _key, name in self.player_teams:
            details.setdefault(name.casefold(), {"name": name, "country": "", "club": ""})
        if not details:
            return
        teams = {}
        for folded, fields in details.items():
            team = Team(tournament=self.tournament, **fields)
            self._clean(team, "teams")
            teams[folded] = team
        Team.objects.bulk_create(teams.values())
        limit = self.team_size or MAX_TEAM_SIZE
        size: dict[str, int] = {}
        for i, key, name in self.player_teams:
            size[name.casefold()] = size.get(name.casefold(), 0) + 1
            if size[name.casefold()] > limit:
                raise RuleError(
                    f"the team {name!r} would have more than {limit} players", f"players[{i}].team"
                )
            Registration.objects.filter(pk=self.registrations[key]).update(team=teams[name.casefold()])

    @staticmethod
    def _clean(obj, path: str) -> None:
        """The model's own field checks (uniqueness is settled above, in the whole archive)."""
        try:
            obj.full_clean(validate_unique=False, validate_constraints=False)
        except ValidationError as exc:
            raise _validation_error(exc, path) from None

    def _previous(self, p: Mapping[str, Any]) -> Player | None:
        """On replace, the same player of the replaced tournament (same key and name, no EMA number), so
        that their private link stays the same."""
        player = self.previous_players.get(p["key"])
        if (
            player is not None
            and player.ema_id is None
            and player.first_name == p["first_name"]
            and player.last_name == p["last_name"]
        ):
            return player
        return None

    def _registration(self, key: Any, path: str) -> int:
        """The registration id of a player key of the archive."""
        if isinstance(key, str) and key in self.registrations:
            return self.registrations[key]
        raise RuleError(f"{show(key)} is not the key of a player of this archive", path)

    # -- sessions ------------------------------------------------------------------------------------

    def _session(
        self, index: int, doc: Any
    ) -> tuple[int, dt.datetime | None, list[_PlannedTable], str, str | None, bool | None]:
        path = f"sessions[{index}]"
        s = shape.fields(doc, path, "a session", shape.SESSION_REQUIRED, shape.SESSION_OPTIONAL)
        number = shape.whole(s["number"], join(path, "number"), "number")
        if number in self.sessions:
            raise RuleError(f"session {number} is listed twice", join(path, "number"))
        starts_at = self._datetime(s.get("starts_at"), join(path, "starts_at"))
        tables = s.get("tables")
        if tables is None:
            tables = []
        if not isinstance(tables, list):
            raise RuleError(f"tables must be a list of tables, not {show(tables)}", join(path, "tables"))
        planned: list[_PlannedTable] = []
        numbers: dict[int, int] = {}
        seated: dict[str, int] = {}
        for j, raw in enumerate(tables):
            planned.append(self._table(raw, f"{path}.tables[{j}]", numbers, seated))
        self.absent[number] = self._absent(s.get("absent"), join(path, "absent"), number, seated)
        status = s.get("status")
        if status is not None and status not in shape.SESSION_STATUSES:
            raise RuleError(
                f"status must be one of {', '.join(shape.SESSION_STATUSES)}, not {show(status)}",
                join(path, "status"),
            )
        if status is None:
            status = shape.session_status_implied(
                [{"hands": [None] if p.played else [], "status": p.status} for p in planned]
            )
        if status == Session.Status.FINISHED:
            for plan in planned:
                if plan.status != CONFIRMED or not plan.played:
                    raise RuleError(
                        f"session {number} is finished but its table {plan.number} is not confirmed",
                        join(path, "status"),
                    )
        published = shape.flag(s, "published", path, default=bool(planned)) if "published" in s else None
        return number, starts_at, planned, path, status, published

    def _absent(self, value: Any, path: str, number: int, seated: dict[str, int]) -> list[str]:
        """``sessions[].absent``: players absent from this session only (a substitute played it): keys of
        players who are no substitutes, still in the tournament, not seated in it, each once."""
        if value is None:
            return []
        if not isinstance(value, list):
            raise RuleError(f"absent must be a list of player keys, not {show(value)}", path)
        keys: list[str] = []
        for i, key in enumerate(value):
            where = f"{path}[{i}]"
            self._registration(key, where)
            player = self.players_by_key[key]
            if player["substitute"]:
                raise RuleError(f"{key} is a substitute: only a player is absent from a session", where)
            if player["withdrawn_from"] is not None and number >= player["withdrawn_from"]:
                raise RuleError(f"{key} has withdrawn before session {number}: not absent from it", where)
            if key in seated:
                raise RuleError(f"{key} is absent from session {number} but seated in it", where)
            if key in keys:
                raise RuleError(f"{key} is listed twice", where)
            keys.append(key)
        return sorted(keys)

    @staticmethod
    def _datetime(value: Any, path: str) -> dt.datetime | None:
        if value is None:
            return None
        try:
            parsed = parse_datetime(value) if isinstance(value, str) else None
        except ValueError:  # well formed but not a real date or time
            parsed = None
        if parsed is None:
            raise RuleError(
                f"starts_at must be a date and time written YYYY-MM-DDTHH:MM[:SS][+HH:MM], not {show(value)}",
                path,
            )
        if timezone.is_naive(parsed):
            parsed = timezone.make_aware(parsed)
        return parsed

    def _table(self, raw: Any, path: str, numbers: dict[int, int], seated: dict[str, int]) -> _PlannedTable:
        t = shape.fields(raw, path, "a table", shape.TABLE_REQUIRED, shape.TABLE_OPTIONAL)
        number = shape.whole(t["number"], join(path, "number"), "number")
        if number in numbers:
            raise RuleError(f"table {number} is listed twice in this session", join(path, "number"))
        numbers[number] = number
        seats = t["seats"]
        if not isinstance(seats, list) or len(seats) != 4:
            count = len(seats) if isinstance(seats, list) else show(seats)
            raise RuleError(
                f"seats lists the four players East, South, West, North, not {count}", join(path, "seats")
            )
        played = shape.table_played(t)
        for k, key in enumerate(seats):
            where = f"{path}.seats[{k}]"
            if key is None and not played:
                continue  # an empty seat of a table not played yet (a backup of a live session)
            self._registration(key, where)
            if key in seats[:k]:
                raise RuleError(f"{key} sits twice at table {number}", where)
            if key in seated:
                raise RuleError(f"{key} already sits at table {seated[key]} in this session", where)
        for key in seats:
            if key is not None:
                seated[key] = number
        seat_keys = tuple(seats)
        status = t.get("status", CONFIRMED)
        if status not in shape.TABLE_STATUSES:
            raise RuleError(
                f"status must be one of {', '.join(shape.TABLE_STATUSES)}, not {show(status)}",
                join(path, "status"),
            )
        if "status" in t and not played:
            raise RuleError("status goes with a table that has hands or scores", join(path, "status"))

        hands = t.get("hands")
        if hands is None:
            hands = []
        if not isinstance(hands, list):
            raise RuleError(f"hands must be a list of hands, not {show(hands)}", join(path, "hands"))
        scores = t.get("scores")
        reason = read_text(t.get("imbalance_reason"), field=join(path, "imbalance_reason"))
        if hands and scores is not None:
            raise RuleError(
                "a table has either hands (hand by hand) or scores (game totals), not both",
                join(path, "scores"),
            )
        if reason and scores is None:
            raise RuleError(
                "imbalance_reason goes with the scores of a table entered as game totals",
                join(path, "imbalance_reason"),
            )
        seat_hands: list[dict[str, Any]] = []
        valuations: list[dict[str, Any] | None] = []
        game = None
        if hands:
            seat_hands, valuations, game = self._hands(hands, seat_keys, number, path)
        elif scores is not None:
            try:
                game = self.rules.game_from_totals(scores, imbalance_reason=reason)
            except RuleError as exc:
                inner = exc if exc.path.startswith(("scores", "imbalance_reason")) else exc.within("scores")
                raise inner.within(path) from None
            scores = list(scores)
        if game is not None:
            game = dataclasses.replace(game, steps=())  # the summary rows need the final scores only
        corrections = self._seat_corrections(t.get("seat_corrections"), join(path, "seat_corrections"), seats)
        if corrections and game is None:
            raise RuleError(
                "seat_corrections goes with a table that has hands or scores", join(path, "seat_corrections")
            )
        planned = _PlannedTable(number, seat_keys, seat_hands, scores, reason, game, valuations, status)
        planned.seat_corrections = corrections
        return planned

    def _seat_corrections(self, value: Any, path: str, seats: Sequence[Any]) -> list[dict[str, Any]]:
        """A table seated otherwise than planned: each correction's seating before and after (the players'
        keys East to North), when, by whom and why; the first starts from the planned seating, each starts
        where the one before ended, and the last ends on the table's ``seats``."""
        if value is None:
            return []
        if not isinstance(value, list) or len(value) > shape.SEAT_CORRECTIONS_MAX:
            raise RuleError(
                f"seat_corrections must be a list of at most {shape.SEAT_CORRECTIONS_MAX} corrections, "
                f"not {show(value)}",
                path,
            )
        out: list[dict[str, Any]] = []
        for i, raw in enumerate(value):
            where = f"{path}[{i}]"
            c = shape.fields(
                raw,
                where,
                "a seat correction",
                shape.SEAT_CORRECTION_REQUIRED,
                shape.SEAT_CORRECTION_OPTIONAL,
            )
            before, after = (self._seating(c[name], join(where, name), seats) for name in ("from", "to"))
            if before == after:
                raise RuleError("a seat correction moves at least two players", join(where, "to"))
            if out and before != out[-1]["to"]:
                raise RuleError(
                    f"from must be the seating the correction before left: {' '.join(out[-1]['to'])}",
                    join(where, "from"),
                )
            at = self._correction_time(c.get("at"), join(where, "at"))
            entry = {
                "at": at,
                "from": before,
                "to": after,
                "by": read_text(c.get("by"), field=join(where, "by"), limit=150),
                "reason": read_text(c.get("reason"), field=join(where, "reason"), limit=500),
            }
            out.append(entry)
        if out and out[-1]["to"] != list(seats):
            raise RuleError(
                "the last seat correction ends on the table's seats", f"{path}[{len(out) - 1}].to"
            )
        return out

    @staticmethod
    def _seating(value: Any, path: str, seats: Sequence[Any]) -> list[str]:
        if (
            not isinstance(value, list)
            or not all(isinstance(k, str) for k in value)
            or sorted(value) != sorted(map(str, seats))
        ):
            raise RuleError(
                f"a seating lists the table's four players East to North, each once, not {show(value)}", path
            )
        return [str(k) for k in value]

    def _correction_time(self, value: Any, path: str) -> str | None:
        if value is None:
            return None
        try:
            parsed = parse_datetime(value) if isinstance(value, str) and len(value) <= 40 else None
        except ValueError:  # well formed but not a real date or time
            parsed = None
        if parsed is None:
            raise RuleError(
                f"at must be a date and time written YYYY-MM-DDTHH:MM[:SS][+HH:MM], not {show(value)}", path
            )
        if timezone.is_naive(parsed):
            parsed = timezone.make_aware(parsed)
        return parsed.isoformat()

    def _hands(
        self, hands: Sequence[Any], seat_keys: Sequence[str], table_number: int, path: str
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any] | None], GameResult]:
        converted: list[dict[str, Any]] = []
        valuations: list[dict[str, Any] | None] = []
        for h, hand in enumerate(hands):
            try:
                if not isinstance(hand, Mapping):
                    raise RuleError(f"a hand must be an object, not {show(hand)}", "")
                data = handshape.clean(handshape.to_seats(hand, seat_keys, table_number=table_number))
                if tiles_services.hand_has_tiles(data):
                    self._play(converted, path)  # the tiles are valued in the state the earlier hands make
                data, valuation = tiles_services.hand_tiles_prepare(
                    rules=self.rules, mode=self.tiles_mode, previous=converted, hand=data, on_differ="refuse"
                )
                converted.append(data)
                valuations.append(valuation)
            except RuleError as exc:
                self._play(converted, path)  # a fault in an earlier hand comes first
                raise exc.within(f"{path}.hands[{h}]") from None
        return converted, valuations, self._play(converted, path)

    def _play(self, hands: list[dict[str, Any]], path: str) -> GameResult:
        try:
            return self.rules.play_game(hands)
        except RuleError as exc:
            inner = exc if exc.path.startswith("hands") else exc.within("hands")
            raise inner.within(path) from None

    def _write_session(
        self,
        number: int,
        starts_at: dt.datetime | None,
        planned: list[_PlannedTable],
        path: str,
        status: str,
        published: bool | None,
    ) -> None:
        try:
            session = tournament_services.session_create(
                tournament=self.tournament,
                number=number,
                starts_at=starts_at,
                absent=self.absent.get(number, ()),
            )
        except ValidationError as exc:
            raise _validation_error(exc, path) from None
        self.sessions[number] = session
        tables = Table.objects.bulk_create([Table(session=session, number=p.number) for p in planned])
        Seat.objects.bulk_create(
            Seat(table=table, session=session, position=position, registration_id=self.registrations[key])
            for table, plan in zip(tables, planned, strict=True)
            for position, key in enumerate(plan.seat_keys)
            if key is not None
        )
        played = [(table, plan) for table, plan in zip(tables, planned, strict=True) if plan.played]
        results = [
            result_loaded(
                table=table,
                status=plan.status,
                user=self.user,
                at=self.now,
                mode=TableResult.Mode.HANDS if plan.hands else TableResult.Mode.TOTALS,
                scores=plan.scores,
                imbalance_reason=plan.imbalance_reason,
            )
            for table, plan in played
        ]
        for result, (_t, plan) in zip(results, played, strict=True):
            if plan.seat_corrections:  # seated otherwise than planned: the history says who, what and why
                result.seat_corrections = plan.seat_corrections
                result._change_reason = "; ".join(
                    [IMPORT_REASON]
                    + [
                        seats_note(c["from"], c["to"], c["reason"]) + (f" (by {c['by']})" if c["by"] else "")
                        for c in plan.seat_corrections
                    ]
                )
        TableResult.objects.bulk_create(results)
        TableResult.history.bulk_history_create(
            results, default_user=self.user, default_change_reason=IMPORT_REASON, default_date=self.now
        )
        batch: list[Hand] = []
        for result, (_, plan) in zip(results, played, strict=True):
            for n, data in enumerate(plan.hands, start=1):
                valuation = plan.valuations[n - 1] if n <= len(plan.valuations) else None
                batch.append(
                    Hand(result=result, number=n, data=data, valuation=valuation, created_by=self.user)
                )
                if len(batch) == HAND_BATCH:
                    self._write_hands(batch)
                    batch = []
            plan.hands = []
        self._write_hands(batch)
        SeatSummary.objects.bulk_create(
            [
                row
                for result, (table, plan) in zip(results, played, strict=True)
                if plan.status == CONFIRMED  # a table's rows are written when it is confirmed
                for row in self._summaries(result, table, plan)
            ]
        )
        # The status the document records is written by the lifecycle at the end (``_statuses``), after the
        # penalties: until then the session is open to them, as in live entry.
        self.statuses[session.pk] = status
        session.seating_published = bool(planned) if published is None else published
        session.save(update_fields=["seating_published"])
        for table in tables:  # a table and its result name each other: a cycle only the collector would free
            table._state.fields_cache.clear()

    def _write_hands(self, hands: list[Hand]) -> None:
        Hand.objects.bulk_create(hands)
        Hand.history.bulk_history_create(
            hands, default_user=self.user, default_change_reason=IMPORT_REASON, default_date=self.now
        )

    def _summaries(self, result: TableResult, table: Table, plan: _PlannedTable) -> list[SeatSummary]:
        """The summary rows of a confirmed table, as ``scoring.services.summaries_write`` writes them for a
        table without penalties (penalties come later and rewrite the rows of the tables they touch)."""
        return summary_rows(
            table=table,
            result_version=result.version,
            outcome=self.rules.table_result(plan.game),
            registration_ids=[self.registrations[key] for key in plan.seat_keys],
        )

    # -- penalties -----------------------------------------------------------------------------------

    def _penalties(self, doc: Any) -> None:
        if doc is None:
            return
        if not isinstance(doc, list):
            raise RuleError(f"penalties must be a list of penalties, not {show(doc)}", "penalties")
        for i, raw in enumerate(doc):
            self.penalties_made.append(self._penalty(raw, f"penalties[{i}]"))

    def _penalty(self, raw: Any, path: str) -> Penalty:
        if not isinstance(raw, Mapping):
            raise RuleError(f"a penalty must be an object, not {show(raw)}", path)
        kind = raw.get("kind")
        if kind not in shape.PENALTY_EXTRA:
            what = "needs 'kind'" if "kind" not in raw else f"kind {show(kind)} is unknown"
            raise RuleError(f"a penalty {what} (kinds: {', '.join(shape.PENALTY_EXTRA)})", join(path, "kind"))
        p = shape.fields(
            raw,
            path,
            f"a {kind} penalty",
            ("player", "kind"),
            (*shape.PENALTY_COMMON[2:], *shape.PENALTY_EXTRA[kind]),
        )
        registration = Registration.objects.get(pk=self._registration(p["player"], join(path, "player")))
        session_number = p.get("session")
        session = None
        if session_number is not None:
            session_number = shape.whole(session_number, join(path, "session"), "session")
            session = self.sessions.get(session_number)
            if session is None:
                raise RuleError(f"session {session_number} is not in the archive", join(path, "session"))
        if not kind_of(kind).session_needed(p.get("scope") or "") and session is not None:
            raise RuleError("a disqualification from the tournament names no session", join(path, "session"))
        table = None
        if p.get("table") is not None:
            table_number = shape.whole(p["table"], join(path, "table"), "table")
            if session is None:
                raise RuleError("a penalty at a table needs its session", join(path, "session"))
            table = Table.objects.filter(session=session, number=table_number).first()
            if table is None:
                raise RuleError(f"session {session_number} has no table {table_number}", join(path, "table"))
        hand = p.get("hand")
        if hand is not None:  # its place at the table is checked by penalty_record, as in live entry
            hand = shape.whole(hand, join(path, "hand"), "hand")
        substitute = None
        if p.get("by") is not None:
            substitute = Registration.objects.get(pk=self._registration(p["by"], join(path, "by")))
        for name in ("variant", "scope", "reason"):
            if p.get(name) is not None and not isinstance(p[name], str):
                raise RuleError(f"{name} must be text, not {show(p[name])}", join(path, name))
        points = p.get("points")
        if points is not None:
            shape.number(points, join(path, "points"))
        try:
            return penalty_record(
                tournament=self.tournament,
                registration=registration,
                kind=kind,
                actor=self.actor,
                session=session,
                table=table,
                hand_number=hand,
                variant=p.get("variant") or "",
                minutes_late=p.get("minutes_late"),
                persists=shape.flag(p, "persists", path),
                scope=p.get("scope") or "",
                substitute=substitute,
                during=shape.flag(p, "during", path),
                reason=p.get("reason") or "",
                points=points,
            )
        except RuleError as exc:
            raise exc.within(path) from None

    # -- referee calls -------------------------------------------------------------------------------

    def _referee_calls(self, doc: Any) -> None:
        """The tables' calls of a referee, with their times, through the calls' own service."""
        if doc is None:
            return
        if not isinstance(doc, list):
            raise RuleError(f"referee_calls must be a list of calls, not {show(doc)}", "referee_calls")
        for i, raw in enumerate(doc):
            path = f"referee_calls[{i}]"
            c = shape.fields(raw, path, "a referee call", shape.CALL_REQUIRED, shape.CALL_OPTIONAL)
            number = shape.whole(c["session"], join(path, "session"), "session")
            session = self.sessions.get(number)
            if session is None:
                raise RuleError(f"session {number} is not in the archive", join(path, "session"))
            table_number = shape.whole(c["table"], join(path, "table"), "table")
            table = Table.objects.filter(session=session, number=table_number).first()
            if table is None:
                raise RuleError(f"session {number} has no table {table_number}", join(path, "table"))
            times = {}
            for name in ("called_at", "acknowledged_at", "resolved_at"):
                value = c.get(name)
                if value is None:
                    times[name] = None
                    continue
                try:
                    parsed = parse_datetime(value[:40]) if isinstance(value, str) else None
                except ValueError:  # well formed but not a real date or time
                    parsed = None
                if parsed is None:
                    raise RuleError(
                        f"{name} must be a date and time written YYYY-MM-DDTHH:MM[:SS][+HH:MM], not {show(value)}",
                        join(path, name),
                    )
                times[name] = timezone.make_aware(parsed) if timezone.is_naive(parsed) else parsed
            if times["called_at"] is None:
                raise RuleError("called_at cannot be empty", join(path, "called_at"))
            penalty = None
            if c.get("penalty") is not None:
                place = shape.whole(c["penalty"], join(path, "penalty"), "penalty", minimum=0)
                if place >= len(self.penalties_made):
                    raise RuleError(
                        f"penalty {place} is not in the archive's penalties (counted from 0)",
                        join(path, "penalty"),
                    )
                penalty = self.penalties_made[place]
            hand = shape.whole(c["hand"], join(path, "hand"), "hand") if c.get("hand") is not None else None
            try:
                call_services.call_load(
                    table=table,
                    actor=self.actor,
                    reason=c["reason"],
                    called_at=times["called_at"],
                    acknowledged_at=times["acknowledged_at"],
                    acknowledged_name=c.get("acknowledged_by") or "",
                    resolved_at=times["resolved_at"],
                    resolved_name=c.get("resolved_by") or "",
                    note=c.get("note") or "",
                    penalty=penalty,
                    hand_number=hand,
                )
            except RuleError as exc:
                raise exc.within(path) from None

    # -- statuses ------------------------------------------------------------------------------------

    def _statuses(self) -> None:
        """The statuses the document records, through the lifecycle, whose one event says that the whole
        tournament changed: the standings, the EMA ranking (an imported finished tournament counts at
        once), the public pages and the clocks follow."""
        try:
            lifecycle.statuses_load(
                tournament=self.tournament,
                sessions=self.statuses,
                also={RESULTS, ROSTER, SCHEDULE, SETTINGS},
                status=self.tournament_status,
            )
        except RuleError as exc:
            raise RuleError(exc.message, "tournament.status") from None
