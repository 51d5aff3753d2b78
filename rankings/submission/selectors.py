"""Reads of the EMA submission: the facts the checks need, the weight, the ranking preview, the stamp."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from django.conf import settings
from django.db.models import Max

from penalties.kinds import kind_of
from penalties.models import Penalty
from rankings.ema.engine import EmaResult, base_ranks, ema_ranking, shared_places, tournament_weight
from rankings.ema.ranking import result_facts, window_start
from rankings.ema.selectors import tournament_ended_on
from rankings.standings.models import StandingsState
from rankings.standings.selectors import counted_substitutes, standings_view
from rankings.submission import engine
from rankings.submission.models import EmaSubmission
from scoring.models import SeatSummary, TableResult
from tournaments.models import (
    EMAPlayer,
    Registration,
    Seat,
    Session,
    SessionClock,
    Tournament,
    TournamentRole,
)
from tournaments.search import fold as list_fold

# The countries whose players count as "players from EMA member countries" (ERGMT §2.1): the member
# associations of the EMA (ISO 3166 alpha-3). The EMA admits and suspends members over time: a deployment
# sets EMA_MEMBER_COUNTRIES in its settings to the current list.
EMA_MEMBER_COUNTRIES = frozenset(
    {
        "AUT", "BEL", "CHE", "CZE", "DEU", "DNK", "ESP", "EST", "FIN", "FRA", "GBR", "HUN", "IRL", "ITA",
        "LTU", "LVA", "NLD", "NOR", "POL", "PRT", "ROU", "SVK", "SVN", "SWE", "UKR", "HRV", "SRB", "ISR",
    }
)  # fmt: skip


def ema_countries() -> frozenset[str]:
    return frozenset(getattr(settings, "EMA_MEMBER_COUNTRIES", EMA_MEMBER_COUNTRIES))


def submission_of(*, tournament: Tournament) -> EmaSubmission:
    """The tournament's stored submission facts, or an unsaved empty one."""
    found = EmaSubmission.objects.filter(tournament=tournament).first()
    return found if found is not None else EmaSubmission(tournament=tournament)


def referees_of(
    *, tournament: Tournament, submission: EmaSubmission | None = None
) -> list[engine.RefereeFact]:
    """The referees the director listed; when none, the tournament's referee accounts (playing when the
    account is a registered player's)."""
    submission = submission or submission_of(tournament=tournament)
    if submission.referees:
        return [engine.RefereeFact(name=r["name"], plays=bool(r.get("plays"))) for r in submission.referees]
    roles = TournamentRole.objects.filter(tournament=tournament, role="referee").select_related("user")
    playing = set(
        Registration.objects.filter(tournament=tournament, player__user__isnull=False).values_list(
            "player__user_id", flat=True
        )
    )
    return [
        engine.RefereeFact(name=r.user.get_full_name() or r.user.get_username(), plays=r.user_id in playing)
        for r in roles
    ]


def _balance(tournament: Tournament) -> dict[int, Fraction]:
    """Per table: what its seats' game scores and transfers sum to beyond what the rules say."""
    rules = tournament.get_rules()
    offset = sum(rules.start_scores()) if rules.raw_scores else 0
    sums: dict[int, Fraction] = {}
    for table_id, game, transfers in SeatSummary.objects.filter(tournament=tournament).values_list(
        "table_id", "game_score", "transfers"
    ):
        sums[table_id] = sums.get(table_id, Fraction(0)) + Fraction(game) + Fraction(transfers)
    return {table_id: total - offset for table_id, total in sums.items()}


CANDIDATES_PER_WORD = 25


def _candidates(unlisted: list[Registration]) -> list[engine.ListedPlayer]:
    """Lines of the EMA list that may be the players whose numbers it does not have: those sharing the
    first three letters of a word of their name (the list's search text keeps letters such as ø, so
    both spellings are looked for)."""
    stems: set[str] = set()
    for r in unlisted[:50]:
        for text in (list_fold(r.player.full_name), engine.fold(r.player.full_name)):
            stems.update(w[:3] for w in text.split() if len(w) >= 3 and not w.isdigit())
    found: dict[str, engine.ListedPlayer] = {}
    for stem in sorted(stems)[:100]:
        for e in EMAPlayer.objects.filter(search_text__contains=f" {stem}")[:CANDIDATES_PER_WORD]:
            found[e.ema_id] = engine.ListedPlayer(ema_id=e.ema_id, name=e.full_name, country=e.country)
    return list(found.values())


