"""The demo tournament that `make run` shows: a realistic MCR weekend with 40 players."""

from __future__ import annotations

import datetime as dt
import random

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from tournaments import services
from tournaments.models import Player, Role, Tournament

DEMO_SLUG = "demo-open-2026"
DEMO_PASSWORD = "mahjong-demo"

# (country, club, [(first, last), ...]): 40 players from 8 countries.
ROSTER = [
    (
        "ESP",
        "Mahjong Salamanca",
        [
            ("Ana", "García"),
            ("Javier", "Martín"),
            ("Lucía", "Fernández"),
            ("Sergio", "López"),
            ("Marta", "Sánchez"),
            ("Diego", "Romero"),
        ],
    ),
    (
        "FRA",
        "Mahjong Club Paris",
        [
            ("Camille", "Durand"),
            ("Julien", "Moreau"),
            ("Élodie", "Lefèvre"),
            ("Thomas", "Girard"),
            ("Chloé", "Bonnet"),
        ],
    ),
    (
        "DEU",
        "Mahjong Berlin",
        [
            ("Lukas", "Schneider"),
            ("Anna", "Fischer"),
            ("Jonas", "Weber"),
            ("Lena", "Wagner"),
            ("Felix", "Becker"),
        ],
    ),
    (
        "NLD",
        "Mahjong Amsterdam",
        [
            ("Daan", "de Vries"),
            ("Sanne", "Jansen"),
            ("Bram", "van Dijk"),
            ("Eva", "Bakker"),
            ("Ruben", "Visser"),
        ],
    ),
    (
        "DNK",
        "Copenhagen Mahjong",
        [("Mads", "Nielsen"), ("Freja", "Hansen"), ("Emil", "Pedersen"), ("Ida", "Andersen")],
    ),
    (
        "ITA",
        "Mahjong Milano",
        [
            ("Giulia", "Rossi"),
            ("Marco", "Russo"),
            ("Chiara", "Ferrari"),
            ("Luca", "Esposito"),
            ("Sara", "Bianchi"),
        ],
    ),
    (
        "POL",
        "Warszawa Mahjong",
        [("Kacper", "Nowak"), ("Zofia", "Kowalska"), ("Piotr", "Wiśniewski"), ("Maja", "Wójcik")],
    ),
    (
        "GBR",
        "London Mahjong Club",
        [
            ("Oliver", "Smith"),
            ("Amelia", "Jones"),
            ("Harry", "Taylor"),
            ("Isla", "Brown"),
            ("George", "Evans"),
            ("Emily", "Clarke"),
        ],
    ),
]
SUBSTITUTES = [("SUB", "Hugo", "Navarro", "ESP"), ("SUB", "Nora", "Vidal", "ESP")]


def demo_exists() -> bool:
    return Tournament.objects.filter(slug=DEMO_SLUG).exists()


def _user(username: str, *, superuser: bool = False):
    User = get_user_model()
    user, created = User.objects.get_or_create(username=username)
    if created or not user.has_usable_password():
        user.set_password(DEMO_PASSWORD)
    user.is_staff = superuser or user.is_staff
    user.is_superuser = superuser or user.is_superuser
    user.save()
    return user


@transaction.atomic
def load_demo(*, seed: int = 2026) -> Tournament:
    """Create the demo tournament, its players and accounts (admin, director, referee)."""
    rng = random.Random(seed)
    admin = _user("admin", superuser=True)
    director = _user("director")
    referee = _user("referee")
    today = timezone.localdate()
    tournament = services.tournament_create(
        name="Demo Open 2026",
        slug=DEMO_SLUG,
        ruleset="mcr",
        starts_on=today,
        days=2,
        city="Salamanca",
        country="ESP",
        status=Tournament.Status.RUNNING,
        director=director,
    )
    services.role_grant(tournament=tournament, user=admin, role=Role.DIRECTOR)
    services.role_grant(tournament=tournament, user=referee, role=Role.REFEREE)
    start = timezone.make_aware(dt.datetime.combine(today, dt.time(10, 0)))
    for number, offset in enumerate((0, 4, 24, 28), start=1):
        services.session_create(
            tournament=tournament, number=number, starts_at=start + dt.timedelta(hours=offset)
        )
    key = 1
    for country, club, names in ROSTER:
        for first, last in names:
            ema = f"{rng.randrange(0, 10**8):08d}" if rng.random() < 0.8 else None
            while ema and Player.objects.filter(ema_id=ema).exists():
                ema = f"{rng.randrange(0, 10**8):08d}"
            player = services.player_create(
                first_name=first, last_name=last, ema_id=ema, country=country, club=club
            )
            services.registration_create(tournament=tournament, player=player, key=f"p{key}")
            key += 1
    for index, (_, first, last, country) in enumerate(SUBSTITUTES, start=1):
        player = services.player_create(
            first_name=first, last_name=last, country=country, club="Mahjong Salamanca"
        )
        services.registration_create(
            tournament=tournament, player=player, key=f"s{index}", is_substitute=True
        )
    return tournament
