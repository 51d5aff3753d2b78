from django.core.management.base import BaseCommand

from idempotency.services import idempotency_purge, keep_hours


class Command(BaseCommand):
    help = "Forget the idempotency keys older than IDEMPOTENCY_KEEP_HOURS (at least 24 hours)."

    def handle(self, *args, **options):
        removed = idempotency_purge()
        self.stdout.write(f"{removed} keys older than {keep_hours()} hours removed")
