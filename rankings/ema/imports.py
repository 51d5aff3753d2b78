"""Results of tournaments held elsewhere: check, import, correct and remove them (writes and checks).

A results file (see :mod:`rankings.ema.results_file`) and the tournament's facts (name, dates, days, city,
country, rules, whether it qualifies for a European championship) make an :class:`ImportedTournament`
with one :class:`ImportedResult` per listed player. Everything is checked before anything is written, and
every fault (of the file's lines or of the facts) is reported together; one fault refuses the whole file.

A file imported twice is refused: the same content (whatever its format or column order), the same
facts (rules, start date and name, compared without case or accents) as another import, or a finished
tournament of this installation with the same rules, start date and name (it counts already).

Players are matched by EMA number: a known player keeps the name stored here; an unknown number becomes a
new player, named by the stored EMA player list (``EMAPlayer``) when it has the number, else by the file.
Players without an EMA number are stored as lines of the file: they count in N and are never ranked. Every
change recomputes the ranking once it commits.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from fractions import Fraction

import pycountry
from django.db import transaction
from django.utils import timezone

from rankings.ema.engine import tournament_weight
from rankings.ema.models import ImportedResult, ImportedTournament
from rankings.ema.ranking import RANKED_FAMILIES
from rankings.ema.results_file import (
    Fault,
    ResultsFile,
    ResultsFileError,
    read_results_file,
)
from rankings.ema.services import ema_ranking_touch
from scoring.rules.text import gettext_noop
from tournaments.models import EMAPlayer, Player, Tournament
from tournaments.names import name_clean
from tournaments.search import fold, folded_name

MAX_DAYS = 30
EARLIEST = date(1990, 1, 1)
MAX_FACT_CHARS = {"name": 200, "city": 100}


class ResultsImportError(ValueError):
    """The file or its facts are refused; ``faults`` lists every fault (line 0: the file or the facts)."""

    def __init__(self, faults: list[Fault], more: int = 0):
        self.faults = faults
        self.more = more
        super().__init__("\n".join(str(f) for f in faults) + (f"\n… and {more} more" if more else ""))


@dataclass(frozen=True)
class TournamentFacts:
    """What the results file does not say about the tournament."""

    name: str
    family: str  # "mcr" or "riichi"
    starts_on: date
    days: int = 1
    ends_on: date | None = None  # default: the last of ``days`` consecutive days
    city: str = ""
    country: str = ""  # ISO 3166 alpha-3
    qualifies_for_championship: bool = False

    @property
    def last_day(self) -> date:
        return self.ends_on or self.starts_on + timedelta(days=max(self.days, 1) - 1)


@dataclass
class ImportPreview:
    """What an import would store (or stored): the checked file and the facts, with notes."""

    file: ResultsFile
    facts: TournamentFacts
    weight: Fraction
    new_players: int = 0
    known_players: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def players(self) -> int:
        return self.file.players

    @property
    def countries(self) -> int:
        return self.file.countries

    @property
    def ranked(self) -> int:
        return self.file.ranked

    def rows(self) -> list[dict]:
        n = self.file.players
        return [
            {
                "line": r.line,
                "place": r.place,
                "base_rank": r.base_rank(n),
                "first_name": r.first_name,
                "last_name": r.last_name,
                "ema_id": r.ema_id,
                "country": r.country,
                "ema_member": r.ema_member,
                "table_points": r.table_points,
                "score": r.score,
            }
            for r in self.file.rows
        ]


# -- permissions --------------------------------------------------------------------------------------


def can_import_results(user) -> bool:
    """Staff, or users given the permission to add imported tournaments (a ranking office)."""
    return bool(
        user and user.is_authenticated and (user.is_staff or user.has_perm("rankings.add_importedtournament"))
    )


def can_change_import(user) -> bool:
    return bool(
        user
        and user.is_authenticated
        and (user.is_staff or user.has_perm("rankings.change_importedtournament"))
    )


def can_delete_import(user) -> bool:
    return bool(
        user
        and user.is_authenticated
        and (user.is_staff or user.has_perm("rankings.delete_importedtournament"))
    )


# -- checks -------------------------------------------------------------------------------------------


def facts_faults(facts: TournamentFacts, *, today: date | None = None) -> list[Fault]:
    """Every fault of the facts, as faults of line 0 named by field."""
    today = today or timezone.localdate()
    faults: list[Fault] = []

    def fault(name: str, message: str) -> None:
        faults.append(Fault(0, name, message))

    if not facts.name.strip():
        fault("name", gettext_noop("the tournament needs a name"))
    for name, limit in MAX_FACT_CHARS.items():
        if len(getattr(facts, name)) > limit:
            fault(name, gettext_noop("longer than %(limit)s characters", limit=limit))
    if facts.family not in RANKED_FAMILIES:
        fault("family", gettext_noop("the EMA ranks MCR and riichi, not %(value)s", value=facts.family))
    if not 1 <= facts.days <= MAX_DAYS:
        fault("days", gettext_noop("%(days)s is outside 1..%(limit)s", days=facts.days, limit=MAX_DAYS))
    if facts.starts_on < EARLIEST:
        fault(
            "starts_on",
            gettext_noop(
                "%(_day)s is before %(_earliest)s", _day=str(facts.starts_on), _earliest=str(EARLIEST)
            ),
        )
    last = facts.last_day
    if last < facts.starts_on:
        fault(
            "ends_on",
            gettext_noop(
                "the tournament ends (%(_last)s) before it starts (%(_first)s)",
                _last=str(last),
                _first=str(facts.starts_on),
            ),
        )
    elif (last - facts.starts_on).days + 1 > MAX_DAYS:
        fault("ends_on", gettext_noop("a tournament lasts at most %(limit)s days", limit=MAX_DAYS))
    elif 1 <= facts.days <= MAX_DAYS and facts.days > (last - facts.starts_on).days + 1:
        fault(
            "days",
            gettext_noop(
                "%(days)s days of play do not fit between %(_first)s and %(_last)s",
                days=facts.days,
                _first=str(facts.starts_on),
                _last=str(last),
            ),
        )
    if last > today + timedelta(days=1):
        fault(
            "ends_on",
            gettext_noop(
                "the tournament ends on %(_last)s, after today: import its results once it is over",
                _last=str(last),
            ),
        )
    if facts.country and not (
        len(facts.country) == 3 and pycountry.countries.get(alpha_3=facts.country.upper())
    ):
        fault(
            "country",
            gettext_noop("%(value)s is not an ISO 3166 three-letter code (ESP, FRA, …)", value=facts.country),
        )
    return faults


def _duplicate_faults(
    *, results: ResultsFile, facts: TournamentFacts, replacing: ImportedTournament | None
) -> list[Fault]:
    faults: list[Fault] = []
    others = ImportedTournament.objects.exclude(pk=replacing.pk) if replacing else ImportedTournament.objects
    same_file = others.filter(content_hash=results.content_hash()).first()
    if same_file is not None:
        faults.append(
            Fault(
                0,
                "",
                gettext_noop(
                    "this file was imported already as %(name)s (%(_day)s) on %(_imported)s; "
                    "correct or remove that import instead",
                    name=same_file.name,
                    _day=str(same_file.starts_on),
                    _imported=f"{timezone.localtime(same_file.imported_at):%Y-%m-%d}",
                ),
            )
        )
    name_key = fold(facts.name)
    same_facts = others.filter(family=facts.family, starts_on=facts.starts_on, name_key=name_key).first()
    if same_facts is not None and same_facts != same_file:
        faults.append(
            Fault(
                0,
                "name",
                gettext_noop(
                    "%(name)s of %(_day)s (%(_rules)s) was imported already; correct or remove that import instead",
                    name=same_facts.name,
                    _day=str(same_facts.starts_on),
                    _rules=same_facts.get_family_display(),
                ),
            )
        )
    for local in Tournament.objects.filter(starts_on=facts.starts_on, status=Tournament.Status.FINISHED).only(
        "name", "ruleset", "rules", "slug"
    ):
        if fold(local.name) == name_key and _family_of(local) == facts.family:
            faults.append(
                Fault(
                    0,
                    "name",
                    gettext_noop(
                        "%(name)s of %(_day)s was run in this installation and counts already",
                        name=local.name,
                        _day=str(facts.starts_on),
                    ),
                )
            )
    return faults


def _family_of(tournament: Tournament) -> str:
    try:
        return tournament.family
    except Exception:  # a tournament whose ruleset cannot be read is not ranked
        return ""


def results_import_check(
    *,
    data: bytes,
    facts: TournamentFacts,
    filename: str = "",
    replacing: ImportedTournament | None = None,
) -> ImportPreview:
    """Check a file and its facts without writing anything; raise ResultsImportError with every fault."""
    faults = facts_faults(facts)
    try:
        results = read_results_file(data, filename=filename)
    except ResultsFileError as exc:
        raise ResultsImportError(faults + exc.faults, exc.more) from None
    if not faults:
        faults += _duplicate_faults(results=results, facts=facts, replacing=replacing)
    if faults:
        raise ResultsImportError(faults)
    weight = tournament_weight(
        days=facts.days,
        players=results.players,
        countries=max(results.countries, 1),
        european_qualifier=facts.qualifies_for_championship,
    )
    preview = ImportPreview(file=results, facts=facts, weight=weight)
    known = {
        p.ema_id: p
        for p in Player.objects.filter(ema_id__in=[r.ema_id for r in results.rows if r.ema_id]).only(
            "first_name", "last_name", "ema_id"
        )
    }
    for row in results.rows:
        if not row.ema_id:
            continue
        player = known.get(row.ema_id)
        if player is None:
            preview.new_players += 1
            continue
        preview.known_players += 1
        if fold(player.full_name) != fold(f"{row.first_name} {row.last_name}"):
            preview.notes.append(
                f"line {row.line}: EMA number {row.ema_id} is {player.full_name} here "
                f"(“{row.first_name} {row.last_name}” in the file); the name stored here is kept"
            )
    unranked = results.players - results.ranked
    if unranked:
        preview.notes.append(
            f"{unranked} player(s) without an EMA number: counted in N ({results.players}), not ranked"
        )
    if results.ignored_columns:
        preview.notes.append("columns not read: " + ", ".join(results.ignored_columns))
    return preview


# -- writes -------------------------------------------------------------------------------------------


def _write_results(*, tournament: ImportedTournament, preview: ImportPreview) -> None:
    rows = preview.file.rows
    wanted = {r.ema_id: r for r in rows if r.ema_id}
    players = {p.ema_id: p for p in Player.objects.filter(ema_id__in=list(wanted))}
    missing = [
        Player(
            first_name=name_clean(r.first_name or r.last_name),
            last_name=name_clean(r.last_name if r.first_name else ""),
            ema_id=e,
            country=r.country,
            # bulk_create skips Player.save(), which keeps the folded name used by name search and takes
            # control and text-direction characters out of names
            search_name=folded_name(r.first_name or r.last_name, r.last_name if r.first_name else ""),
        )
        for e, r in wanted.items()
        if e not in players
    ]
    listed = {e.ema_id: e for e in EMAPlayer.objects.filter(ema_id__in=[p.ema_id for p in missing])}
    for player in missing:  # the stored EMA player list, when it has the number, names the new player
        if (entry := listed.get(player.ema_id)) is not None:
            player.first_name, player.last_name = entry.first_name or entry.last_name, entry.last_name
            player.country = entry.country or player.country
            player.search_name = folded_name(player.first_name, player.last_name)
    if missing:
        Player.objects.bulk_create(missing, batch_size=500)
        players.update({p.ema_id: p for p in Player.objects.filter(ema_id__in=[p.ema_id for p in missing])})
    n = preview.file.players
    ImportedResult.objects.bulk_create(
        (
            ImportedResult(
                tournament=tournament,
                line=r.line,
                place=r.place,
                base_rank=r.base_rank(n),
                ema_id=r.ema_id,
                player=players.get(r.ema_id) if r.ema_id else None,
                first_name=r.first_name,
                last_name=r.last_name,
                country=r.country,
                ema_member=r.ema_member,
                table_points=r.table_points,
                score=r.score,
            )
            for r in rows
        ),
        batch_size=500,
    )


def _apply_facts(tournament: ImportedTournament, preview: ImportPreview) -> None:
    facts = preview.facts
    tournament.name = facts.name.strip()
    tournament.name_key = fold(facts.name)[:200]
    tournament.family = facts.family
    tournament.starts_on = facts.starts_on
    tournament.ends_on = facts.last_day
    tournament.days = facts.days
    tournament.city = facts.city.strip()
    tournament.country = facts.country.upper()
    tournament.qualifies_for_championship = facts.qualifies_for_championship
    tournament.players = preview.players
    tournament.countries = preview.countries
    tournament.weight = preview.weight


def results_import(
    *, data: bytes, facts: TournamentFacts, filename: str = "", user=None
) -> tuple[ImportedTournament, ImportPreview]:
    """Import a results file as a new tournament; nothing is written when anything is faulty."""
    preview = results_import_check(data=data, facts=facts, filename=filename)
    with transaction.atomic():
        tournament = ImportedTournament(
            source_format=preview.file.format,
            filename=filename[-200:],
            content_hash=preview.file.content_hash(),
            imported_by=user if user is not None and user.is_authenticated else None,
        )
        _apply_facts(tournament, preview)
        tournament.save()
        _write_results(tournament=tournament, preview=preview)
        ema_ranking_touch()
    return tournament, preview


def results_import_replace(
    *, tournament: ImportedTournament, data: bytes, facts: TournamentFacts, filename: str = "", user=None
) -> tuple[ImportedTournament, ImportPreview]:
    """Correct an import with a new file (and facts): its lines are replaced as a whole."""
    preview = results_import_check(data=data, facts=facts, filename=filename, replacing=tournament)
    with transaction.atomic():
        locked = ImportedTournament.objects.select_for_update().get(pk=tournament.pk)
        locked.results.all().delete()
        locked.source_format = preview.file.format
        locked.filename = filename[-200:]
        locked.content_hash = preview.file.content_hash()
        _apply_facts(locked, preview)
        locked.save()
        _write_results(tournament=locked, preview=preview)
        ema_ranking_touch()
    return locked, preview


def imported_tournament_facts(tournament: ImportedTournament) -> TournamentFacts:
    return TournamentFacts(
        name=tournament.name,
        family=tournament.family,
        starts_on=tournament.starts_on,
        days=tournament.days,
        ends_on=tournament.ends_on,
        city=tournament.city,
        country=tournament.country,
        qualifies_for_championship=tournament.qualifies_for_championship,
    )


def imported_tournament_update(
    *, tournament: ImportedTournament, facts: TournamentFacts
) -> ImportedTournament:
    """Correct the facts of an import (its lines stay); the weight and the ranking follow."""
    faults = facts_faults(facts)
    if faults:
        raise ResultsImportError(faults)
    with transaction.atomic():
        locked = ImportedTournament.objects.select_for_update().get(pk=tournament.pk)
        name_key = fold(facts.name)
        clash = (
            ImportedTournament.objects.exclude(pk=locked.pk)
            .filter(family=facts.family, starts_on=facts.starts_on, name_key=name_key)
            .first()
        )
        if clash is not None:
            raise ResultsImportError(
                [
                    Fault(
                        0,
                        "name",
                        gettext_noop(
                            "%(name)s of %(_day)s was imported already",
                            name=clash.name,
                            _day=str(clash.starts_on),
                        ),
                    )
                ]
            )
        weight = tournament_weight(
            days=facts.days,
            players=locked.players,
            countries=max(locked.countries, 1),
            european_qualifier=facts.qualifies_for_championship,
        )
        locked.name = facts.name.strip()
        locked.name_key = name_key[:200]
        locked.family = facts.family
        locked.starts_on = facts.starts_on
        locked.ends_on = facts.last_day
        locked.days = facts.days
        locked.city = facts.city.strip()
        locked.country = facts.country.upper()
        locked.qualifies_for_championship = facts.qualifies_for_championship
        locked.weight = weight
        locked.save()
        ema_ranking_touch()
    return locked


def imported_tournament_delete(*, tournament: ImportedTournament) -> None:
    """Remove an import and its lines; the ranking follows. Players it created stay (they may have other results)."""
    with transaction.atomic():
        ImportedTournament.objects.select_for_update().filter(pk=tournament.pk).delete()
        ema_ranking_touch()
