"""Public pages rendered once per snapshot and served from the cache, compressed, with no database query.

Each tournament has a *publication stamp* in the shared cache, changed (after the commit) by every write
that changes what its public pages show: results and standings, seating, the clock, announcements,
registrations. A public page is rendered once per stamp and language and stored, with its gzip and
Brotli forms and a strong ETag (a hash of its bytes), under its path; ``PublicPageMiddleware`` (right after WhiteNoise) answers an anonymous GET from there
with two cache reads (the stamp, and the page from this process's memory or the shared cache) and no
database query, session, template or view. A visitor whose copy is current (``If-None-Match``) gets a
304 the same way.

Pages are the same for every anonymous visitor: the only per-visitor part, the CSRF token of their
forms, is filled in by ``static/js/csrf-fill.js`` from the CSRF cookie, which the middleware sets when
missing.

Tournament pages (``/t/…``) are cached without a query string only. The EMA ranking pages (``/ranking/…``)
are cached under the stamp :data:`EMA_RANKING`, which a new computation of the ranking changes; the
ranking lists also with a canonical query string (see :func:`cache_path`).
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from urllib.parse import parse_qsl, urlencode

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import HttpResponse
from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH
from django.utils.crypto import get_random_string
from django.utils.translation import get_language, get_language_from_request

from tournaments import languages
from tournaments.models import Tournament

try:  # Brotli beside gzip (requirements.txt); without it pages are served gzipped or plain
    import brotli
except ImportError:  # pragma: no cover - exercised only where Brotli is not installed
    brotli = None

CSRF_MARKER = "csrf-marker-public-page-9f2b"
EMA_RANKING = "~ema-ranking"  # the stamp of the EMA ranking pages (not a tournament slug: those have no ~)
RANKING_PREFIX = "/ranking/"
RANKING_PARAMS = {"q": 100, "country": 3, "page": 6}  # the parameters the ranking pages read, bounded
RANKING_LIST = re.compile(r"^/ranking/(?:[a-z]+/)?$")  # the ranking of a family; not players, not imports
STAMP_SECONDS = 7 * 24 * 3600
MIN_GZIP_BYTES = 512
TOURNAMENT_LANGUAGE = "~tournament"  # the key's language of a venue screen in its tournament's language


def _stamp_key(slug: str) -> str:
    return f"pub:stamp:{slug}"


def _page_key(path: str, language: str) -> str:
    return f"pub:page:{language}:{path}"


class LocalCache:
    """A few entries in this process's memory, in front of the shared cache (least recently used out)."""

    def __init__(self, size: int = 256):
        self.size = size
        self._items: OrderedDict[str, tuple[float, object]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str):
        with self._lock:
            item = self._items.get(key)
            if item is None or item[0] < time.monotonic():
                return None
            self._items.move_to_end(key)
            return item[1]

    def set(self, key: str, value, seconds: float) -> None:
        with self._lock:
            self._items[key] = (time.monotonic() + seconds, value)
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


local = LocalCache()


def cached(memo: LocalCache, key: str, seconds: float):
    """``key`` from this process's ``memo``, else from the shared cache (then kept in ``memo``); None when
    in neither, or when the shared cache is out (which costs a render, never the page)."""
    value = memo.get(key)
    if value is not None:
        return value
    try:
        value = cache.get(key)
    except Exception:
        return None
    if value is not None:
        memo.set(key, value, seconds)
    return value


def keep(memo: LocalCache, key: str, value, seconds: float) -> None:
    """Store ``value`` in ``memo`` and in the shared cache (when it answers)."""
    memo.set(key, value, seconds)
    with contextlib.suppress(Exception):
        cache.set(key, value, seconds)


def _memo_seconds() -> float:
    return float(getattr(settings, "PUBLIC_STAMP_MEMO_SECONDS", 1.0))


def stamp(slug: str) -> str:
    """The tournament's current publication stamp (a new one when the cache lost it).

    Each process may remember a stamp for ``PUBLIC_STAMP_MEMO_SECONDS`` (1 s with Redis): a change made in
    this process is seen at once, one made in another process within that time, and a page request costs
    no round trip to the shared cache while the memo holds. With the embedded file cache the memo is off:
    every read checks the shared stamp, so every process serves the same page after a change."""
    memo_key = f"stamp:{slug}"
    value = local.get(memo_key)
    if value is not None:
        return value
    try:
        value = cache.get(_stamp_key(slug))
    except Exception:
        return "nocache"
    if value is None:
        value = secrets.token_hex(6)
        with contextlib.suppress(Exception):
            if not cache.add(_stamp_key(slug), value, STAMP_SECONDS):
                value = cache.get(_stamp_key(slug)) or value
    if _memo_seconds() > 0:
        local.set(memo_key, value, _memo_seconds())
    return value


