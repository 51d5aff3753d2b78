"""A new server needs no shell: the home page offers the first organiser once, or the command creates it."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.urls import reverse

from tournaments.console.first_run import FirstRunClosed, first_organiser_create

pytestmark = pytest.mark.django_db

PASSWORD = "A-long-first-pass-42"


def test_an_empty_server_offers_the_first_organiser_once_and_then_never(client):
    User = get_user_model()
    assert not User.objects.exists()
    home = client.get(reverse("home"))
    assert reverse("first-organiser").encode() in home.content
    assert client.get(reverse("first-organiser")).status_code == 200

    refused = client.post(
        reverse("first-organiser"), {"username": "ana", "password1": PASSWORD, "password2": "other-pass-42"}
    )
    assert refused.status_code == 400 and not User.objects.exists()

    done = client.post(
        reverse("first-organiser"), {"username": "ana", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert done.status_code == 302 and done["Location"] == reverse("tournament-new")
    ana = User.objects.get(username="ana")
    assert ana.has_perm("tournaments.organise_tournaments") and ana.check_password(PASSWORD)
    # signed in and allowed to create a tournament at once
    assert client.get(reverse("tournament-new")).status_code == 200

    stranger = client.__class__()
    assert reverse("first-organiser").encode() not in stranger.get(reverse("home")).content
    assert stranger.get(reverse("first-organiser")).status_code == 404
    again = stranger.post(
        reverse("first-organiser"), {"username": "eve", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert again.status_code == 404
    assert list(User.objects.values_list("username", flat=True)) == ["ana"]


def test_the_service_refuses_a_second_first_organiser():
    first_organiser_create(username="ana", password=PASSWORD)
    with pytest.raises(FirstRunClosed):
        first_organiser_create(username="eve", password=PASSWORD)
    assert get_user_model().objects.count() == 1


def test_the_command_creates_the_missing_account_with_a_password_from_stdin(monkeypatch):
    with pytest.raises(CommandError, match="--create"):
        call_command("organiser", "add", "ana")
    monkeypatch.setattr("sys.stdin", io.StringIO(PASSWORD + "\n"))
    out = io.StringIO()
    call_command("organiser", "add", "ana", "--create", "--password-stdin", stdout=out)
    ana = get_user_model().objects.get(username="ana")
    assert ana.check_password(PASSWORD) and ana.has_perm("tournaments.organise_tournaments")
    assert "created" in out.getvalue()


def test_the_command_refuses_a_weak_password_and_a_missing_terminal(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("123\n"))
    with pytest.raises(CommandError):
        call_command("organiser", "add", "ana", "--create", "--password-stdin")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    with pytest.raises(CommandError, match="--password-stdin"):
        call_command("organiser", "add", "ana", "--create")
    assert not get_user_model().objects.exists()


def test_the_command_asks_the_password_twice_on_a_terminal(monkeypatch):
    class Tty(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr("sys.stdin", Tty(""))
    answers = iter([PASSWORD, PASSWORD])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
    call_command("organiser", "add", "ana", "--create", stdout=io.StringIO())
    assert get_user_model().objects.get(username="ana").check_password(PASSWORD)


def test_the_offer_speaks_spanish(client):
    page = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Crear el primer organizador" in page
    form = client.get(reverse("first-organiser"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Este servidor aún no tiene ninguna cuenta" in form
