"""Register players in bulk from a CSV file: all or nothing.

Columns: first_name, last_name, ema_id, country, club, team (only first_name is required). ``team``
names the player's team in a team event: teams are created by name as they first appear, and a team
may not grow beyond the tournament's team size. UTF-8 with or
without a byte order mark; comma or semicolon separated. A file with faults is refused with every
faulty line and field named; a player already known by EMA number is reused, not duplicated.

Every cell is bounded and checked before anything is written: at most ``MAX_BYTES`` and ``MAX_ROWS``
players, each column its length, EMA numbers of exactly 8 digits 0-9 (not another script's digits),
no control or text-direction character (NUL, tabs, line breaks inside a cell, right-to-left overrides:
refused naming the line and the column), and a line the CSV reader cannot read is named too.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.countries import is_country
from tournaments.lifecycle import TournamentFinished, tournament_open_check
from tournaments.models import Player, Registration, Tournament
from tournaments.names import ascii_digits, name_clean, unsafe_character
from tournaments.services import next_registration_key, players_hidden, roster_changed
from tournaments.teams.services import TeamError, teams_assign

COLUMNS = ("first_name", "last_name", "ema_id", "country", "club", "team")
REQUIRED = ("first_name",)
# Bounds of one import: the file, its players, the faults listed, a header cell as quoted back.
MAX_BYTES = 2 * 1024 * 1024
MAX_ROWS = 2000
MAX_FAULTS = 100
MAX_HEADER_CELL = 40


class PlayerImportError(ValueError):
    """The faults of a file, or (``field`` "status") the finished tournament that refuses any file."""

    def __init__(self, faults: list[str], field: str = "file"):
        super().__init__("\n".join(faults))
        self.faults = faults
        self.field = field


@dataclass
class PlayerImportReport:
    created: list[Player] = field(default_factory=list)
    reused: list[Player] = field(default_factory=list)
    already_registered: list[Player] = field(default_factory=list)
    registrations: list[Registration] = field(default_factory=list)

    def summary(self) -> str:
        registered = ngettext("%(n)d player registered", "%(n)d players registered", len(self.registrations))
        new = ngettext("%(n)d new", "%(n)d new", len(self.created))
        known = ngettext(
            "%(n)d already known by EMA number", "%(n)d already known by EMA number", len(self.reused)
        )
        already = ngettext(
            "%(n)d was already in the tournament",
            "%(n)d were already in the tournament",
            len(self.already_registered),
        )
        return "{} ({}, {}); {}.".format(
            registered % {"n": len(self.registrations)},
            new % {"n": len(self.created)},
            known % {"n": len(self.reused)},
            already % {"n": len(self.already_registered)},
        )


@dataclass
class _Row:
    line: int
    first_name: str
    last_name: str
    ema_id: str | None
    country: str
    club: str
    team: str = ""


def _decode(data: bytes | str) -> str:
    if isinstance(data, str):
        return data.lstrip("\ufeff")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PlayerImportError(
            [
                _("The file is not UTF-8 text (byte %(byte)s); save it from the spreadsheet as CSV UTF-8.")
                % {"byte": exc.start}
            ]
        ) from exc


def _delimiter(header_line: str) -> str:
    return ";" if header_line.count(";") > header_line.count(",") else ","


def _lines(reader) -> Iterator[tuple[int, list[str]]]:
    """The reader's lines with their numbers; a line the CSV reader cannot read (a field over its limit)
    is a fault naming the line."""
    while True:
        try:
            values = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise PlayerImportError(
                [
                    _("line %(line)s: the line cannot be read as CSV (%(error)s)")
                    % {"line": reader.line_num, "error": exc}
                ]
            ) from None
        yield reader.line_num, values


def _cell_fault(line: int, column: str, value: str) -> str | None:
    """A cell holding a control or text-direction character: refused, naming the line and column."""
    unsafe = unsafe_character(value)
    if unsafe is None:
        return None
    position, name = unsafe
    return _(
        "line %(line)s, %(column)s: %(name)s at character %(position)s; control and text-direction "
        "characters are not allowed"
    ) % {"line": line, "column": column, "name": name, "position": position}


def upload_read(upload) -> bytes:
    """The bytes of an uploaded file, refused by its size before it is read."""
    if upload.size > MAX_BYTES:
        raise PlayerImportError(
            [_("The file is larger than %(limit)s bytes (the limit).") % {"limit": f"{MAX_BYTES:,}"}]
        )
    return upload.read()


def parse_players_csv(data: bytes | str) -> list[_Row]:
    if len(data) > MAX_BYTES:
        raise PlayerImportError(
            [_("The file is larger than %(limit)s bytes (the limit).") % {"limit": f"{MAX_BYTES:,}"}]
        )
    text = _decode(data)
    first = text.split("\n", 1)[0]
    if not first.strip():
        raise PlayerImportError(
            [
                _("The file is empty: the first line must name the columns %(columns)s")
                % {"columns": ", ".join(COLUMNS)}
            ]
        )
    reader = csv.reader(io.StringIO(text), delimiter=_delimiter(first))
    lines = _lines(reader)
    header = _header([h.strip().lower()[:MAX_HEADER_CELL] for h in next(lines)[1]])
    faults: list[str] = []
    rows = _rows(lines, header, faults)
    if faults:
        raise PlayerImportError(faults)
    if not rows:
        raise PlayerImportError(["The file has a header but no players."])
    return rows


def _header(header: list[str]) -> list[str]:
    """The header's column names, or every fault of the first line."""
    faults: list[str] = []
    unknown = [h for h in header if h not in COLUMNS]
    if unknown:
        faults.append(
            _("line 1: unknown column(s) %(unknown)s; the columns are %(columns)s")
            % {"unknown": ", ".join(name_clean(u) for u in unknown[:10]), "columns": ", ".join(COLUMNS)}
        )
    repeated = sorted({h for h in header if h in COLUMNS and header.count(h) > 1})
    if repeated:
        faults.append(
            _("line 1: column(s) %(repeated)s named more than once; name each column once")
            % {"repeated": ", ".join(repeated)}
        )
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        faults.append(_("line 1: missing column(s) %(missing)s") % {"missing": ", ".join(missing)})
    if faults:
        raise PlayerImportError(faults)
    return header


