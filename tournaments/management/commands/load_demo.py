from django.core.management.base import BaseCommand

from tournaments.demo import DEMO_PASSWORD, DEMO_SLUG, RIICHI_SLUG, demo_exists, load_demo


class Command(BaseCommand):
    help = "Create the demo tournaments (MCR, 40 players; EMA riichi, 16 players) and their accounts, unless they exist."

    def add_arguments(self, parser):
        parser.add_argument("--if-absent", action="store_true", help="do nothing when the demo exists")

    def handle(self, *args, if_absent=False, **options):
        if demo_exists():
            if not if_absent:
                self.stdout.write(f"The demo tournament '{DEMO_SLUG}' already exists.")
        else:
            tournament = load_demo()
            self.stdout.write(self.style.SUCCESS(f"Created the demo tournament '{tournament.name}'."))
        self.stdout.write(
            f"\n  Demo:     http://127.0.0.1:8000/t/{DEMO_SLUG}/"
            f"\n  Riichi:   http://127.0.0.1:8000/t/{RIICHI_SLUG}/"
            f"\n  Admin:    http://127.0.0.1:8000/admin/   user admin     password {DEMO_PASSWORD}"
            f"\n  Director: user director  password {DEMO_PASSWORD}"
            f"\n  Referee:  user referee   password {DEMO_PASSWORD}"
            f"\n  Scorer:   user scorer    password {DEMO_PASSWORD}\n"
        )
