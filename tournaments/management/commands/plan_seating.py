"""``manage.py plan_seating``: plan a seating schedule and print it, without touching the database."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments.seating.engine import SeatingError, format_schedule, plan_cli, read_countries


class Command(BaseCommand):
    help = (
        "Plan a whole seating schedule for players numbered 1..N and print it with its quality report "
        "(nothing is read from or written to the database)."
    )
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, required=True, help="number of players (1..N)")
        parser.add_argument("--sessions", type=int, required=True, help="number of sessions to plan")
        parser.add_argument(
            "--countries", type=Path, help="file with one country code per line: line i is player i's"
        )
        parser.add_argument("--seed", type=int, default=0, help="seed of the search (same seed, same plan)")
        parser.add_argument("--json", action="store_true", help='print {"sessions": ..., "quality": ...}')

    def handle(self, *args, **options):
        players, sessions, seed = options["players"], options["sessions"], options["seed"]
        countries = options["countries"]
        codes = None
        if countries is not None:
            try:
                codes = read_countries(countries.read_text(encoding="utf-8"))
            except OSError as exc:
                raise CommandError(f"cannot read {countries}: {exc.strerror}") from exc
        try:
            schedule, quality = plan_cli(players, sessions, codes, seed)
        except SeatingError as exc:
            raise CommandError(str(exc)) from exc
        if options["json"]:
            self.stdout.write(json.dumps({"sessions": schedule, "quality": quality.to_dict()}))
        else:
            self.stdout.write(format_schedule(schedule, quality))