def _rows(lines: Iterator[tuple[int, list[str]]], header: list[str], faults: list[str]) -> list[_Row]:
    """The players of the data lines; each fault is added to ``faults`` (reading stops at
    ``MAX_FAULTS``)."""
    rows: list[_Row] = []
    seen_ema: dict[str, int] = {}
    for line, values in lines:
        if len(faults) >= MAX_FAULTS:
            break
        if not any(v.strip() for v in values):
            continue
        if len(rows) >= MAX_ROWS:
            raise PlayerImportError(
                [
                    _("line %(line)s: the file has more than %(limit)s players (the limit); split it")
                    % {"line": line, "limit": f"{MAX_ROWS:,}"}
                ]
            )
        shape = _line_shape_faults(line, header, values)
        if shape:
            faults.extend(shape)
            continue
        record = dict.fromkeys(COLUMNS, "")
        record.update({h: v.strip() for h, v in zip(header, values, strict=False)})
        faults.extend(_record_faults(line, record, seen_ema))
        ema_id = record["ema_id"] or None
        country = record["country"].upper()
        rows.append(
            _Row(
                line,
                record["first_name"],
                record["last_name"],
                ema_id,
                country,
                record["club"],
                record["team"],
            )
        )
    return rows


def _line_shape_faults(line: int, header: list[str], values: list[str]) -> list[str]:
    """Unsafe characters in the line's cells, or more cells than the header names."""
    unsafe = [
        fault for h, v in zip(header, values, strict=False) if (fault := _cell_fault(line, h, v)) is not None
    ]
    if unsafe:
        return unsafe
    if len(values) > len(header):
        return [
            _("line %(line)s: %(fields)s fields but the header names %(columns)s columns")
            % {"line": line, "fields": len(values), "columns": len(header)}
        ]
    return []


def _record_faults(line: int, record: dict[str, str], seen_ema: dict[str, int]) -> list[str]:
    """What is wrong with one player's cells (an EMA number seen on an earlier line is one)."""
    faults = []
    if not record["first_name"]:
        faults.append(_("line %(line)s, first_name: a first name is required") % {"line": line})
    ema_fault = _ema_id_fault(line, record["ema_id"] or None, seen_ema)
    if ema_fault:
        faults.append(ema_fault)
    country = record["country"].upper()
    if country and not is_country(country):
        faults.append(
            _("line %(line)s, country: “%(value)s” is not an ISO 3166 three-letter code (ESP, FRA, …)")
            % {"line": line, "value": record["country"][:20]}
        )
    for name, limit in (("first_name", 100), ("last_name", 100), ("club", 150), ("team", 100)):
        if len(record[name]) > limit:
            faults.append(
                _("line %(line)s, %(column)s: longer than %(limit)s characters")
                % {"line": line, "column": name, "limit": limit}
            )
    return faults