def facts(*, tournament: Tournament) -> engine.Facts:
    """Everything the checks read, from the tournament as it is now (a bounded number of queries)."""
    submission = submission_of(tournament=tournament)
    players, list_loaded = _player_facts(tournament)
    return engine.Facts(
        family=tournament.family,
        days=tournament.days,
        sessions=tuple(_session_facts(tournament)),
        players=players,
        ema_countries=ema_countries(),
        referees=tuple(referees_of(tournament=tournament, submission=submission)),
        substitute_answers=dict(submission.substitute_answers or {}),
        substitutes_played=frozenset(_substitutes_played(tournament)),
        # ranked: a substitute from the start who answered yes (ERGMT §3.9); never one 'in tournament'
        ranked_substitutes=frozenset(_counted_substitutes(tournament)),
        ema_list_loaded=list_loaded,
        tables=tuple(_table_facts(tournament)),
        observer=submission.observer,
        prizes=tuple(submission.prizes or ()),
        finished=tournament.status == Tournament.Status.FINISHED,
    )


def _session_facts(tournament: Tournament) -> list[engine.SessionFact]:
    """Each session: its start, its length, whether it was played, its clock and its results' publication."""
    minutes = tournament.get_rules().config.session_minutes
    sessions = list(Session.objects.filter(tournament=tournament).order_by("number"))
    clocks = {c.session_id: c for c in SessionClock.objects.filter(session__tournament=tournament)}
    published = {
        row["table__session_id"]: row["last"]
        for row in TableResult.objects.filter(table__session__tournament=tournament, status="confirmed")
        .values("table__session_id")
        .annotate(last=Max("confirmed_at"))
    }
    # a session has been played once it is finished, or once a later session has begun (a session reopened
    # for a correction after the next one started was played all the same)
    begun = [s.number for s in sessions if s.status in (Session.Status.PLAYING, Session.Status.FINISHED)]
    latest = max(begun, default=0)
    session_facts = []
    for s in sessions:
        clock = clocks.get(s.pk)
        length = clock.length_seconds // 60 if clock is not None else minutes
        session_facts.append(
            engine.SessionFact(
                number=s.number,
                starts_at=s.starts_at,
                minutes=length,
                played=s.status == Session.Status.FINISHED or s.number < latest,
                clock_started_at=clock.started_at if clock is not None else None,
                clock_ran=clock is not None and clock.started_at is not None,
                results_published_at=published.get(s.pk),
            )
        )
    return session_facts


def _table_facts(tournament: Tournament) -> list[engine.TableFact]:
    """Every table with a result (confirmed or not, its balance) or seated, by session and number."""
    results = list(
        TableResult.objects.filter(table__session__tournament=tournament).select_related("table__session")
    )
    balance = _balance(tournament)
    tables = []
    with_result = set()
    for r in results:
        with_result.add(r.table_id)
        tables.append(
            engine.TableFact(
                session=r.table.session.number,
                table=r.table.number,
                confirmed=r.is_confirmed,
                balance=balance.get(r.table_id) if r.is_confirmed else None,
                imbalance_reason=r.imbalance_reason,
            )
        )
    seated_tables = Seat.objects.filter(session__tournament=tournament).values_list(
        "table_id", "table__number", "session__number"
    )
    for table_id, number, session in {(a, b, c) for a, b, c in seated_tables}:
        if table_id not in with_result:
            tables.append(engine.TableFact(session=session, table=number, confirmed=False))
    tables.sort(key=lambda t: (t.session, t.table))
    return tables


