from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand

from notifications import vapid


class Command(BaseCommand):
    help = (
        "Make the VAPID key pair of Web Push once, in VAPID_FILE (var/vapid.json) unless the environment "
        "sets VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY; --print prints a new pair for the environment instead."
    )

    def add_arguments(self, parser):
        parser.add_argument("--print", action="store_true", help="print a new pair, store nothing")

    def handle(self, *args, print=False, **options):
        if print:
            public, private = vapid.new_pair()
            self.stdout.write(f"VAPID_PUBLIC_KEY={public}\nVAPID_PRIVATE_KEY={private}\n")
            return
        if settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY:
            self.stdout.write("VAPID keys come from the environment; nothing to make.")
            return
        made = vapid.write_file(settings.VAPID_FILE)
        self.stdout.write(f"{'Made' if made else 'Kept'} the VAPID key pair in {settings.VAPID_FILE}")
