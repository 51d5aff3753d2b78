"""Request guards that apply to every page and every API call."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import render

from config import parsers
from tournaments.lifecycle import TournamentFinished
from tournaments.models import Tournament
from tournaments.permissions import can_view


class RefuseNulMiddleware:
    """A NUL character in a query parameter (``?search=%00``) is refused with a 400 naming the parameter.

    No database stores NUL in text (PostgreSQL refuses it outright), so such a filter can never match and
    would otherwise fail deep in a query."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        bad = sorted(
            {key for key, values in request.GET.lists() if "\x00" in key or any("\x00" in v for v in values)}
        )
        if bad or "\x00" in request.path:
            names = bad or ["path"]
            message = "Null characters are not allowed."
            if request.path.startswith("/api/"):
                body = {name.replace("\x00", "\\0"): [message] for name in names}
                body["detail"] = f"{', '.join(body)}: {message}"
                return JsonResponse(body, status=400)
            return HttpResponseBadRequest(f"{', '.join(n.replace(chr(0), '') for n in names)}: {message}")
        return self.get_response(request)


def refusal(request, status: int, field: str, message: str):
    """A refusal naming the field and the rule: JSON under /api/ (``{field: [message], "detail": …}``),
    plain text elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({field: [message], "detail": f"{field}: {message}"}, status=status)
    return HttpResponse(f"{field}: {message}", status=status, content_type="text/plain; charset=utf-8")


def view_parsers(view_func):
    """The parser classes a DRF view reads its body with (an action's own, else the view's); None for a
    view that is not DRF's."""
    cls = getattr(view_func, "cls", None)
    if cls is None:
        return None
    initkwargs = getattr(view_func, "initkwargs", None) or {}
    return initkwargs.get("parser_classes") or getattr(cls, "parser_classes", None)


def body_limit(request, view_func) -> int:
    """How many bytes the view may be sent: the limit of the parser that would read this body (API); for a
    page, the largest upload the project takes for a signed-in caller's file upload (multipart: an
    archive, a CSV file, a results file), else the limit of a form (``FORM_MAX_BYTES``): nobody
    signed out uploads anything, and no form of text comes near it."""

    classes = view_parsers(view_func)
    if classes is None:
        content_type = request.META.get("CONTENT_TYPE", "").lower()
        user = getattr(request, "user", None)
        if content_type.startswith("multipart/") and user is not None and user.is_authenticated:
            return parsers.upload_max_bytes()
        return parsers.form_max_bytes()
    return parsers.body_limit_of(classes, request.META.get("CONTENT_TYPE", ""))


class BoundedBodyMiddleware:
    """Every request body is bounded before anything reads it.

    The path and query: at most ``URI_MAX_BYTES`` (414). The body: its announced length (``Content-Length``)
    at most the limit of the parser that would read it (413), checked before the CSRF check reads a form and
    before the idempotency fingerprint reads anything; a body without a length is read as empty by Django.
    The depth of a JSON body is the JSON parser's check (400). Under /api/ every refusal is JSON naming the
    rule."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        limit = getattr(settings, "URI_MAX_BYTES", 4096)
        length = len(request.META.get("PATH_INFO", "").encode("utf-8", "surrogateescape")) + len(
            request.META.get("QUERY_STRING", "")
        )
        if length > limit:
            return refusal(request, 414, "path", f"The address is longer than {limit:,} bytes (the limit).")
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        raw = request.META.get("CONTENT_LENGTH") or "0"
        if not (raw.isascii() and raw.isdigit()) or len(raw) > 18:
            return refusal(request, 400, "Content-Length", "Content-Length must be a whole number of bytes.")
        limit = body_limit(request, view_func)
        if int(raw) > limit:
            return refusal(
                request, 413, "body", f"The request body is larger than {limit:,} bytes (the limit)."
            )
        return None


class PrivateTournamentMiddleware:
    """A page of a tournament the caller may not see answers as a page of a tournament that does not
    exist (404), never 403: a private tournament's slug tells an outsider nothing, as in the API.

    Every page whose address names a tournament (``<slug>``) and that refuses the caller goes through
    here, so a page added later is covered without a check of its own. The tournament's staff still get
    the 403 that names the role they lack."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code != 403 or request.path.startswith("/api/"):
            return response
        match = getattr(request, "resolver_match", None)
        slug = match.kwargs.get("slug") if match is not None else None
        if not slug:
            return response
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is not None and not can_view(getattr(request, "user", None), tournament):
            raise Http404("No such tournament.")
        return response


class FinishedTournamentMiddleware:
    """A page whose write a finished tournament refuses (``tournaments.lifecycle.TournamentFinished``, raised
    by the services) answers 400 with the reason and the way back, wherever the page did not show it in its
    form. The API answers the same refusal as a 400 on ``status`` (config.api)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, TournamentFinished) or request.path.startswith("/api/"):
            return None
        return render(
            request, "finished.html", {"reason": exception.messages[0], "slug": exception.slug}, status=400
        )
