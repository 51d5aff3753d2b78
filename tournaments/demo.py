"""The demo that `make run` shows: a realistic MCR weekend with 40 players, and an EMA riichi cup beside it.

Both are seated by the seating engine for all four sessions (nobody meets twice, winds balanced, clubs and
countries spread), as a director would from the seating page; sessions 1 and 2 are published.

Sessions 1 and 2 are seated and published. Session 1 is finished: three tables entered hand by hand, the
others as game totals, all confirmed. Session 2 is being played: some tables confirmed, one submitted and
waiting for a referee, some still playing, two not started, and a late player replaced by a substitute.
Penalties of several kinds are recorded through the same services the pages use, so the standings are
computed as they would be on the day.
"""

from __future__ import annotations

import datetime as dt
import random

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.utils import timezone

from penalties.services import penalty_record
from scoring import services as scoring
from scoring.rules.base import RuleError
from scoring.tiles.services import notable_hand_from_hand, tiles_mode_set
from tournaments import lifecycle, services
from tournaments.clock import servertime
from tournaments.clock import services as clock
from tournaments.models import Player, Registration, Role, Session, Tournament
from tournaments.organising.services import tournament_edit
from tournaments.permissions import Actor
from tournaments.seating.selectors import SCHEDULE
from tournaments.seating.services import seating_generate, seating_publish
from tournaments.staff.services import organiser_grant
from tournaments.teams.services import team_save, team_size_set

DEMO_SLUG = "demo-open-2026"
RIICHI_SLUG = "demo-riichi-cup-2026"
MAYON_SLUG = "demo-liga-mayon-2026"
# the colours of the demo club's tile set (Salamanca art. 32): green bamboo with red on 5, 7 and 9; red and
# green dots
MAYON_COLOURS = " ".join(
    [f"{n}s:{'rg' if n in (5, 7, 9) else 'g'}" for n in range(2, 10)] + [f"{n}p:rg" for n in range(2, 10)]
)
SHARED_WITH_MAYON = ("p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8")  # the Spanish clubs' players
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

# The riichi cup beside the open: 12 players of its own and 4 who play both tournaments.
RIICHI_ROSTER = [
    ("FIN", "Helsinki Riichi", [("Aino", "Virtanen"), ("Eetu", "Korhonen"), ("Venla", "Mäkinen")]),
    ("AUT", "Riichi Wien", [("Maximilian", "Gruber"), ("Johanna", "Huber"), ("Tobias", "Bauer")]),
    ("SWE", "Stockholm Mahjong", [("Elsa", "Lindqvist"), ("Hugo", "Berg"), ("Alva", "Sjöberg")]),
    ("ESP", "Riichi Madrid", [("Irene", "Ortega"), ("Pablo", "Castillo"), ("Nerea", "Iglesias")]),
]
SHARED_WITH_RIICHI = ("p1", "p7", "p12", "p23")  # Ana García, Camille Durand, Lukas Schneider, Mads Nielsen


def demo_exists() -> bool:
    return Tournament.objects.filter(slug__in=[DEMO_SLUG, RIICHI_SLUG, MAYON_SLUG]).exists()


def _user(username: str, *, superuser: bool = False, password_hash: str | None = None):
    User = get_user_model()
    user, created = User.objects.get_or_create(username=username)
    if created or not user.has_usable_password():
        # one hash for every demo account: hashing is slow on purpose, and the demo should start quickly
        user.password = password_hash or make_password(DEMO_PASSWORD)
    user.is_staff = superuser or user.is_staff
    user.is_superuser = superuser or user.is_superuser
    user.save()
    return user


def _demo_tournament(
    *, name: str, slug: str, ruleset: str, days: int, director, staff: dict, first: dt.time, offsets_hours
) -> Tournament:
    """A running tournament in Salamanca from today, its staff, and a session at each offset from ``first``."""
    today = timezone.localdate()
    tournament = services.tournament_create(
        name=name,
        slug=slug,
        ruleset=ruleset,
        starts_on=today,
        days=days,
        city="Salamanca",
        country="ESP",
        director=director,
    )
    for user, role in staff.items():
        services.role_grant(tournament=tournament, user=user, role=role)
    start = timezone.make_aware(dt.datetime.combine(today, first))
    for number, offset in enumerate(offsets_hours, start=1):
        services.session_create(
            tournament=tournament, number=number, starts_at=start + dt.timedelta(hours=offset)
        )
    return tournament


