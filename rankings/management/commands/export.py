"""Run any exporter of the registry from the command line.

    manage.py export SLUG EXPORTER [--format csv|xlsx|json|zip] [--output FILE]
    manage.py export --ranking mcr|riichi ema-ranking [--on YYYY-MM-DD] [--format csv|xlsx] [--output FILE]
    manage.py export --list

CSV and JSON go to standard output when no file is given (CSV with its byte order mark, like the
file); XLSX and ZIP (the EMA submission pack) need --output. The format defaults to the exporter's first (CSV; the archive is JSON).
``--ranking`` runs an exporter that is not bound to a tournament: without ``--on`` it writes the
stored ranking (as the ranking page shows it), with ``--on`` the ranking as of that date.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from rankings.exports import FORMATS, JSON, RANKING, TOURNAMENT, XLSX, exporter_get, exporter_list
from rankings.exports.base import ZIP
from scoring.rules.base import RuleError
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Write an export (EMA results file, standings, seating, penalties, chombos, archive, EMA ranking)."

    def add_arguments(self, parser):
        parser.add_argument(
            "names", nargs="*", metavar="SLUG EXPORTER", help="the tournament and the exporter"
        )
        parser.add_argument("--format", dest="fmt", choices=FORMATS, help="csv, xlsx, json or zip")
        parser.add_argument("--output", "-o", type=Path, help="the file to write (standard output if absent)")
        parser.add_argument(
            "--ranking", choices=("mcr", "riichi"), help="run a ranking exporter for this ruleset family"
        )
        parser.add_argument(
            "--on", type=date.fromisoformat, help="ranking date (YYYY-MM-DD); today's if absent"
        )
        parser.add_argument("--list", action="store_true", help="list the exporters and stop")

    def handle(self, *args, names, fmt, output, ranking, on, list, **options):
        if list:
            for e in exporter_list():
                formats = ", ".join(e.formats)
                self.stdout.write(f"{e.identifier:<12} {e.scope:<10} {formats:<10} {e.name}")
            return
        if ranking:
            if len(names) != 1:
                raise CommandError(
                    "with --ranking give only the exporter, e.g. `export --ranking mcr ema-ranking`"
                )
            exporter = self._exporter(names[0], RANKING)(family=ranking, on=on)
        else:
            if len(names) != 2:
                raise CommandError(
                    "give the tournament's slug and the exporter, e.g. `export open-2026 standings`"
                )
            slug, identifier = names
            cls = self._exporter(identifier, TOURNAMENT)
            try:
                tournament = Tournament.objects.get(slug=slug)
            except Tournament.DoesNotExist:
                raise CommandError(f"no tournament with slug '{slug}'") from None
            if not cls.available_for(tournament):
                raise CommandError(f"the '{identifier}' export does not apply to {tournament.name}")
            exporter = cls(tournament=tournament)
        fmt = fmt or exporter.formats[0]
        if fmt not in exporter.formats:
            raise CommandError(
                f"the '{exporter.identifier}' export is available as {', '.join(exporter.formats)}, not {fmt}"
            )
        if fmt in (XLSX, ZIP) and output is None:
            raise CommandError(f"{'an XLSX' if fmt == XLSX else 'a ZIP'} file needs --output FILE")
        try:
            export = exporter.render(fmt)
        except RuleError as exc:
            raise CommandError(str(exc)) from exc
        if output is None:
            self.stdout.write(export.data.decode("utf-8"), ending="")
            return
        try:
            output.write_bytes(export.data)
        except OSError as exc:
            raise CommandError(f"cannot write {output}: {exc.strerror}") from exc
        what = "JSON document" if fmt == JSON else f"{fmt.upper()} file"
        self.stderr.write(self.style.SUCCESS(f"Wrote the {what} {output} ({len(export.data)} bytes)."))

    def _exporter(self, identifier: str, scope: str):
        try:
            return exporter_get(identifier, scope=scope)
        except RuleError as exc:
            hint = "" if scope == RANKING else " (ranking exporters need --ranking mcr|riichi)"
            raise CommandError(exc.message + hint) from exc
