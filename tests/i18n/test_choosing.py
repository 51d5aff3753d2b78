"""Which language a page is in: the browser's on a first visit, then the person's choice, kept on the
browser, on the account and on a private link; a tournament's own language for its venue screen and
printouts unless the person chose otherwise; the language menu on every page, each language in itself."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tournaments import languages
from tournaments.models import Player, Profile, Tournament

pytestmark = pytest.mark.django_db


def lang_of(response) -> str:
    return re.search(r'<html lang="([^"]+)"', response.content.decode())[1]


def test_the_menu_names_the_nine_languages_each_in_itself(client, tournament):
    html = client.get(f"/t/{tournament.slug}/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    menu = re.search(r'<select name="language".*?</select>', html, flags=re.S)[0]
    options = re.findall(r'<option value="(\w+)" lang="(\w+)"( selected)?>([^<]+)</option>', menu)
    assert [(code, name) for code, _lang, _sel, name in options] == [
        ("en", "English"),
        ("es", "Español"),
        ("eu", "Euskara"),
        ("fr", "Français"),
        ("de", "Deutsch"),
        ("it", "Italiano"),
        ("nl", "Nederlands"),
        ("pl", "Polski"),
        ("pt", "Português"),
    ]
    assert [code for code, _lang, selected, _name in options if selected] == ["es"]
    assert 'aria-label="Idioma"' in menu  # the menu's own label in the page's language
    assert [code for code, _name in settings.LANGUAGES] == [code for code, *_rest in options]


@pytest.mark.parametrize(
    ("header", "expected"),
    [("de-DE,de;q=0.9", "de"), ("pt-PT,pt;q=0.8", "pt"), ("eu", "eu"), ("ja", "en"), ("nl;q=0.5,fr", "fr")],
)
def test_a_first_visit_follows_the_browser(client, header, expected):
    assert lang_of(client.get("/", HTTP_ACCEPT_LANGUAGE=header)) == expected


def test_the_choice_wins_over_the_browser_and_is_kept_on_the_account(client, make_user):
    user = make_user("lena")
    client.force_login(user)
    response = client.post(
        reverse("set_language"), {"language": "pl", "next": "/"}, HTTP_ACCEPT_LANGUAGE="de"
    )
    assert response.status_code == 302 and client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "pl"
    assert Profile.objects.get(user=user).language == "pl"
    assert lang_of(client.get("/", HTTP_ACCEPT_LANGUAGE="de")) == "pl"
    # another phone, signed in: no cookie there, the account's language over the browser's
    phone = Client()
    phone.force_login(user)
    assert lang_of(phone.get("/", HTTP_ACCEPT_LANGUAGE="de")) == "pl"
    assert languages.language_of(user=user) == "pl"
    # a choice on that phone is this browser's first: the cookie, then the account follows
    phone.post(reverse("set_language"), {"language": "it", "next": "/"})
    assert lang_of(phone.get("/", HTTP_ACCEPT_LANGUAGE="de")) == "it"
    assert Profile.objects.get(user=user).language == "it"
    # nobody signed in keeps nothing but the cookie
    anonymous = Client()
    anonymous.post(reverse("set_language"), {"language": "fr", "next": "/"})
    assert Profile.objects.count() == 1 and lang_of(anonymous.get("/")) == "fr"


def test_an_unknown_language_is_refused_and_kept_nowhere(client, make_user):
    user = make_user("lena")
    client.force_login(user)
    client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    assert not Profile.objects.filter(user=user).exists()
    assert client.get(reverse("set_language")).status_code == 405


def test_the_private_link_keeps_the_language_chosen_on_it(client, tournament):
    player = Player.objects.filter(registrations__tournament=tournament).first()
    link = reverse("player-private", args=[player.private_key])
    assert lang_of(client.get(link, HTTP_ACCEPT_LANGUAGE="en")) == "en"
    client.post(reverse("set_language"), {"language": "nl", "next": link})
    player.refresh_from_db()
    assert player.language == "nl"
    # the link opened on another phone, whatever its browser says
    assert lang_of(Client().get(link, HTTP_ACCEPT_LANGUAGE="es")) == "nl"
    assert languages.language_of(player=player) == "nl"
    # a choice made on another page is not the link's
    other = Client()
    other.post(reverse("set_language"), {"language": "de", "next": f"/t/{tournament.slug}/"})
    player.refresh_from_db()
    assert player.language == "nl"
    # that phone chose German: the link opens in German there
    assert lang_of(other.get(link)) == "de"


def test_the_tournament_s_language_for_its_screen_and_printouts(client, director, tournament):
    staff = Client()
    staff.force_login(director)
    edit = reverse("console-edit", args=[tournament.slug])
    form = staff.get(edit).content.decode()
    assert 'name="t-language"' in form and "Each reader&#x27;s own" in form
    data = {
        "t-name": tournament.name,
        "t-ruleset": tournament.ruleset,
        "t-starts_on": tournament.starts_on.isoformat(),
        "t-days": 1,
        "t-country": "",
        "t-city": "",
        "t-is_public": "on",
        "t-hide_last_sessions": 0,
        "t-clock_with_session": "on",
        "t-language": "es",
    }
    refused = staff.post(edit, {**data, "t-language": "xx"}).content.decode()
    assert "Select a valid choice. xx is not one of the available choices." in refused
    tournament.refresh_from_db()
    assert tournament.language == ""
    assert staff.post(edit, data).status_code == 302
    tournament.refresh_from_db()
    assert tournament.language == "es"
    assert languages.language_of(tournament=tournament) == "es"
    screen = f"/t/{tournament.slug}/screen/"
    # a projector that chose nothing: the tournament's language, over its browser's, every time (cached)
    served = [Client().get(screen, HTTP_ACCEPT_LANGUAGE=browser) for browser in ("en", "de", "en")]
    assert [lang_of(r) for r in served] == ["es", "es", "es"]
    assert [r["X-Page-Cache"] for r in served] == ["miss", "hit", "hit"]  # one copy, with no query
    # a visitor who chose English sees it in English; the English copy does not reach the projector
    chosen = Client()
    chosen.post(reverse("set_language"), {"language": "en", "next": screen})
    assert lang_of(chosen.get(screen)) == "en"
    assert lang_of(Client().get(screen, HTTP_ACCEPT_LANGUAGE="en")) == "es"
    # the printouts: the director chose no language, the tournament's; once they choose, theirs
    printout = reverse("seating-print-players", args=[tournament.slug])
    assert lang_of(staff.get(printout, HTTP_ACCEPT_LANGUAGE="en")) == "es"
    staff.post(reverse("set_language"), {"language": "de", "next": "/"})
    assert lang_of(staff.get(printout)) == "de"
    # the other pages follow the reader, not the tournament
    assert lang_of(Client().get(f"/t/{tournament.slug}/", HTTP_ACCEPT_LANGUAGE="en")) == "en"


def test_the_language_stored_with_a_subscription_is_the_request_s():
    with translation.override("pt"):
        assert languages.current_language() == "pt"
    with translation.override("pt-br"):
        assert languages.current_language() == "pt"
    with translation.override("ja"):
        assert languages.current_language() == "en"
    assert languages.language_of() == settings.LANGUAGE_CODE


def test_the_scripts_catalogue_is_one_file_per_language(client):
    for code, _name in settings.LANGUAGES:
        response = client.get(reverse("javascript-catalog", args=[code]))
        assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
        assert "max-age=" in response["Cache-Control"]
    spanish = client.get("/i18n/js/es.js", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Enviando la mano %(n)s" in spanish
    assert "Enviando la mano" not in client.get("/i18n/js/en.js").content.decode()
    assert client.get("/i18n/js/xx.js").status_code == 404
    # the table pages' service worker keeps every catalogue for a page opened offline
    worker = client.get("/entry-sw.js").content.decode()
    assert all(f'"/i18n/js/{code}.js"' in worker for code, _name in settings.LANGUAGES)
    assert "Esta página de mesa" in worker or "Esta p\\u00e1gina de mesa" in worker


def test_a_tournament_keeps_no_language_but_the_site_s(tournament):
    tournament.language = "xx"
    with pytest.raises(Exception, match="not one of the languages"):
        tournament.full_clean()
    assert Tournament._meta.get_field("language").blank
