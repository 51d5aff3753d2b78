"""Grant or take away the right to organise tournaments: ``manage.py organiser add USERNAME``; with
``--create`` an account that does not exist yet is created (its password asked twice, or read from the first
line of standard input with ``--password-stdin``)."""

from __future__ import annotations

import getpass
import sys

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from tournaments.console.first_run import organiser_account_create
from tournaments.permissions import ORGANISE_PERMISSION
from tournaments.staff.services import organiser_grant, organiser_revoke


class Command(BaseCommand):
    help = "Let an account create tournaments (add), take it away (remove), or list the organisers (list)."

    def add_arguments(self, parser):
        parser.add_argument("action", choices=["add", "remove", "list"])
        parser.add_argument("usernames", nargs="*")
        parser.add_argument(
            "--create", action="store_true", help="add: create the account when there is none of that name"
        )
        parser.add_argument(
            "--password-stdin",
            action="store_true",
            help="with --create: read the password from the first line of standard input instead of asking",
        )

    def _password(self, username: str, from_stdin: bool) -> str:
        if from_stdin:
            password = sys.stdin.readline().rstrip("\r\n")
        else:
            if not sys.stdin.isatty():
                raise CommandError("No terminal to ask the password on: give it with --password-stdin.")
            password = getpass.getpass(f"Password for {username}: ")
            if getpass.getpass("The same password again: ") != password:
                raise CommandError("The two passwords differ.")
        try:
            get_user_model()._meta.get_field("username").run_validators(username)
            validate_password(password, get_user_model()(username=username))
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from None
        return password

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
                if action == "add" and options["create"]:
                    password = self._password(username, options["password_stdin"])
                    organiser_account_create(username=username, password=password)
                    self.stdout.write(f"Account {username} created; it may now create tournaments.")
                    continue
                hint = " Add --create to create it." if action == "add" else ""
                raise CommandError(f"No account named {username}.{hint}") from None
            if action == "add":
                organiser_grant(user=user)
                self.stdout.write(f"{username} may now create tournaments.")
            else:
                organiser_revoke(user=user)
                self.stdout.write(f"{username} may no longer create tournaments.")
