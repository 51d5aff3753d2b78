"""The language menu, the language each page is rendered in and the scripts' catalogue.

- ``ChosenLanguageMiddleware`` (after the session and the user): Django's ``LocaleMiddleware`` has
  taken the language cookie (a choice made in the menu on this browser) or else the browser's languages
  (Accept-Language); without a cookie, the account's language wins over the browser's, and a private link
  opens in the language chosen on it, a venue screen or a printout in its tournament's (see
  ``tournaments/languages.py``).
- ``set_language``: Django's view of the menu, which also keeps the choice on the account and, on a
  private link's page, on that link.
- ``javascript_catalog``: the scripts' strings (``djangojs``) of one language, a file per language so that
  a browser or the table pages' service worker keeps each, cached on the server.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.http import Http404
from django.urls import Resolver404, resolve
from django.utils import translation
from django.views.decorators.cache import cache_control, cache_page
from django.views.decorators.http import require_POST
from django.views.i18n import JavaScriptCatalog
from django.views.i18n import set_language as django_set_language

from tournaments import languages

CATALOGUE_SECONDS = 24 * 3600


class ChosenLanguageMiddleware:
    """The person's choice (account, private link) or the tournament's language over the browser's."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not languages.cookie_choice(request) and request.COOKIES.get(settings.SESSION_COOKIE_NAME):
            account = languages.account_choice(request)
            if account:
                _use(request, account)
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        match = getattr(request, "resolver_match", None)
        language = languages.page_language(request, match.url_name if match else None, view_kwargs)
        if language:
            _use(request, language)
        return None


def _use(request, language: str) -> None:
    translation.activate(language)
    request.LANGUAGE_CODE = language


def _private_link_key(next_url: str | None) -> str:
    """The key of the private link ``next_url`` is a page of, or ''."""
    if not next_url:
        return ""
    try:
        match = resolve(urlsplit(next_url).path)
    except Resolver404:
        return ""
    return match.kwargs.get("key", "") if match.url_name == languages.PRIVATE_LINK_PAGE else ""


@require_POST
def set_language(request):
    """The language menu: Django's cookie, plus the account's and the private link's language."""
    response = django_set_language(request)
    language = languages.supported(request.POST.get("language"))
    if language and request.POST.get("language") == language:
        if request.user.is_authenticated:
            languages.account_language_set(user=request.user, language=language)
            request.session[languages.SESSION_KEY] = language
        key = _private_link_key(request.POST.get("next"))
        if key:
            languages.private_link_language_set(key=key, language=language)
    return response


def remember_at_sign_in(sender, request, user, **kwargs) -> None:
    """At sign-in, the account's language goes into the session (read by every page without a query)."""
    if request is not None and hasattr(request, "session"):
        request.session[languages.SESSION_KEY] = languages.account_language_read(user=user)


def connect() -> None:
    user_logged_in.connect(remember_at_sign_in, dispatch_uid="account-language-at-sign-in")


_catalogue = JavaScriptCatalog.as_view()


@cache_control(public=True, max_age=3600)
@cache_page(CATALOGUE_SECONDS, key_prefix="jsi18n")
def _catalogue_cached(request, language: str):
    return _catalogue(request)


def javascript_catalog(request, language: str):
    """The ``djangojs`` catalogue of ``language`` (gettext, ngettext, interpolate and the formats)."""
    if languages.supported(language) != language:
        raise Http404("No such language.")
    request.LANGUAGE_CODE = language  # the server's cache keeps one copy per language
    with translation.override(language):
        return _catalogue_cached(request, language=language)
