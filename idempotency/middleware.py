"""Every unsafe request that carries a key (``Idempotency-Key`` header, or the ``idempotency_key`` field of
a page's form) is done once per actor and key; see ``idempotency.services``.

It sits last in ``MIDDLEWARE``: the CSRF check and the login have run, and the view it calls is the one the
URL resolved to. Requests without a key go through untouched.
"""

from __future__ import annotations

import hashlib
import re
import tempfile
from collections.abc import Iterator

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render, resolve_url
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from rest_framework.exceptions import APIException
from rest_framework.views import APIView

from idempotency import fingerprint as fp
from idempotency.services import InProgress, Mismatch, idempotent_run

HEADER = "Idempotency-Key"
FIELD = "idempotency_key"
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
BODY_PIECE = 64 * 1024  # bytes of a large body read at a time
# whether a request accepts a gzipped answer, read as Django's GZip middleware and gzip_page read it
_ACCEPTS_GZIP = re.compile(r"\bgzip\b")


def _is_form(request: HttpRequest) -> bool:
    return request.content_type in FORM_TYPES


def key_of(request: HttpRequest) -> str | None:
    """The header, else the form's hidden field; not the field of a form that htmx sends along with a
    partial request (a preview posting the whole form is not the form's write: htmx writes send the
    header)."""
    key = request.headers.get(HEADER)
    if key is None and _is_form(request) and request.headers.get("HX-Request") != "true":
        key = request.POST.get(FIELD)
    return key


def actor_scope(request: HttpRequest, view_kwargs: dict, api_user=None) -> str:
    """Who sends the request: the user (however authenticated: session cookie or API token), the API
    credential, the table's (and player's) private link, the browser's session, or else its address. Keys
    of different actors never meet; one user's keys are one user's whatever the authentication."""
    for user in (api_user, getattr(request, "user", None)):
        if user is not None and user.is_authenticated:
            return f"user:{user.pk}"
    authorization = request.headers.get("Authorization")
    if authorization:
        return fp.scope_hash("auth", authorization)
    link = request.headers.get("X-Table-Key") or request.GET.get("key") or view_kwargs.get("key")
    if link:
        return fp.scope_hash("table", f"{link}/{view_kwargs.get('player_key', '')}")
    session = getattr(request, "session", None)
    if session is not None and session.session_key:
        return fp.scope_hash("session", session.session_key)
    # no session is created for this: anonymous writes other than the links above are refused anyway
    return fp.scope_hash("address", request.META.get("REMOTE_ADDR", ""))


def json_max_bytes() -> int:
    return getattr(settings, "JSON_MAX_BYTES", 1024 * 1024)


def _length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


def _read(request: HttpRequest) -> bool:
    """Whether something read the body already (then ``request.body`` holds it, or refuses)."""
    return hasattr(request, "_body") or getattr(request, "_read_started", False)


def _body_pieces(request: HttpRequest) -> Iterator[bytes]:
    """The body in pieces (for a body larger than the JSON parser's limit, an archive: no digest is
    read of it), copied into a temporary file, on disk past ``ARCHIVE_INLINE_BYTES``, that becomes the
    stream the view reads the body from."""
    in_memory = getattr(settings, "ARCHIVE_INLINE_BYTES", 256 * 1024)
    spool = tempfile.SpooledTemporaryFile(max_size=in_memory, dir=settings.FILE_UPLOAD_TEMP_DIR)  # noqa: SIM115
    while piece := request.read(BODY_PIECE):
        spool.write(piece)
        yield piece
    spool.seek(0)
    request._stream = spool  # Django's own attributes: the body is read again, from the copy
    request._read_started = False


def request_fingerprint(request: HttpRequest, legacy: bool = False) -> str:
    """The request's fingerprint. A JSON body counts by its streamed digest (``fp.json_digest``: no copy of
    the body is built); ``legacy``: by its canonical form parsed and dumped again, as keys stored before
    the digest were fingerprinted (a repeat across that change still matches)."""
    if _is_form(request):
        fields = list(request.POST.lists())
        for name, files in request.FILES.lists():
            for f in files:
                digest = hashlib.sha256()
                for chunk in f.chunks():
                    digest.update(chunk)
                fields.append((f"file:{name}", [f.name or "", str(f.size), digest.hexdigest()]))
        body = fp.canonical_fields(fields)
    elif _length(request) > json_max_bytes() and not _read(request):
        body = _body_pieces(request)  # no digest for it: its bytes, never held whole
    else:
        raw = request.body  # bounded before: BoundedBodyMiddleware checked its length
        body = (
            (fp.canonical_json if legacy else fp.json_digest)(
                raw,
                max_bytes=json_max_bytes(),
                max_depth=getattr(settings, "JSON_MAX_DEPTH", 32),
            )
            if raw
            else b""
        )
        if body is None:
            body = raw
    return fp.fingerprint(
        method=request.method or "",
        path=request.path,
        query=request.META.get("QUERY_STRING", ""),
        content_type=request.content_type or "",
        body=body,
    )


