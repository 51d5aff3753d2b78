"""Admin pages, the health check, production settings, login throttling, the demo, public pages."""

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from django.apps import apps
from django.contrib import admin
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse

from tournaments.models import Player, Tournament

ROOT = Path(__file__).resolve().parents[2]
OUR_APPS = {"tournaments", "scoring", "penalties", "rankings"}


@pytest.mark.django_db
def test_every_admin_changelist_and_add_page_loads(client, make_user, tournament):
    root = make_user("root", is_staff=True, is_superuser=True)
    client.force_login(root)
    for model in apps.get_models():
        if model not in admin.site._registry or model._meta.app_label not in OUR_APPS:
            continue
        meta = model._meta
        model_admin = admin.site._registry[model]
        views = ["changelist"]
        if model_admin.has_add_permission(type("R", (), {"user": root})()):
            views.append("add")
        for view in views:
            url = reverse(f"admin:{meta.app_label}_{meta.model_name}_{view}")
            response = client.get(url)
            assert response.status_code == 200, f"{url} → {response.status_code}"
    url = reverse("admin:tournaments_tournament_change", args=[tournament.pk])
    assert client.get(url).status_code == 200
    # the search a director uses
    assert client.get(reverse("admin:tournaments_player_changelist"), {"q": "Player1"}).status_code == 200


@pytest.mark.django_db
def test_healthz_reports_every_dependency(client):
    body = client.get("/healthz").json()
    assert body["database"]["ok"] is True
    assert body["cache"]["ok"] is True
    assert "broker" in body


@pytest.mark.django_db
def test_healthz_reports_a_stopped_broker_without_failing(client):
    with override_settings(CELERY_BROKER_URL="redis://127.0.0.1:1/0"):
        response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["broker"]["ok"] is False
    assert body["status"] == "degraded"


@pytest.mark.django_db
def test_healthz_is_503_when_the_database_is_down(client):
    with mock.patch("config.health._database", side_effect=RuntimeError("connection refused")):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["status"] == "down"


def test_production_settings_pass_the_deploy_check():
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": "a-long-random-production-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        "ALLOWED_HOSTS": "mahjong.example.org",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_refuses_to_start_without_a_secret_key():
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    env["DEBUG"] = "false"
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


@pytest.mark.django_db
def test_repeated_failed_logins_are_throttled(client, make_user):
    make_user("victim")
    for _ in range(5):
        client.post("/accounts/login/", {"username": "victim", "password": "wrong"})
    response = client.post("/accounts/login/", {"username": "victim", "password": "pw-for-tests-123"})
    assert response.status_code in (403, 429)
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_the_demo_has_forty_players_from_six_countries_and_its_accounts(capsys):
    call_command("load_demo")
    out = capsys.readouterr().out
    assert "user admin" in out and "password" in out
    demo = Tournament.objects.get(slug="demo-open-2026")
    regular = demo.registrations.filter(is_substitute=False)
    assert regular.count() == 40
    assert Player.objects.filter(registrations__in=regular).values("country").distinct().count() >= 6
    assert demo.ruleset == "mcr"
    assert demo.sessions.count() == 4
    assert {r.role for r in demo.roles.all()} >= {"director", "referee"}
    call_command("load_demo", "--if-absent")  # idempotent
    assert Tournament.objects.filter(slug="demo-open-2026").count() == 1


@pytest.mark.django_db
def test_the_demo_prints_the_address_it_is_served_on_and_every_demo_tournament(capsys):
    call_command("load_demo", "--url", "http://127.0.0.1:8123")
    out = capsys.readouterr().out
    assert ":8000" not in out
    for tournament in Tournament.objects.all():
        assert f"http://127.0.0.1:8123/t/{tournament.slug}/" in out, tournament.slug
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    for name in ("MCR open", "riichi cup", "Mayón"):
        assert name.lower() in readme.lower(), name


@pytest.mark.django_db
def test_the_demo_hands_are_worth_what_tournament_hands_are():
    """Most MCR wins are worth 8 to 20 fan; a limit hand (88) is rare, never twice at one table."""
    from scoring.models import Hand

    call_command("load_demo")
    wins = [
        hand for hand in Hand.objects.filter(result__table__session__tournament__slug="demo-open-2026")
        if hand.data.get("result") == "win"
    ]  # fmt: skip
    fans = [hand.data["fan"] for hand in wins if "fan" in hand.data]
    assert len(fans) >= 50
    assert sum(8 <= fan <= 20 for fan in fans) / len(fans) >= 0.75
    per_table: dict[int, int] = {}
    for hand in wins:
        if hand.data.get("fan") == 88:
            per_table[hand.result_id] = per_table.get(hand.result_id, 0) + 1
    assert all(count == 1 for count in per_table.values())


@pytest.mark.django_db
def test_public_pages_render_in_english_and_spanish(client, tournament):
    assert client.get("/").status_code == 200
    page = client.get(f"/t/{tournament.slug}/")
    assert page.status_code == 200 and tournament.name in page.content.decode()
    assert client.get(f"/t/{tournament.slug}/players/").status_code == 200
    spanish = client.get(f"/t/{tournament.slug}/", HTTP_ACCEPT_LANGUAGE="es")
    assert "Sesiones" in spanish.content.decode()


@pytest.mark.django_db
def test_a_private_tournament_is_hidden_from_the_public(client, make_tournament):
    hidden = make_tournament(slug="hidden", players=0, is_public=False)
    assert client.get(f"/t/{hidden.slug}/").status_code == 404
    assert "/t/hidden/" not in client.get("/").content.decode()


@pytest.mark.parametrize(("language", "written"), [("en", "1 May 2026"), ("es", "1 may 2026")])
def test_dates_are_written_one_way_per_language(client, make_tournament, language, written):
    tournament = make_tournament("dates", starts_on=dt.date(2026, 5, 1))
    html = client.get(f"/t/{tournament.slug}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert written in html
    assert "May 1, 2026" not in html and "05/01/2026" not in html and "1 de mayo" not in html
