"""The database itself refuses impossible seatings, whatever the form or API in front of it."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from tournaments.models import Player, Registration, Seat, Session, Table
from tournaments.services import session_seat

pytestmark = pytest.mark.django_db


def _regs(tournament):
    return list(Registration.objects.filter(tournament=tournament).order_by("id"))


def test_a_second_seat_in_the_same_session_is_refused_by_the_database(tournament):
    session = tournament.sessions.get(number=1)
    regs = _regs(tournament)
    session_seat(session=session, tables=[regs[0:4], regs[4:8]])
    other_table = Table.objects.get(session=session, number=2)
    with pytest.raises(IntegrityError), transaction.atomic():
        # regs[0] already sits at table 1 of this session; bypass every Python check.
        Seat.objects.bulk_create([Seat(table=other_table, session=session, position=0, registration=regs[0])])


def test_the_same_player_may_sit_in_two_different_sessions(tournament):
    regs = _regs(tournament)
    for number in (1, 2):
        session_seat(session=tournament.sessions.get(number=number), tables=[regs[0:4], regs[4:8]])
    assert Seat.objects.filter(registration=regs[0]).count() == 2


def test_two_players_cannot_share_a_wind_at_one_table(tournament):
    session = tournament.sessions.get(number=1)
    regs = _regs(tournament)
    table = Table.objects.create(session=session, number=1)
    Seat.objects.create(table=table, position=0, registration=regs[0])
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=table, position=0, registration=regs[1])


def test_a_wind_beyond_north_is_refused(tournament):
    session = tournament.sessions.get(number=1)
    table = Table.objects.create(session=session, number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=table, position=4, registration=_regs(tournament)[0])


def test_table_numbers_are_unique_within_a_session(tournament):
    session = tournament.sessions.get(number=1)
    Table.objects.create(session=session, number=3)
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.create(session=session, number=3)
    # ...but another session may have its own table 3.
    Table.objects.create(session=tournament.sessions.get(number=2), number=3)


def test_session_numbers_are_unique_within_a_tournament(tournament, make_tournament):
    with pytest.raises(IntegrityError), transaction.atomic():
        Session.objects.create(tournament=tournament, number=1)
    other = make_tournament(slug="other", players=0)
    assert other.sessions.filter(number=1).exists()


def test_ema_numbers_are_unique_and_keep_leading_zeros(db):
    Player.objects.create(first_name="Ana", ema_id="00012345")
    assert Player.objects.get(ema_id="00012345").ema_id == "00012345"
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(first_name="Eva", ema_id="00012345")


def test_an_ema_number_must_have_eight_digits(db):
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(first_name="Ana", ema_id="1234")
    with pytest.raises(ValidationError) as err:
        Player(first_name="Ana", ema_id="1234567a").full_clean()
    assert "ema_id" in err.value.message_dict


def test_players_without_ema_number_do_not_clash(db):
    Player.objects.create(first_name="Ana", ema_id=None)
    Player.objects.create(first_name="Eva", ema_id="")  # stored as no number
    assert Player.objects.filter(ema_id__isnull=True).count() == 2


def test_a_country_must_be_an_iso_alpha3_code(db):
    with pytest.raises(ValidationError) as err:
        Player(first_name="Ana", country="SPA").full_clean()
    assert "country" in err.value.message_dict
    Player(first_name="Ana", country="ESP").full_clean()


def test_a_table_of_three_is_refused_with_its_number(tournament):
    regs = _regs(tournament)
    with pytest.raises(ValidationError, match="Table 2 has 3 players"):
        session_seat(session=tournament.sessions.get(number=1), tables=[regs[0:4], regs[4:7]])
    assert not Table.objects.filter(session__tournament=tournament).exists()
