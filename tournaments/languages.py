"""The language of each page: who chose what, and where it is kept.

A visitor first reads the site in the first of their browser's languages the site has (Accept-Language,
Django's ``LocaleMiddleware``). Once they choose a language in the menu, that choice wins: it is kept in the
language cookie of their browser, on their account (``Profile.language``, read at sign-in into the session)
and, while they are on a player's private link (``/me/<key>/``), on that player (``Player.language``), so
that the link opens in it on any phone. A tournament's own language (``Tournament.language``) is the
language of its venue screen and its printouts unless the person chose otherwise; the EMA observer's report
stays in English whatever the choice.

``current_language()`` is the language of the request being served (for what is stored with a
subscription or a job and rendered later); ``language_of()`` the language to write to someone later,
from what they chose.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.db import transaction
from django.utils import translation

from tournaments.models import Player, Profile, Tournament

# Each language written in itself, for the language menu: a reader finds their own language whatever the
# language of the page.
NATIVE_NAMES = {
    "en": "English",
    "es": "Español",
    "eu": "Euskara",
    "fr": "Français",
    "de": "Deutsch",
    "it": "Italiano",
    "nl": "Nederlands",
    "pl": "Polski",
    "pt": "Português",
}
SESSION_KEY = "account_language"  # the account's language, put in the session at sign-in
# The pages shown in the tournament's language unless the person chose otherwise: the venue screen
# (projector) and the printouts.
TOURNAMENT_LANGUAGE_PAGES = frozenset(
    {
        "venue-screen",
        "venue-screen-panels",
        "print-schedules",
        "print-sheets",
        "seating-print-tables",
        "seating-print-players",
        "seating-print-cards",
    }
)
_SCREEN_PATH = re.compile(r"^/t/[^/]+/screen/")
PRIVATE_LINK_PAGE = "player-private"


def codes() -> list[str]:
    """The languages of the site, in the order of ``settings.LANGUAGES``."""
    return [code for code, _name in settings.LANGUAGES]


def supported(code: str | None) -> str:
    """``code`` when the site has that language (``pt-PT`` counts as ``pt``), else the empty string."""
    if not code:
        return ""
    code = code.lower()
    for candidate in (code, code.split("-")[0].split("_")[0]):
        if candidate in codes():
            return candidate
    return ""


def native_name(code: str) -> str:
    """The language as written in itself (``de`` → ``Deutsch``)."""
    return NATIVE_NAMES.get(code, code)


def current_language() -> str:
    """The language of the request being served (what a stored subscription or job is later written in)."""
    return supported(translation.get_language()) or settings.LANGUAGE_CODE


def cookie_choice(request) -> str:
    """The language chosen in the menu on this browser, if any."""
    return supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))


def account_choice(request) -> str:
    """The signed-in person's language, read at sign-in (no query per request)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not hasattr(request, "session"):
        return ""
    return supported(request.session.get(SESSION_KEY))


def chosen_language(request) -> str:
    """What the person chose: the menu on this browser, else their account's language; '' when neither."""
    return cookie_choice(request) or account_choice(request)


def language_of(*, user=None, player: Player | None = None, tournament: Tournament | None = None) -> str:
    """The language to write to someone later (a notification, a mail): their account's language, else
    their private link's, else the tournament's, else the site's."""
    if user is not None and getattr(user, "pk", None):
        chosen = Profile.objects.filter(user=user).values_list("language", flat=True).first()
        if supported(chosen):
            return supported(chosen)
    if player is not None and supported(player.language):
        return supported(player.language)
    if tournament is not None and supported(tournament.language):
        return supported(tournament.language)
    return settings.LANGUAGE_CODE


def page_language(request, url_name: str | None, kwargs: dict) -> str:
    """The language a page is rendered in when the person chose none on this browser or account: the
    private link's, or the tournament's for its venue screen and printouts; '' for the browser's."""
    if chosen_language(request):
        return ""
    if url_name == PRIVATE_LINK_PAGE and kwargs.get("key"):
        stored = Player.objects.filter(private_key=kwargs["key"]).values_list("language", flat=True)
        return supported(stored.first())
    if url_name in TOURNAMENT_LANGUAGE_PAGES and kwargs.get("slug"):
        stored = Tournament.objects.filter(slug=kwargs["slug"]).values_list("language", flat=True)
        return supported(stored.first())
    return ""


def follows_tournament(request) -> bool:
    """A venue screen asked by someone who chose no language: its language is the tournament's, which the
    public page cache cannot tell without the database (the view renders or finds it under that language)."""
    return bool(_SCREEN_PATH.match(request.path)) and not cookie_choice(request)


# -- writes ----------------------------------------------------------------------------------------------


def account_language_set(*, user, language: str) -> None:
    """Keep ``language`` (one of the site's) as the signed-in user's choice."""
    language = supported(language)
    if not language or not getattr(user, "is_authenticated", False):
        return
    with transaction.atomic():
        profile, _created = Profile.objects.select_for_update().get_or_create(user=user)
        if profile.language != language:
            profile.language = language
            profile.save(update_fields=["language"])


def private_link_language_set(*, key: str, language: str) -> bool:
    """Keep ``language`` for the player whose private link is ``key`` (holding the link is the right to
    set it). False when no player has that link."""
    language = supported(language)
    if not language or not key or len(key) > 64:
        return False
    with transaction.atomic():
        player = Player.objects.select_for_update().filter(private_key=key).first()
        if player is None:
            return False
        if player.language != language:
            player.language = language
            player.save(update_fields=["language"])
    return True


def account_language_read(*, user) -> str:
    """The user's stored language ('' when they chose none)."""
    stored = Profile.objects.filter(user=user).values_list("language", flat=True).first()
    return supported(stored)
