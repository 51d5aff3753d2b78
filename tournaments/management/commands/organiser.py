"""Grant or take away the right to organise tournaments: ``manage.py organiser add USERNAME``."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from tournaments.console.services import organiser_grant, organiser_revoke
from tournaments.permissions import ORGANISE_PERMISSION


class Command(BaseCommand):
    help = "Let an account create tournaments (add), take it away (remove), or list the organisers (list)."

    def add_arguments(self, parser):
        parser.add_argument("action", choices=["add", "remove", "list"])
        parser.add_argument("usernames", nargs="*")

    def handle(self, *args, action: str, usernames: list[str], **options):
        User = get_user_model()
        if action == "list":
            app, codename = ORGANISE_PERMISSION.split(".")
            users = User.objects.filter(
                user_permissions__codename=codename, user_permissions__content_type__app_label=app
            ).order_by("username")
            for user in users:
                self.stdout.write(user.username)
            return
        if not usernames:
            raise CommandError("Give at least one username.")
        for username in usernames:
            try:
                user = User.objects.get(username=username)
            except User.DoesNotExist:
                raise CommandError(f"No account named {username}.") from None
            if action == "add":
                organiser_grant(user=user)
                self.stdout.write(f"{username} may now create tournaments.")
            else:
                organiser_revoke(user=user)
                self.stdout.write(f"{username} may no longer create tournaments.")