def _wants_json(request: HttpRequest) -> bool:
    return (
        request.path.startswith("/api/")
        or not _is_form(request)
        or "application/json" in request.headers.get("Accept", "")
    )


def _back_url(request: HttpRequest) -> str:
    """Where a person goes back to: the page the form was on (its Referer, on this site), else the address
    the form was sent to."""
    referer = request.headers.get("Referer", "")
    if referer and url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return referer
    return request.path


def _refused(request: HttpRequest, status: int, message: str, reason: str) -> HttpResponse:
    """The API's answer names the header and the request; a page says what happened and what to do, in
    the reader's language, with a link back (``reason``: "used", "busy" or "key")."""
    if _wants_json(request):
        return JsonResponse({HEADER: [message], "detail": f"{HEADER}: {message}"}, status=status)
    return render(
        request, "idempotency/refused.html", {"reason": reason, "back": _back_url(request)}, status=status
    )


def api_gate(request: HttpRequest, view_func, view_args, view_kwargs):
    """For a DRF view: (refused, user) after its authentication and its permission classes, run on the
    request before anything reads its body. ``refused`` is True when the view would refuse the caller
    (401/403): the request then goes to the view as if it had no key, and nothing is stored. ``user`` is
    the user the API authenticated (a token's user too). (False, None) for other views."""
    cls = getattr(view_func, "cls", None)
    if cls is None or not issubclass(cls, APIView):
        return False, None
    view = cls(**(getattr(view_func, "initkwargs", None) or {}))
    actions = getattr(view_func, "actions", None)
    if actions is not None:
        view.action_map = actions
    view.args, view.kwargs, view.format_kwarg = view_args, view_kwargs, None
    view.headers = {}
    # DRF writes the user it finds onto the request it wraps (a token's user, or nobody after a refusal).
    # The view authenticates again on the same request: left there, a token's user would look like a
    # session cookie's (and be asked for a CSRF token), a refused cookie like nobody. Put back as it was.
    had_user = "user" in request.__dict__
    django_user = request.__dict__.get("user")
    try:
        drf_request = view.initialize_request(request, *view_args, **view_kwargs)
        view.request = drf_request
        user = drf_request.user
        view.check_permissions(drf_request)
    except APIException:
        return True, None
    finally:
        if had_user:
            request.user = django_user
        else:
            request.__dict__.pop("user", None)
    return False, user


def _refusal(request: HttpRequest, response: HttpResponse) -> bool:
    """An answer that refuses the write (any 4xx: the input, the caller, a stale version, nothing found;
    or a page's redirect to the sign-in page): not kept, so that a refused write stores nothing. Nothing
    was written either, so the same request sent again gets the same refusal by running again."""
    if response.status_code >= 400:
        return True
    if response.status_code in (301, 302, 303, 307, 308):
        login = resolve_url(settings.LOGIN_URL)
        return response.get("Location", "").split("?")[0] == login
    return False


class IdempotencyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs):
        if request.method not in UNSAFE:
            return None
        key = key_of(request)
        if key is None:
            return None
        problem = fp.key_problem(key)
        if problem is not None:
            return _refused(request, 400, _("the key %(problem)s.") % {"problem": problem}, "key")
        # The caller's right first: a request its view refuses reads no body and stores no key.
        refused, api_user = api_gate(request, view_func, view_args, view_kwargs)
        if refused:
            return None
        outcome = idempotent_run(
            scope=actor_scope(request, view_kwargs, api_user),
            key=key,
            fingerprint=request_fingerprint(request),
            legacy=lambda: request_fingerprint(request, legacy=True),
            method=request.method or "",
            path=request.path,
            run=lambda: view_func(request, *view_args, **view_kwargs),
            kept=lambda response: not _refusal(request, response),
            accepts_gzip=bool(_ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", ""))),
        )
        if isinstance(outcome, Mismatch):
            return _refused(
                request,
                422,
                _(
                    "this key was already used for another request (%(method)s %(path)s with other "
                    "data); send a new key for a new request."
                )
                % {"method": outcome.record.method, "path": outcome.record.path},
                "used",
            )
        if isinstance(outcome, InProgress):
            response = _refused(
                request,
                409,
                _("a request with this key is still being processed; send it again in a moment."),
                "busy",
            )
            response["Retry-After"] = "1"
            return response
        return outcome
