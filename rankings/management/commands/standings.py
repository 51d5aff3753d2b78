"""manage.py standings SLUG [--json]"""

import json as jsonlib

from django.core.management.base import BaseCommand, CommandError

from rankings.standings.selectors import standings_view
from tournaments.models import Tournament


class Command(BaseCommand):
    help = (
        "Print a tournament's standings, computed now from its confirmed tables and penalties: a table, "
        "or with --json the standings document of ARCHIVE.md."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--json", action="store_true", help="print the standings document (JSON)")

    def handle(self, *args, slug, **options):
        try:
            tournament = Tournament.objects.get(slug=slug)
        except Tournament.DoesNotExist:
            raise CommandError(f"no tournament with slug '{slug}'") from None
        document = standings_view(tournament=tournament).to_document(tournament.slug, tournament.ruleset)
        if options["json"]:
            self.stdout.write(jsonlib.dumps(document, ensure_ascii=False, indent=2))
            return
        self.stdout.write(_table(document))


def _table(document: dict) -> str:
    rows = document["standings"] + document.get("withdrawn", [])  # the withdrawn, listed apart: no rank
    with_points = any(r["table_points"] is not None for r in rows)
    header = (
        ["Rank", "Player", "Name"]
        + (["Table points"] if with_points else [])
        + [
            "Score",
            "Penalties",
            "Sessions",
        ]
    )
    lines = [header]
    for r in rows:
        name = r["name"] + (" (disqualified)" if r["disqualified"] else "")
        if r.get("withdrawn_from") is not None:
            name += f" (withdrawn from session {r['withdrawn_from']}, not ranked)"
        cells = ["—" if r["rank"] is None else str(r["rank"]), r["player"], name]
        if with_points:
            cells.append(_number(r["table_points"]))
        cells += [_number(r["score"]), _number(r["penalties"]), str(r["sessions"])]
        lines.append(cells)
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    numeric = {0, *range(3, len(header))}
    out = [
        f"{document['tournament']} ({document['ruleset']}), "
        f"{document['complete_sessions']} complete session(s)",
    ]
    for line in lines:
        out.append(
            "  ".join(
                cell.rjust(widths[i]) if i in numeric else cell.ljust(widths[i])
                for i, cell in enumerate(line)
            ).rstrip()
        )
    return "\n".join(out)


def _number(value) -> str:
    if value is None:
        return ""
    return f"{value:g}" if isinstance(value, float) else str(value)