def _player_facts(tournament: Tournament) -> tuple[tuple[engine.PlayerFact, ...], bool]:
    """Each registered player with their entry of the EMA list (or the closest entries), and whether the
    list is loaded."""
    registrations = list(Registration.objects.filter(tournament=tournament).select_related("player"))
    numbers = {r.player.ema_id for r in registrations if r.player.ema_id}
    listed = {
        e.ema_id: engine.ListedPlayer(ema_id=e.ema_id, name=e.full_name, country=e.country)
        for e in EMAPlayer.objects.filter(ema_id__in=numbers)
    }
    list_loaded = EMAPlayer.objects.exists()
    unlisted = [r for r in registrations if r.player.ema_id and r.player.ema_id not in listed]
    candidates: list[engine.ListedPlayer] = []
    if unlisted and list_loaded:
        candidates = _candidates(unlisted)
    players = tuple(
        engine.PlayerFact(
            key=r.key,
            name=r.player.full_name,
            ema_id=r.player.ema_id or "",
            country=r.player.country,
            is_substitute=r.is_substitute,
            listed=listed.get(r.player.ema_id or ""),
            closest=engine.closest(r.player.full_name, candidates)
            if r.player.ema_id and r.player.ema_id not in listed
            else None,
        )
        for r in registrations
    )
    return players, list_loaded


def _substitutes_played(tournament: Tournament) -> set[str]:
    """The keys of the substitutes who played: seated, or who took a player's place during a session."""
    return set(
        Seat.objects.filter(session__tournament=tournament, registration__is_substitute=True).values_list(
            "registration__key", flat=True
        )
    ) | set(  # a substitute who took a player's place during a session (a replacement) played too
        Penalty.objects.filter(
            tournament=tournament, substitute__isnull=False, cancelled_at__isnull=True
        ).values_list("substitute__key", flat=True)
    )


def _counted_substitutes(tournament: Tournament) -> set[str]:
    return counted_substitutes(tournament=tournament)


def checks(*, tournament: Tournament) -> list[engine.Check]:
    return engine.run_checks(facts(tournament=tournament))


# -- the weight -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Weight:
    """The MERS weight and its parts; ``final`` once the results give the players who count."""

    days: int
    players: int
    countries: int
    qualifier: bool
    final: bool

    @property
    def day_part(self) -> Fraction:
        return Fraction(min(self.days, 3))

    @property
    def player_part(self) -> Fraction:
        return Fraction(0) if self.players <= 40 else Fraction(1, 2) if self.players <= 80 else Fraction(1)

    @property
    def country_part(self) -> Fraction:
        return Fraction(0) if self.countries <= 5 else Fraction(1, 2) if self.countries <= 9 else Fraction(1)

    @property
    def qualifier_part(self) -> Fraction:
        return Fraction(1 if self.qualifier else 0)

    @property
    def value(self) -> Fraction | None:
        if self.players < 1:
            return None
        return tournament_weight(
            days=self.days,
            players=self.players,
            countries=max(self.countries, 1),
            european_qualifier=self.qualifier,
        )


def weight(*, tournament: Tournament) -> Weight:
    """From the standings once any table is confirmed, else from the registered players (planned)."""
    confirmed = TableResult.objects.filter(table__session__tournament=tournament, status="confirmed").exists()
    if confirmed:
        standings = standings_view(tournament=tournament)
        keys = [row.player for row in standings.listed]
        countries = set(
            Registration.objects.filter(tournament=tournament, key__in=keys)
            .exclude(player__country="")
            .values_list("player__country", flat=True)
        )
        count = len(keys)
    else:
        regs = Registration.objects.filter(tournament=tournament, is_substitute=False)
        count = regs.count()
        countries = set(regs.exclude(player__country="").values_list("player__country", flat=True))
    return Weight(
        days=tournament.days,
        players=count,
        countries=len(countries),
        qualifier=tournament.qualifies_for_championship,
        final=tournament.status == Tournament.Status.FINISHED,
    )


# -- the effect on the ranking ----------------------------------------------------------------------


@dataclass(frozen=True)
class PreviewLine:
    name: str
    ema_id: str
    place: int
    base_rank: int
    before: Fraction
    after: Fraction

    @property
    def change(self) -> Fraction:
        return self.after - self.before


def _shown(value: Fraction) -> str:
    return f"{float(value):.2f}"