def _ema_id_fault(line: int, ema_id: str | None, seen_ema: dict[str, int]) -> str:
    """An EMA number that is not 8 digits 0-9, or that an earlier line has ("" when it is fine)."""
    if ema_id is None:
        return ""
    if not ascii_digits(ema_id, 8):
        message = (
            _(
                "line %(line)s, ema_id: “%(value)s” is not an EMA number of exactly 8 digits "
                "(leading zeros lost? keep the column as text)"
            )
            if ema_id.isascii() and ema_id.isdigit() and len(ema_id) < 8
            else _("line %(line)s, ema_id: “%(value)s” is not an EMA number of exactly 8 digits 0-9")
        )
        return message % {"line": line, "value": ema_id[:20]}
    if ema_id in seen_ema:
        return _("line %(line)s, ema_id: %(value)s is also on line %(other)s") % {
            "line": line,
            "value": ema_id,
            "other": seen_ema[ema_id],
        }
    seen_ema[ema_id] = line
    return ""


def players_import_open_check(*, tournament: Tournament) -> None:
    """A finished tournament takes no file of players until it is reopened (a fault on ``status``)."""
    try:
        tournament_open_check(tournament=tournament)
    except TournamentFinished as exc:
        raise PlayerImportError(exc.messages, field="status") from None


@transaction.atomic
def players_import_csv(
    *,
    tournament: Tournament,
    data: bytes | str,
    substitutes: bool = False,
    progress: Callable[[int], None] | None = None,
    user=None,
) -> PlayerImportReport:
    """Register every player of the file in ``tournament``; nothing is written if any line is faulty.
    ``progress`` (a background import) hears the percentage of the file's players done. ``user`` (who
    imports; None: the server's operator) reuses only players he may see: an EMA number of another
    organiser's private player is a fault of its line."""
    rows = parse_players_csv(data)
    players_import_open_check(tournament=tournament)
    known = {p.ema_id: p for p in Player.objects.filter(ema_id__in=[r.ema_id for r in rows if r.ema_id])}
    _hidden_check(rows, known, user)
    importing = _Importing(tournament=tournament, substitutes=substitutes, known=known)
    for done, row in enumerate(rows):
        if progress is not None:
            progress(done * 100 // len(rows))
        importing.register(row)
    if importing.teams:
        try:
            teams_assign(tournament=tournament, names_by_key=importing.teams)
        except TeamError as exc:
            raise PlayerImportError([f"team: {exc}"]) from exc
    if importing.report.registrations:
        roster_changed(tournament_id=tournament.pk)
    return importing.report


def _hidden_check(rows: list[_Row], known: dict[str, Player], user) -> None:
    """Refuse the lines whose EMA number is a player ``user`` may not see."""
    hidden = players_hidden(ids=[p.pk for p in known.values()], user=user)
    if not hidden:
        return
    faults = [
        _(
            "line %(line)s, ema_id: %(value)s belongs to a player of a tournament you cannot see; "
            "check the number, or ask that tournament's director or the site's staff to register him"
        )
        % {"line": row.line, "value": row.ema_id}
        for row in rows
        if row.ema_id in known and known[row.ema_id].pk in hidden
    ]
    raise PlayerImportError(faults[:MAX_FAULTS])


class _Importing:
    """One import's registrations, line by line: the players known, those already registered, the next key
    and the teams named."""

    def __init__(self, *, tournament: Tournament, substitutes: bool, known: dict[str, Player]):
        self.tournament = tournament
        self.substitutes = substitutes
        self.known = known
        self.report = PlayerImportReport()
        self.registered = set(
            Registration.objects.filter(tournament=tournament).values_list("player_id", flat=True)
        )
        self.registered_names = {
            (p.first_name.casefold(), p.last_name.casefold(), p.country)
            for p in Player.objects.filter(registrations__tournament=tournament, ema_id__isnull=True)
        }
        self.next_key = int(next_registration_key(tournament)[1:])
        self.teams: dict[str, str] = {}  # registration key → team name

    def register(self, row: _Row) -> None:
        player = self.known.get(row.ema_id) if row.ema_id else None
        if player is None and not row.ema_id and self._name_registered(row):
            self.report.already_registered.append(
                Player.objects.filter(
                    registrations__tournament=self.tournament,
                    first_name__iexact=row.first_name,
                    last_name__iexact=row.last_name,
                ).first()
            )
            return
        if player is None:
            player = Player.objects.create(
                first_name=row.first_name,
                last_name=row.last_name,
                ema_id=row.ema_id,
                country=row.country,
                club=row.club,
            )
            self.report.created.append(player)
        else:
            self.report.reused.append(player)
        if player.pk in self.registered:
            self.report.already_registered.append(player)
            return
        registration = Registration.objects.create(
            tournament=self.tournament, player=player, key=f"p{self.next_key}", is_substitute=self.substitutes
        )
        self.next_key += 1
        self.registered.add(player.pk)
        self.report.registrations.append(registration)
        if row.team:
            self.teams[registration.key] = row.team

    def _name_registered(self, row: _Row) -> bool:
        return (row.first_name.casefold(), row.last_name.casefold(), row.country) in self.registered_names