@transaction.atomic
def load_demo(*, seed: int = 2026) -> Tournament:
    """Create the demo tournament, its players and accounts (admin, director, referee, scorer), seat
    sessions 1 and 2 and enter their results and penalties."""
    rng = random.Random(seed)
    password_hash = make_password(DEMO_PASSWORD)
    admin = _user("admin", superuser=True, password_hash=password_hash)
    director = _user("director", password_hash=password_hash)
    organiser_grant(user=director)  # the demo's director may create tournaments of their own
    referee = _user("referee", password_hash=password_hash)
    scorer = _user("scorer", password_hash=password_hash)
    staff = {admin: Role.DIRECTOR, referee: Role.REFEREE, scorer: Role.SCORER}
    tournament = _demo_tournament(
        name="Demo Open 2026", slug=DEMO_SLUG, ruleset="mcr", days=2, director=director, staff=staff,
        first=dt.time(10, 0), offsets_hours=(0, 4, 24, 28),
    )  # fmt: skip
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
    _play_demo(tournament, referee=referee, director=director, seed=seed)
    _run_clock(tournament, director=director)
    _riichi_demo(tournament, admin=admin, director=director, referee=referee, scorer=scorer, seed=seed)
    _mayon_demo(tournament, admin=admin, director=director, referee=referee, scorer=scorer)
    return tournament


def _mayon_demo(open_tournament: Tournament, *, admin, director, referee, scorer) -> Tournament:
    """A Salamanca club league played with colours: its first session seated, one table's hands entered
    with their tiles, the fan counted by the product (two colours, one colour, one suit)."""

    staff = {admin: Role.DIRECTOR, referee: Role.REFEREE, scorer: Role.SCORER}
    tournament = _demo_tournament(
        name="Demo Liga Mayón 2026", slug=MAYON_SLUG, ruleset="salamanca", days=1, director=director,
        staff=staff, first=dt.time(17, 0), offsets_hours=(0, 3),
    )  # fmt: skip
    tournament_edit(tournament=tournament, fields={}, rules={"colours": MAYON_COLOURS})
    for index, shared in enumerate(SHARED_WITH_MAYON, start=1):
        player = Registration.objects.get(tournament=open_tournament, key=shared).player
        services.registration_create(tournament=tournament, player=player, key=f"m{index}")
    tiles_mode_set(tournament=tournament, mode="optional")
    _seat_demo(tournament, publish=(1,))
    ref = Actor(user=referee, role=Role.REFEREE)
    table = tournament.sessions.get(number=1).tables.order_by("number").first()
    for hand in (
        # art. 32's own example, self-drawn: chows, self-drawn, concealed, seven pairs, one suit (5 with
        # colours) and two colours (the dots are red and green): 12 fan
        {"result": "win", "winner": 0, "discarder": None,
         "tiles": {"hand": "11223344556677p", "winning_tile": "7p"}},
        # green bamboo and a pair of green dragons: one colour 3, one suit and honours 3, concealed, single
        # wait: 8 fan
        {"result": "win", "winner": 2, "discarder": 1,
         "tiles": {"hand": "234s234s666s888s66z", "winning_tile": "6z"}},
        {"result": "draw"},
    ):  # fmt: skip
        scoring.hand_add(table=table, hand=hand, actor=ref, expected_version=None)
    return tournament


def _run_clock(tournament: Tournament, *, director) -> None:
    """Session 1's clock ran with it and ended when it finished; session 2's started with it 70 minutes
    ago (``_play_demo``); table 4 gets five more minutes (a long dispute); the venue screen has an
    announcement."""

    with _at(_ago(minutes=20)):
        clock.clock_act(tournament=tournament, user=director, action="extend", seconds=300, table=4)
    clock.announcement_add(
        tournament=tournament,
        user=director,
        text="Lunch after session 2 in the hall next door; session 3 at 14:00.",
    )


# -- sessions 1 and 2: seating, results and penalties ---------------------------------------------------


def _seat_demo(
    tournament: Tournament, *, publish: tuple[int, ...] = (1, 2), started: dt.datetime | None = None
) -> None:
    """The seating engine plans every session at once (no two players meet twice, winds balanced, clubs
    and countries spread), as a director would from the seating page; the first sessions are published."""

    sessions = list(tournament.sessions.order_by("number"))
    seating_generate(tournament=tournament, sessions=sessions, strategy=SCHEDULE, seed=7)
    for session in sessions:
        if session.number in publish:
            seating_publish(session=session)
    with _at(started or timezone.now()):  # the first session is played: its clock starts with it
        lifecycle.session_move(session=sessions[0], to=Session.Status.PLAYING)