def preview(*, tournament: Tournament, on: date | None = None) -> list[PreviewLine]:
    """Each ranked player's EMA ranking without and with this tournament's result (a fixed number of
    queries: the standings, the registrations and the results that can still count)."""
    family = tournament.family
    if family not in engine.RANKED:
        return []
    if not TableResult.objects.filter(table__session__tournament=tournament, status="confirmed").exists():
        return []
    ended = tournament_ended_on(tournament)
    on = max(on or date.today(), ended)
    standings = standings_view(tournament=tournament)
    ranks = base_ranks(standings)
    places = dict(
        zip(
            (r.player for r in standings.listed),
            shared_places([r.rank for r in standings.listed]),
            strict=True,
        )
    )
    parts = weight(tournament=tournament)
    value = parts.value
    if value is None:
        return []
    registrations = {
        r.key: r for r in Registration.objects.filter(tournament=tournament).select_related("player")
    }
    ranked = {
        registrations[row.player].player_id: row.player
        for row in standings.listed
        if registrations[row.player].player.ema_id
    }
    known, _ = result_facts(since=window_start(on), until=on)
    mine = f"local:{tournament.slug}"
    by_player: dict[int, list[EmaResult]] = {}
    for fact in known:
        if fact.player_id in ranked and fact.link != mine:
            by_player.setdefault(fact.player_id, []).append(fact.as_result())
    lines = []
    for player_id, key in ranked.items():
        earlier = by_player.get(player_id, [])
        this = EmaResult(base_rank=ranks[key], weight=value, ended_on=ended, ruleset=family, tournament=mine)
        before = ema_ranking(earlier, ruleset=family, on=on).ranking
        after = ema_ranking([*earlier, this], ruleset=family, on=on).ranking
        registration = registrations[key]
        lines.append(
            PreviewLine(
                name=registration.player.full_name,
                ema_id=registration.player.ema_id,
                place=places[key],
                base_rank=ranks[key],
                before=before,
                after=after,
            )
        )
    lines.sort(key=lambda line: (line.place, line.name))
    return lines


# -- irregularities and the stamp -------------------------------------------------------------------


def irregularities(*, tournament: Tournament) -> list[Penalty]:
    """Penalties above a warning (points, table points, a disqualification, a chombo), and every appealed
    penalty, in the order recorded; cancelled ones are left out."""
    found = []
    for p in (
        Penalty.objects.filter(tournament=tournament, cancelled_at__isnull=True)
        .select_related("registration__player", "session", "table")
        .order_by("sequence")
    ):
        above = (
            (p.points or 0) != 0 or (p.table_points or 0) != 0 or p.disqualifies or kind_of(p.kind).irregular
        )
        if above or p.appeal:
            found.append(p)
    return found


def stamp(*, tournament: Tournament) -> str:
    """A digest of everything the pack is made of: results and penalties (the standings' input version),
    the roster, the sessions and their clocks, the tournament's facts and the submission's own facts."""
    state = (
        StandingsState.objects.filter(tournament=tournament).values_list("input_version", flat=True).first()
    )
    submission = EmaSubmission.objects.filter(tournament=tournament).values_list("version", flat=True).first()
    parts = {
        "tournament": list(
            Tournament.objects.filter(pk=tournament.pk).values_list(
                "name",
                "city",
                "country",
                "starts_on",
                "days",
                "ruleset",
                "rules",
                "status",
                "qualifies_for_championship",
            )
        ),
        "standings": state,
        "submission": submission,
        "results": list(
            TableResult.objects.filter(table__session__tournament=tournament)
            .order_by("table_id")
            .values_list("table_id", "version", "status")
        ),
        "penalties": list(
            Penalty.objects.filter(tournament=tournament)
            .order_by("sequence")
            .values_list("sequence", "cancelled_at", "appeal", "appeal_decision", "reason")
        ),
        "roster": list(
            Registration.objects.filter(tournament=tournament)
            .order_by("key")
            .values_list(
                "key",
                "is_substitute",
                "withdrawn_from",
                "player__first_name",
                "player__last_name",
                "player__ema_id",
                "player__country",
            )
        ),
        "sessions": list(
            Session.objects.filter(tournament=tournament)
            .order_by("number")
            .values_list("number", "starts_at", "status", "clock__started_at", "clock__length_seconds")
        ),
        "referees": list(
            TournamentRole.objects.filter(tournament=tournament, role="referee")
            .order_by("user_id")
            .values_list("user_id", flat=True)
        ),
    }
    text = json.dumps(parts, default=str, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]
