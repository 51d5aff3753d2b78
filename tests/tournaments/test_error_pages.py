"""What a person sees when something is missing or not theirs: the product's own pages, never Django's."""

from __future__ import annotations

import pytest
from django.test import override_settings

from tournaments.models import Registration
from tournaments.services import session_seat


@override_settings(DEBUG=False)
def test_a_missing_page_is_the_products_own_404(client, db):
    response = client.get("/t/no-such-tournament/")
    html = response.content.decode()
    assert response.status_code == 404
    assert "Page not found" in html and "All tournaments" in html and "Mahjong tournaments" in html


@override_settings(DEBUG=False)
def test_a_refusal_says_why_in_the_products_layout(client, tournament, make_user):
    client.force_login(make_user("stranger"))
    response = client.get(f"/t/{tournament.slug}/director/")
    html = response.content.decode()
    assert response.status_code == 403
    assert "You need the director role in this tournament." in html
    assert "You are signed in as stranger." in html and 'lang="en"' in html


@override_settings(DEBUG=False)
def test_the_404_page_speaks_spanish(client, db):
    html = client.get("/nothing-here/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Página no encontrada" in html


def test_the_favicon_is_served(client, db):
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith(".svg")
    assert 'rel="icon"' in client.get("/").content.decode()


@pytest.mark.django_db
def test_publishing_a_seating_asks_first_and_replacing_from_an_archive_is_never_ticked_for_you(
    client, tournament, director
):
    regs = list(Registration.objects.filter(tournament=tournament).order_by("key"))
    session_seat(session=tournament.sessions.get(number=1), tables=[regs[:4], regs[4:8]])
    client.force_login(director)
    seating = client.get(f"/t/{tournament.slug}/seating/").content.decode()
    publish = seating.split("seating/s/1/publish/")[1].split(">")[0]
    assert 'data-confirm="Publish the seating of session 1? Every player will see it."' in publish
    archive = client.get(f"/t/{tournament.slug}/director/archive/").content.decode()
    assert 'name="replace"' in archive
    assert "checked" not in archive.split('name="replace"')[1].split(">")[0]