def changed(slug: str) -> None:
    """What the public pages of ``slug`` show changed: a new stamp now, and again after the commit (a
    page rendered meanwhile from the data before the commit is never served after it).

    Inside a transaction the other processes see the change only at the commit, so the stamp they read
    is renewed then; now, only this process's memo is (one round trip to the shared cache per write
    instead of two). Without the memo (the embedded file cache) the shared stamp is renewed both times."""

    def bump(shared: bool = True):
        value = secrets.token_hex(6)
        local.set(f"stamp:{slug}", value, _memo_seconds())
        if shared:
            with contextlib.suppress(Exception):
                cache.set(_stamp_key(slug), value, STAMP_SECONDS)

    in_transaction = transaction.get_connection().in_atomic_block
    bump(shared=not in_transaction or _memo_seconds() <= 0)
    if in_transaction:
        transaction.on_commit(bump)


def changed_by_id(tournament_id: int) -> None:

    slug = Tournament.objects.filter(pk=tournament_id).values_list("slug", flat=True).first()
    if slug:
        changed(slug)


def is_anonymous_visit(request) -> bool:
    """A visitor whose page is the same as everybody's: no session, no messages, no query string (but on
    the ranking lists, whose canonical query strings are part of the cached page's key)."""
    return (
        request.method in ("GET", "HEAD")
        and (not request.GET or request.path.startswith(RANKING_PREFIX))
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and "messages" not in request.COOKIES
        and not request.headers.get("HX-Request")
    )


def _canonical_value(name: str, value: str) -> bool:
    if len(value) > RANKING_PARAMS[name]:
        return False
    if name == "page":
        return value == "" or (value.isdigit() and value.isascii() and not value.startswith("0"))
    if name == "country":
        return value == "" or (len(value) == 3 and value.isascii() and value.isalpha() and value.isupper())
    return value == value.strip()


def cache_path(request) -> str | None:
    """The key of the page asked for, or None when it must not be cached.

    A page without a query string is keyed by its path. A ranking list (``/ranking/`` and
    ``/ranking/<family>/``) is also cached with a query string already in the form its own links and search
    form produce: only ``q``, ``country`` and ``page``, each once, each within its bounds and as the view
    reads it, encoded as ``urlencode`` encodes it. The key is then the full path, so everything the page
    shows of the address (the language form's ``next``) is the same for everybody who gets it. Any other
    query string is rendered for its visitor alone."""
    if not request.GET:
        return request.path
    if not RANKING_LIST.match(request.path):
        return None
    raw = request.META.get("QUERY_STRING", "")
    pairs = parse_qsl(raw, keep_blank_values=True)
    names = [name for name, _value in pairs]
    if len(names) != len(set(names)) or any(name not in RANKING_PARAMS for name in names):
        return None
    if not all(_canonical_value(name, value) for name, value in pairs) or urlencode(pairs) != raw:
        return None
    return f"{request.path}?{raw}"


def _seconds() -> int:
    return int(getattr(settings, "PUBLIC_PAGE_CACHE_SECONDS", 10)) or 1


def store(*, path: str, slug: str, page_stamp: str, html: str, language: str | None = None) -> dict:
    body = html.encode()
    small = len(body) < MIN_GZIP_BYTES
    entry = {
        "slug": slug,
        "stamp": page_stamp,
        "body": body,
        "gz": None if small else gzip.compress(body, 6, mtime=0),
        "br": None if small or brotli is None else brotli.compress(body, quality=9),
        # a strong validator: the bytes of the page (each encoding gets its own, see ``respond``)
        "etag": hashlib.blake2b(body, digest_size=12).hexdigest(),
    }
    keep(local, _page_key(path, language or get_language()), entry, _seconds())
    return entry


def cache_language(request) -> str:
    """The language part of a cached page's key: the visitor's language, or for a venue screen asked by
    someone who chose none, its tournament's (``TOURNAMENT_LANGUAGE``: the page stored by the view, which
    read the tournament's language; a change of it changes the publication stamp)."""
    if languages.follows_tournament(request):
        return TOURNAMENT_LANGUAGE
    return get_language()


def lookup(path: str, language: str) -> dict | None:
    entry = cached(local, _page_key(path, language), _seconds())
    if entry is None:
        return None
    if entry["stamp"] != stamp(entry["slug"]):
        return None
    return entry