def _at(instant: dt.datetime):
    """The server's time for the clocks, as of ``instant`` (the demo's story happened over hours)."""

    return servertime.override(lambda: instant)


def _ago(**delta) -> dt.datetime:
    return timezone.now() - dt.timedelta(**delta)


# How often an MCR hand is worth each value, in hands per thousand, as a tournament's score sheets show it:
# most wins are 8 to 20 fan, a 24-to-40-fan hand a few times a session, a limit hand once in a long weekend.
FAN_WEIGHTS = {
    8: 150, 9: 120, 10: 100, 11: 80, 12: 85, 13: 65, 14: 60, 15: 40, 16: 50, 17: 30, 18: 30, 19: 15,
    20: 15, 21: 10, 22: 12, 24: 18, 25: 5, 26: 10, 28: 5, 32: 8, 40: 3, 48: 2, 64: 1.5, 88: 0.5,
}  # fmt: skip
DRAW_SHARE = 0.12  # hands ending without a winner
SELF_DRAWN_SHARE = 0.3  # wins by self-draw


def _random_hand(rng: random.Random) -> dict:
    if rng.random() < DRAW_SHARE:
        return {"result": "draw"}
    winner = rng.randrange(4)
    discarder = None if rng.random() < SELF_DRAWN_SHARE else rng.choice([s for s in range(4) if s != winner])
    fan = rng.choices(list(FAN_WEIGHTS), weights=list(FAN_WEIGHTS.values()))[0]
    return {"result": "win", "winner": winner, "discarder": discarder, "fan": fan}


class _DemoPlay:
    """The demo's play at its tables: random hands (seeded), totals, submissions and confirmations, by its
    referee and director."""

    def __init__(self, tournament: Tournament, *, referee, director, seed: int):
        self.tournament = tournament
        self.rng = random.Random(seed + 1)
        self.referee = referee
        self.ref = Actor(user=referee, role=Role.REFEREE)
        self.boss = Actor(user=director, role=Role.DIRECTOR)
        self.rules = tournament.get_rules()

    @staticmethod
    def seated(table, position: int) -> Registration:
        return table.seats.get(position=position).registration

    def hands(self, table, count: int) -> None:
        for _ in range(count):
            scoring.hand_add(table=table, hand=_random_hand(self.rng), actor=self.ref, expected_version=None)

    def totals(self, table) -> None:
        game = self.rules.play_game([_random_hand(self.rng) for _ in range(16)])
        scoring.totals_set(table=table, scores=list(game.scores), actor=self.ref, expected_version=None)

    def finish(self, table, *, confirm: bool = True) -> None:
        scoring.result_submit(table=table, actor=self.ref, expected_version=None)
        if confirm:
            scoring.result_confirm(table=table, actor=self.boss, expected_version=None)

    def penalty(self, **fields) -> None:
        penalty_record(tournament=self.tournament, actor=fields.pop("actor", self.ref), **fields)


def _play_demo(tournament: Tournament, *, referee, director, seed: int) -> None:
    play = _DemoPlay(tournament, referee=referee, director=director, seed=seed)
    _seat_demo(tournament, started=_ago(hours=4))
    s1, s2 = tournament.sessions.get(number=1), tournament.sessions.get(number=2)
    offender = _demo_session_1(play, s1)
    with _at(_ago(hours=1, minutes=55)):  # session 1's clock ends with it
        lifecycle.session_move(session=s1, to=Session.Status.FINISHED)
    with _at(_ago(minutes=70)):  # session 2's starts with it
        lifecycle.session_move(session=s2, to=Session.Status.PLAYING)
    tables2 = {t.number: t for t in s2.tables.all()}
    _demo_session_2(play, s2, tables2, offender)
    _demo_notable_hands(play, tables2[8])


