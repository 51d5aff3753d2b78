"""manage.py import_results FILE --name NAME --rules mcr|riichi --start YYYY-MM-DD [--days N] [...]"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from rankings.ema.imports import (
    ResultsImportError,
    TournamentFacts,
    results_import,
    results_import_check,
    results_import_replace,
)
from rankings.ema.models import ImportedTournament
from rankings.ema.results_file import MAX_FILE_BYTES


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"{text!r} is not a date (YYYY-MM-DD)") from None


class Command(BaseCommand):
    help = (
        "Import the EMA results file (CSV or XLSX: this product's EMA results file or MTS's EMA report) of "
        "a tournament held elsewhere, so that it counts in the EMA ranking. All or nothing: every faulty "
        "line and field is listed and nothing is imported. --check only checks the file."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the results file (.csv or .xlsx)")
        parser.add_argument("--name", required=True, help="the tournament's name")
        parser.add_argument("--rules", required=True, choices=["mcr", "riichi"], help="ruleset family")
        parser.add_argument("--start", required=True, help="first day (YYYY-MM-DD)")
        parser.add_argument("--end", help="last day (YYYY-MM-DD); default: start + days − 1")
        parser.add_argument("--days", type=int, default=1, help="days of play (1, 2, 3…), default 1")
        parser.add_argument("--city", default="")
        parser.add_argument("--country", default="", help="ISO 3166 three-letter code (ESP, FRA, …)")
        parser.add_argument(
            "--qualifies", action="store_true", help="the tournament qualifies for a European championship"
        )
        parser.add_argument("--check", action="store_true", help="check only: write nothing")
        parser.add_argument(
            "--replace",
            type=int,
            metavar="ID",
            help="correct the import with this id (its lines are replaced)",
        )

    def handle(self, *args, file, check, replace, **options):
        path = Path(file)
        if not path.is_file():
            raise CommandError(f"cannot read {file}: no such file")
        if path.stat().st_size > MAX_FILE_BYTES:
            raise CommandError(f"{file} has more than {MAX_FILE_BYTES} bytes")
        data = path.read_bytes()
        facts = TournamentFacts(
            name=options["name"],
            family=options["rules"],
            starts_on=_date(options["start"]),
            ends_on=_date(options["end"]) if options["end"] else None,
            days=options["days"],
            city=options["city"],
            country=options["country"].upper(),
            qualifies_for_championship=options["qualifies"],
        )
        try:
            if check:
                preview = results_import_check(data=data, facts=facts, filename=path.name)
            elif replace is not None:
                try:
                    existing = ImportedTournament.objects.get(pk=replace)
                except ImportedTournament.DoesNotExist:
                    raise CommandError(f"no imported tournament has id {replace}") from None
                _, preview = results_import_replace(
                    tournament=existing, data=data, facts=facts, filename=path.name
                )
            else:
                imported, preview = results_import(data=data, facts=facts, filename=path.name)
        except ResultsImportError as exc:
            lines = "\n".join(f"  {fault}" for fault in exc.faults)
            more = f"\n  … and {exc.more} more" if exc.more else ""
            raise CommandError(
                f"the file was refused, nothing was imported ({len(exc.faults) + exc.more} faults):\n{lines}{more}"
            ) from None
        for note in preview.notes:
            self.stdout.write(f"note: {note}")
        summary = (
            f"{preview.players} players ({preview.ranked} with an EMA number), {preview.countries} countries, "
            f"weight {float(preview.weight):g}, format {preview.file.format}"
        )
        if check:
            self.stdout.write(self.style.SUCCESS(f"The file is good: {summary}. Nothing was written."))
        elif replace is not None:
            self.stdout.write(self.style.SUCCESS(f"Corrected import {replace}: {summary}."))
        else:
            self.stdout.write(
                self.style.SUCCESS(f"Imported “{imported.name}” as import {imported.pk}: {summary}.")
            )
