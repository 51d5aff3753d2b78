from django.core.management.base import BaseCommand

from tournaments.demo import (
    DEMO_PASSWORD,
    DEMO_SLUG,
    MAYON_SLUG,
    RIICHI_SLUG,
    demo_exists,
    load_demo,
)


class Command(BaseCommand):
    help = (
        "Create the demo tournaments (an MCR open of 40 players, an EMA riichi cup of 16, a Salamanca Mayón "
        "club league of 8) and their accounts, unless they exist."
    )

    def add_arguments(self, parser):
        parser.add_argument("--if-absent", action="store_true", help="do nothing when the demo exists")
        parser.add_argument(
            "--url",
            default="http://127.0.0.1:8000",
            help="the address the server will answer on, for the links printed (default %(default)s)",
        )

    def handle(self, *args, if_absent=False, url="http://127.0.0.1:8000", **options):
        if demo_exists():
            if not if_absent:
                self.stdout.write(f"The demo tournament '{DEMO_SLUG}' already exists.")
        else:
            tournament = load_demo()
            self.stdout.write(self.style.SUCCESS(f"Created the demo tournament '{tournament.name}'."))
        base = url.rstrip("/")
        self.stdout.write(
            f"\n  MCR open:      {base}/t/{DEMO_SLUG}/"
            f"\n  Riichi cup:    {base}/t/{RIICHI_SLUG}/"
            f"\n  Mayón league:  {base}/t/{MAYON_SLUG}/"
            f"\n  Sign in:       {base}/accounts/login/"
            f"\n  Director: user director  password {DEMO_PASSWORD}"
            f"\n  Referee:  user referee   password {DEMO_PASSWORD}"
            f"\n  Scorer:   user scorer    password {DEMO_PASSWORD}"
            f"\n  Admin:    user admin     password {DEMO_PASSWORD}  ({base}/admin/)\n"
        )