def _demo_session_1(play: _DemoPlay, s1: Session) -> Registration:
    """Session 1: penalties as the day went, then every table entered and confirmed; the player with
    fouls."""
    tables1 = {t.number: t for t in s1.tables.all()}
    play.penalty(
        registration=play.seated(tables1[2], 1), kind="late_arrival", session=s1, table=tables1[2],
        minutes_late=7,
    )  # fmt: skip
    offender = play.seated(tables1[3], 2)
    for reason in ("took a tile out of turn", "touched the wall before the discard was called"):
        play.penalty(registration=offender, kind="foul", session=s1, table=tables1[3], reason=reason)
    for number, table in tables1.items():
        if number <= 3:
            play.hands(table, 16)
        else:
            play.totals(table)
    play.penalty(
        registration=play.seated(tables1[1], 3), kind="false_hu", session=s1, table=tables1[1],
        hand_number=5, variant="below_minimum",
    )  # fmt: skip
    for table in tables1.values():
        play.finish(table)
    return offender


def _demo_session_2(play: _DemoPlay, s2: Session, tables2: dict, offender: Registration) -> None:
    """Session 2: a late player replaced from the start by a substitute, a referee decision, a restarted
    foul count; tables in every state."""
    tournament = play.tournament
    late = play.seated(tables2[5], 0)
    play.penalty(registration=late, kind="late_arrival", session=s2, table=tables2[5], minutes_late=18)
    play.penalty(
        registration=late, kind="replaced", session=s2, table=tables2[5],
        substitute=Registration.objects.get(tournament=tournament, key="s1"), reason="late_arrival",
    )  # fmt: skip
    play.penalty(registration=offender, kind="foul", session=s2, reason="discarded before drawing")
    play.penalty(
        registration=play.seated(tables2[2], 1), kind="referee", actor=play.boss, session=s2,
        table=tables2[2], points=-15, reason="deliberate slow play after a warning",
    )  # fmt: skip
    for number in (1, 2):
        play.hands(tables2[number], 16)
        play.finish(tables2[number])
    play.hands(tables2[3], 7)  # still playing
    play.penalty(
        registration=play.seated(tables2[3], 2), kind="forgot_winning_tile", session=s2, table=tables2[3],
        hand_number=4,
    )  # fmt: skip
    for number in (4, 5, 6):
        play.totals(tables2[number])
        play.finish(tables2[number])
    play.totals(tables2[7])
    play.finish(tables2[7], confirm=False)  # submitted, waiting for a referee


def _demo_notable_hands(play: _DemoPlay, table) -> None:
    """Table 8 is still playing (tables 9 and 10 have not started); its scorer enters the tiles of each
    win, the product counts the fan, and the referee put the robbed kong in the register of notable hands."""
    tiles_mode_set(tournament=play.tournament, mode="optional")
    robbed = {
        "result": "win",
        "winner": 0,
        "discarder": 2,
        "tiles": {
            "hand": "234m567m99p",
            "melds": ["pung 7z", "chow 345s"],
            "winning_tile": "4m",
            "robbing_kong": True,
        },
    }
    all_pungs = {
        "result": "win",
        "winner": 1,
        "discarder": None,
        "tiles": {"hand": "111m999p55s", "melds": ["pung 777s", "pung 2z"], "winning_tile": "5s"},
    }
    for hand in (robbed, all_pungs):
        scoring.hand_add(table=table, hand=hand, actor=play.ref, expected_version=None)
    play.hands(table, 1)
    notable_hand_from_hand(
        hand=table.result.hands.get(number=1), title="Robbing the kong of the Red Dragon", user=play.referee
    )


# -- the riichi cup: EMA 2016 rules, seated by the engine, session 1 played hand by hand ----------------


def _riichi_hand(rng: random.Random, scores_known: bool = True) -> dict:
    """A plausible riichi hand in seat numbers: mostly wins on a discard or self-drawn, some draws."""
    roll = rng.random()
    riichi = sorted(rng.sample(range(4), rng.choice((0, 0, 1, 1, 2))))
    if roll < 0.15:
        tenpai = sorted(set(riichi) | set(rng.sample(range(4), rng.randrange(0, 3))))
        return {"result": "draw", "tenpai": tenpai, "riichi": riichi}
    han, fu = rng.choice(
        ((1, 30), (1, 40), (2, 30), (2, 40), (3, 30), (3, 40), (4, 30), (5, 30), (6, 30), (8, 30))
    )
    winner = rng.randrange(4)
    if roll < 0.45:
        return {"result": "tsumo", "winner": winner, "han": han, "fu": fu, "riichi": riichi}
    loser = rng.choice([s for s in range(4) if s != winner])
    return {
        "result": "ron",
        "loser": loser,
        "winners": [{"player": winner, "han": han, "fu": fu}],
        "riichi": riichi,
    }


