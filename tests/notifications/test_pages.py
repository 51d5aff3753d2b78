"""Where the "Notify me on this phone" panel is: the private link's page, the table's link page, the public
page of a player signed in with the player's own account (others read how to be notified), the staff's
page; the director's setting for tables waiting for confirmation, refused with the field named."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from tests.scoring.test_referee_overview import publish, seat_all

pytestmark = pytest.mark.django_db


@pytest.fixture
def keyed(settings):
    from tests.notifications.conftest import PAIR

    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = PAIR
    return PAIR[0]


def test_the_private_link_and_the_table_link_carry_the_panel(client, tournament, keyed):
    p1 = tournament.registrations.get(key="p1")
    html = client.get(reverse("player-private", args=[p1.player.private_key])).content.decode()
    assert "data-push-panel" in html and f'data-key="{keyed}"' in html
    assert f'data-url="/me/{p1.player.private_key}/push/{tournament.slug}/"' in html
    assert 'value="rank"' in html and 'value="call"' not in html
    tables = seat_all(tournament)
    publish(tournament, 1)
    html = client.get(reverse("table-link", args=[tables[0].private_key])).content.decode()
    assert f'data-url="/table/{tables[0].private_key}/push/"' in html
    assert 'value="clock"' in html and 'value="seat"' not in html and "js/push.js" in html
    es = client.get(reverse("table-link", args=[tables[0].private_key]), HTTP_ACCEPT_LANGUAGE="es")
    assert "Avisarme en este teléfono" in es.content.decode()


def test_the_public_page_offers_the_panel_to_the_player_s_own_account_only(
    client, tournament, make_user, keyed
):
    p1 = tournament.registrations.get(key="p1")
    url = reverse("player-public", args=[tournament.slug, "p1"])
    html = client.get(url).content.decode()
    assert 'id="push-how"' in html and "data-push-panel" not in html
    user = make_user("player-one")
    p1.player.user = user
    p1.player.save()
    client.force_login(user)
    html = client.get(url).content.decode()
    assert f'data-url="/t/{tournament.slug}/p/p1/push/"' in html


def test_without_keys_the_panel_says_this_server_sends_no_notifications(
    client, tournament, settings, tmp_path
):
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    settings.VAPID_FILE = tmp_path / "none.json"
    p1 = tournament.registrations.get(key="p1")
    html = client.get(reverse("player-private", args=[p1.player.private_key])).content.decode()
    assert (
        'data-key=""' in html
    )  # the panel's script reads the empty key and says why, in the page's language
    with translation.override("es"):
        catalogue = client.get(reverse("javascript-catalog", args=["es"])).content.decode()
    assert "Este servidor no env" in catalogue


def test_the_staff_page_and_the_director_s_setting(client, tournament, director, referee, keyed):
    url = reverse("push-staff-page", args=[tournament.slug])
    client.force_login(referee)
    html = client.get(url).content.decode()
    assert 'value="call"' in html and 'value="held"' in html and 'name="minutes"' not in html
    assert client.post(url, {"minutes": "5"}).status_code == 403
    client.force_login(director)
    response = client.post(url, {"minutes": "0"})
    assert response.status_code == 400 and "1 to 240" in response.content.decode()
    assert client.post(url, {"minutes": "25"}).status_code == 200
    tournament.refresh_from_db()
    assert tournament.settings["push_wait_minutes"] == 25
    home = client.get(reverse("tournament-home", args=[tournament.slug])).content.decode()
    assert url in home


def test_make_run_makes_a_key_pair_once_outside_the_repository(settings, tmp_path):
    from django.core.management import call_command

    from notifications import vapid

    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    settings.VAPID_FILE = tmp_path / "var" / "vapid.json"
    call_command("vapid_keys", verbosity=0)
    first = vapid.keys()
    call_command("vapid_keys", verbosity=0)
    assert vapid.keys() == first and len(vapid.unb64url(first.public)) == 65
    assert oct(settings.VAPID_FILE.stat().st_mode & 0o777) == "0o600"