def _encoding(request, entry: dict) -> str:
    """The encoding the page is sent in: Brotli, gzip or none (``""``), the smallest the visitor takes."""
    accepted = {part.split(";")[0].strip() for part in request.headers.get("Accept-Encoding", "").split(",")}
    if entry.get("br") is not None and "br" in accepted:
        return "br"
    if entry["gz"] is not None and "gzip" in accepted:
        return "gzip"
    return ""


def etag_of(entry: dict, encoding: str) -> str:
    """The strong ETag of the page in ``encoding``: the same bytes, the same tag; each encoding its own."""
    return f'"{entry["etag"]}{"-" + encoding if encoding else ""}"'


def not_modified(request, tag: str) -> bool:
    """The visitor's copy (``If-None-Match``) is the page's current one."""
    asked = request.headers.get("If-None-Match", "")
    if not asked:
        return False
    if asked.strip() == "*":
        return True
    return tag in (part.strip().removeprefix("W/") for part in asked.split(","))


def respond(request, entry: dict) -> HttpResponse:
    """The page from its entry: 304 when the visitor's copy is current, else the page in the smallest
    encoding it takes. No query either way: the stamp and the entry come from the caches."""
    encoding = _encoding(request, entry)
    tag = etag_of(entry, encoding) if entry.get("etag") else None  # (entries stored before tags had none)
    if tag is not None and not_modified(request, tag):
        response = HttpResponse(status=304)
    else:
        body = {"br": entry.get("br"), "gzip": entry["gz"]}.get(encoding) or entry["body"]
        response = HttpResponse(body, content_type="text/html; charset=utf-8")
        if encoding:
            response["Content-Encoding"] = encoding
    if tag is not None:
        response["ETag"] = tag
    response["Vary"] = "Accept-Encoding, Accept-Language, Cookie"
    response["Cache-Control"] = "no-cache"
    response["X-Page-Cache"] = "hit"
    if settings.CSRF_COOKIE_NAME not in request.COOKIES:
        response.set_cookie(
            settings.CSRF_COOKIE_NAME,
            get_random_string(CSRF_SECRET_LENGTH, allowed_chars=CSRF_ALLOWED_CHARS),
            max_age=settings.CSRF_COOKIE_AGE,
            domain=settings.CSRF_COOKIE_DOMAIN,
            path=settings.CSRF_COOKIE_PATH,
            secure=settings.CSRF_COOKIE_SECURE,
            httponly=settings.CSRF_COOKIE_HTTPONLY,
            samesite=settings.CSRF_COOKIE_SAMESITE,
        )
    return response


def public_page(request, *, slug: str, render: Callable[[dict], str]) -> HttpResponse | None:
    """Serve ``request`` from the page cache, rendering it once with ``render(extra_context)`` when
    missing. None when the visitor is not anonymous (the view renders for them as usual)."""
    if not is_anonymous_visit(request):
        return None
    path = cache_path(request)
    if path is None:
        return None
    page_stamp = stamp(slug)
    language = cache_language(request)
    if (
        language == TOURNAMENT_LANGUAGE
        and not Tournament.objects.filter(slug=slug).exclude(language="").exists()
    ):
        language = f"{TOURNAMENT_LANGUAGE}:{get_language()}"  # no language of its own: each reader's
    entry = lookup(path, language)
    if entry is None:
        html = render({"csrf_token": CSRF_MARKER, "public_cached": True}).replace(CSRF_MARKER, "")
        entry = store(path=path, slug=slug, page_stamp=page_stamp, html=html, language=language)
    response = respond(request, entry)
    response["X-Page-Cache"] = "miss"
    return response


class PublicPageMiddleware:
    """Answers anonymous GETs of cached public pages before sessions, authentication and views."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        path = cache_path(request) if request.path.startswith(("/t/", RANKING_PREFIX)) else None
        if path is not None and is_anonymous_visit(request):
            # a venue screen asked by someone who chose no language is in its tournament's
            tournament = languages.follows_tournament(request)
            browser = get_language_from_request(request)
            language = TOURNAMENT_LANGUAGE if tournament else browser
            entry = lookup(path, language)
            if entry is None and tournament:  # a tournament that leaves its screen to each reader's language
                language = f"{TOURNAMENT_LANGUAGE}:{browser}"
                entry = lookup(path, language)
            if entry is not None:
                response = respond(request, entry)
                if not tournament:
                    response["Content-Language"] = language
                return response
        return self.get_response(request)
