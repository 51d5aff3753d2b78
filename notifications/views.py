"""The phone's subscription, from the page it is made on: the player's private link, the player's public
page (the player's own account), the table's private link, the staff's page. Each answers JSON to the
page's script (static/js/push.js): GET lists the owner's phones (never their addresses), POST subscribes,
POST …/<id>/delete/ removes one."""

from __future__ import annotations

import hashlib
import json

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from notifications import events, services, topics, vapid
from notifications.services import Owner, PushInputError
from tournaments.permissions import can_manage

MAX_BODY = 4096


def _phone(sub) -> dict:
    return {
        "id": sub.pk,
        # the phone recognises itself by the hash of its own address; the address is never shown
        "phone": hashlib.sha256(sub.endpoint.encode()).hexdigest()[:32],
        "topics": topics.read(sub.topics),
        "language": sub.language,
        "created": sub.created_at.isoformat(),
        "last_sent": sub.last_sent_at.isoformat() if sub.last_sent_at else None,
    }


def _answer(request: HttpRequest, owner: Owner, pk: int | None = None) -> JsonResponse:
    if pk is not None and request.method != "POST":
        return JsonResponse({"detail": "POST only"}, status=405)
    try:
        if pk is not None:
            removed = services.subscription_remove(owner=owner, pk=pk)
            return JsonResponse({"removed": removed}, status=200 if removed else 404)
        if request.method == "POST":
            if len(request.body) > MAX_BODY:
                return JsonResponse({"subscription": [f"must be at most {MAX_BODY} bytes"]}, status=400)
            try:
                data = json.loads(request.body or b"null")
            except (ValueError, UnicodeDecodeError):
                return JsonResponse({"subscription": ["must be JSON"]}, status=400)
            if isinstance(data, dict) and data.get("remove"):
                removed = services.subscription_remove(owner=owner, endpoint=data.get("endpoint"))
                return JsonResponse({"removed": removed})
            sub = services.subscription_save(owner=owner, data=data)
            return JsonResponse(_phone(sub), status=201)
    except PushInputError as exc:
        return JsonResponse({exc.field: [exc.message]}, status=400)
    phones = [_phone(s) for s in services.subscriptions_of(owner=owner)]
    response = JsonResponse({"topics": list(owner.topics), "phones": phones})
    response["Cache-Control"] = "no-store"
    return response


@require_http_methods(["GET", "POST"])
def player_link(request: HttpRequest, key: str, slug: str, pk: int | None = None):
    return _answer(request, services.owner_player_link(key=key, slug=slug), pk)


@require_http_methods(["GET", "POST"])
def player_account(request: HttpRequest, slug: str, key: str, pk: int | None = None):
    owner = services.owner_player_account(user=request.user, slug=slug, key=key)  # 404 before 403
    return _answer(request, owner, pk)


@require_http_methods(["GET", "POST"])
def table_link(request: HttpRequest, key: str, pk: int | None = None):
    return _answer(request, services.owner_table_link(key=key), pk)


@require_http_methods(["GET", "POST"])
def staff(request: HttpRequest, slug: str, pk: int | None = None):
    return _answer(request, services.owner_staff(user=request.user, slug=slug), pk)  # 404 before 403


@login_required
def staff_page(request: HttpRequest, slug: str):
    """A referee's or director's page: which calls, held hands and waiting tables this phone is told of;
    the director sets how long a table may wait for confirmation."""
    owner = services.owner_staff(user=request.user, slug=slug)
    tournament = owner.tournament
    error = ""
    if request.method == "POST":
        if not can_manage(request.user, tournament):
            raise PermissionDenied("Only the tournament's directors change this.")
        try:
            services.wait_minutes_set(
                tournament=tournament, user=request.user, minutes=request.POST.get("minutes", "")
            )
        except PushInputError as exc:
            error = exc.message
    context = {
        "tournament": tournament,
        "wait_minutes": events.wait_minutes(tournament),
        "is_director": can_manage(request.user, tournament),
        "error": error,
        "vapid_public": (vapid.keys() or vapid.Keys("", "", "")).public,
    }
    return render(request, "notifications/staff.html", context, status=400 if error else 200)