def _riichi_game(rules, rng: random.Random, *, limit: int = 40) -> list[dict]:
    """Hands drawn at random, each kept only if the rules accept the game so far, until the game is over."""

    hands: list[dict] = []
    probe = {"result": "draw", "tenpai": [], "riichi": []}
    while len(hands) < limit:
        try:
            rules.play_game([*hands, probe])
        except RuleError:
            break  # no hand fits after the last one: the game is over
        candidate = _riichi_hand(rng)
        try:
            rules.play_game([*hands, candidate])
        except RuleError:
            continue
        hands.append(candidate)
    return hands


def _riichi_demo(open_tournament: Tournament, *, admin, director, referee, scorer, seed: int) -> Tournament:

    rng = random.Random(seed + 2)
    staff = {admin: Role.DIRECTOR, referee: Role.REFEREE, scorer: Role.SCORER}
    tournament = _demo_tournament(
        name="Demo Riichi Cup 2026", slug=RIICHI_SLUG, ruleset="ema-riichi-2016", days=1, director=director,
        staff=staff, first=dt.time(9, 30), offsets_hours=(0, 2, 4, 6),
    )  # fmt: skip
    key = 1
    for country, club, names in RIICHI_ROSTER:
        for first, last in names:
            player = services.player_create(first_name=first, last_name=last, country=country, club=club)
            services.registration_create(tournament=tournament, player=player, key=f"r{key}")
            key += 1
    for shared in SHARED_WITH_RIICHI:
        player = Registration.objects.get(tournament=open_tournament, key=shared).player
        services.registration_create(tournament=tournament, player=player, key=f"r{key}")
        key += 1
    # a team event: four teams of four, each a club's three players and one guest; the seating keeps
    # teammates apart and the standings rank the teams beside the players

    team_size_set(tournament=tournament, size=4)
    for index, (country, club, _names) in enumerate(RIICHI_ROSTER):
        members = [f"r{3 * index + n}" for n in (1, 2, 3)] + [f"r{13 + index}"]
        team_save(tournament=tournament, name=club, country=country, club=club, member_keys=members)
    _seat_demo(tournament)

    ref = Actor(user=referee, role=Role.REFEREE)
    rules = tournament.get_rules()
    s1, s2 = tournament.sessions.get(number=1), tournament.sessions.get(number=2)
    for table in s1.tables.order_by("number"):
        for hand in _riichi_game(rules, rng):
            scoring.hand_add(table=table, hand=hand, actor=ref, expected_version=None)
        scoring.result_submit(table=table, actor=ref, expected_version=None)
        scoring.result_confirm(table=table, actor=ref, expected_version=None)
    lifecycle.session_move(session=s1, to=Session.Status.FINISHED)
    lifecycle.session_move(session=s2, to=Session.Status.PLAYING)
    tables2 = list(s2.tables.order_by("number"))
    for table in tables2[:2]:
        for hand in _riichi_game(rules, rng):
            scoring.hand_add(table=table, hand=hand, actor=ref, expected_version=None)
        scoring.result_submit(table=table, actor=ref, expected_version=None)
        scoring.result_confirm(table=table, actor=ref, expected_version=None)
    # table 3 is still playing (table 4 has not started): its first hand was entered with its tiles, and
    # the product counted riichi, pinfu and tanyao from them (3 han 30 fu)
    winner = 1
    scoring.hand_add(
        table=tables2[2],
        hand={
            "result": "ron",
            "loser": 3,
            "winners": [{"player": winner, "tiles": {"hand": "234m567m234p678s55p", "winning_tile": "4p"}}],
            "riichi": [winner],
        },
        actor=ref,
        expected_version=None,
    )
    for hand in _riichi_game(rules, rng)[:4]:
        try:
            scoring.hand_add(table=tables2[2], hand=hand, actor=ref, expected_version=None)
        except RuleError:
            continue  # a hand drawn for another game may not fit after the one with tiles
    # a false ron: a chombo, entered as the table's next hand (the hand is replayed)
    scoring.hand_add(
        table=tables2[2], hand={"result": "chombo", "player": 1}, actor=ref, expected_version=None
    )
    penalty_record(
        tournament=tournament, registration=tables2[1].seats.get(position=2).registration, kind="referee",
        actor=ref, session=s2, table=tables2[1], points=-1000, reason="discards shown to the table by mistake",
    )  # fmt: skip
    return tournament
