"""Who may import an archive."""

from __future__ import annotations

from typing import Any

from tournaments.models import Tournament
from tournaments.permissions import can_create_tournament, can_manage


def import_allowed(user, head: dict[str, Any], replace: bool) -> bool:
    """Creating a tournament needs the right to create tournaments; replacing an existing one needs the
    director role in it."""
    tournament = head.get("tournament")
    slug = tournament.get("slug") if isinstance(tournament, dict) else None
    existing = Tournament.objects.filter(slug=slug).first() if isinstance(slug, str) else None
    if existing is not None and replace:
        return can_manage(user, existing)
    return can_create_tournament(user)
