"""A table calls a referee, as the phones would, through the real pages and API: the call reaches the queue
of both referees on duty, one says "on my way" from his phone, the table's phone names him, he records a
penalty from the call, the penalty resolves the call, and the director's dashboard and the observer's report
show it with the table's waits. Both referees chose, on their phones, to be told when a table calls: the
call reaches each phone by Web Push, in its language (the push service is the tests' own, which decrypts
what it receives, tests/notifications/pushserver.py).

The call's clock is the services' (``scoring.calls.services.timezone``): the journey sets it so that the
waits the report gives are known figures, worked out here."""

from __future__ import annotations

import datetime as dt
import json
import re
import types
import uuid

import pytest
from django.test import Client, TestCase
from django.urls import reverse
from django.utils import timezone

from penalties.models import Penalty
from scoring.calls import services as call_services
from scoring.models import RefereeCall
from tests.notifications.conftest import phone, push_server  # noqa: F401 (the push service's fixtures)
from tests.scoring.test_referee_overview import publish, seat_all
from tournaments import services as tournament_services
from tournaments.models import Role

pytestmark = pytest.mark.django_db

ES = {"Accept-Language": "es"}


class CallClock:
    """The calls' clock: starts ten minutes ago, moved forward by the journey."""

    def __init__(self):
        self.at = timezone.now() - dt.timedelta(minutes=10)

    def now(self):
        return self.at

    def forward(self, **delta):
        self.at += dt.timedelta(**delta)


@pytest.fixture
def clock(monkeypatch):
    clock = CallClock()
    monkeypatch.setattr(call_services, "timezone", types.SimpleNamespace(now=clock.now))
    return clock


def plain(response) -> str:
    html = response.content.decode()
    html = re.sub(r"<script.*?</script>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def phone_of(user) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def key() -> str:
    return uuid.uuid4().hex


@pytest.fixture
def duty(make_user, tournament):
    """The two referees on duty, each with his phone."""
    ana = make_user("ana", first_name="Ana", last_name="Ruiz")
    bruno = make_user("bruno", first_name="Bruno", last_name="Keller")
    for user in (ana, bruno):
        tournament_services.role_grant(tournament=tournament, user=user, role=Role.REFEREE)
    return phone_of(ana), phone_of(bruno)


def test_a_table_calls_two_referees_one_comes_records_a_penalty_and_the_call_is_on_record(
    tournament,
    director,
    duty,
    clock,
    phone,  # noqa: F811
):
    tables = seat_all(tournament)
    publish(tournament, 1)
    table = tables[1]  # table 2
    ana, bruno = duty
    # each referee asks, from his own phone, to be told when a table calls (Ana in English, Bruno in Spanish)
    ana_push, bruno_push = phone(), phone()
    for referee_phone, push, language in ((ana, ana_push, "en"), (bruno, bruno_push, "es")):
        chosen = referee_phone.post(
            reverse("push-staff", args=[tournament.slug]),
            json.dumps(push.subscription(["call"])),
            content_type="application/json",
            HTTP_ACCEPT_LANGUAGE=language,
        )
        assert chosen.status_code in (200, 201), chosen.content
    overview = reverse("clock-tables", args=[tournament.slug, 1])
    referees_tables = reverse("session-tables", args=[tournament.slug, 1])
    for phone in (ana, bruno):
        assert 'id="referee-calls"' not in phone.get(overview).content.decode()

    # the table's phone (its private link, no account) calls a referee: a wrong claim
    table_phone = Client()
    page = reverse("table-link", args=[table.private_key])
    call_url = reverse("table-link-call", args=[table.private_key])
    assert "Call a referee" in plain(table_phone.get(page))
    sent = {"reason": "wrong_claim", "idempotency_key": key()}
    with TestCase.captureOnCommitCallbacks(execute=True):  # each write is told after its commit
        made = table_phone.post(call_url, sent)
        assert made.status_code == 302
        # the phone sends its kept call again when the connection comes back: still one call
        assert table_phone.post(call_url, sent).status_code == 302
        # and a second call, from the page or the API, answers with the open one: the queue is not flooded
        table_phone.post(call_url, {"reason": "foul", "idempotency_key": key()})
        api = table_phone.post(
            f"/api/tables/{table.pk}/referee-call/",
            {"reason": "question"},
            content_type="application/json",
            headers={"X-Table-Key": table.private_key},
        )
    assert api.status_code == 200 and api.json()["reason"] == "wrong_claim"
    call = RefereeCall.objects.get(table=table)
    assert (call.status, call.reason) == ("open", "wrong_claim")
    shown = plain(table_phone.get(page))
    assert "A referee has been called." in shown and "A wrong claim" in shown

    # both referees' phones are told once, each in its language, with the call's page to open
    call_page = reverse("referee-call", args=[tournament.slug, call.pk])
    (to_ana,), (to_bruno,) = ana_push.messages(), bruno_push.messages()
    told_ana, told_bruno = ana_push.read(to_ana), bruno_push.read(to_bruno)
    assert (told_ana["title"], told_ana["body"], told_ana["url"]) == (
        "Table 2 calls a referee",
        "A wrong claim",
        call_page,
    )
    assert told_bruno["title"] == "La mesa 2 llama a un árbitro" and told_bruno["url"] == call_page
    assert to_ana.headers["topic"] == "call" and to_ana.headers["urgency"] == "high"

    # both referees see it first on their pages, with the link to answer it
    for phone in (ana, bruno):
        for url in (overview, referees_tables):
            html = phone.get(url).content.decode()
            box = html.split('id="referee-calls"', 1)[1].split("</article>", 1)[0]
            assert "1 table calls a referee" in box and "Table 2" in box and "A wrong claim" in box
            assert call_page in box
        assert 'data-call-table="2"' in phone.get(overview).content.decode()  # flagged on the table map

    # Ana says "on my way" from her phone, two and a half minutes after the call
    clock.forward(minutes=2, seconds=30)
    assert ana.post(call_page, {"action": "acknowledge", "idempotency_key": key()}).status_code == 302
    assert "The table sees that you are on your way." in plain(ana.get(call_page))
    # the table's phone names her, on the page and in the part its script asks for again
    assert "On my way: Ana Ruiz" in plain(table_phone.get(page))
    assert 'data-call-state="acknowledged"' in table_phone.get(call_url).content.decode()
    # Bruno sees who went
    assert "On my way: Ana Ruiz" in plain(bruno.get(overview))

    # she records a penalty from the call: a false Hu by the player at North
    html = ana.get(call_page).content.decode()
    kind_link = re.search(r'href="([^"]*/penalty/false_hu/\?call=\d+)"', html).group(1).replace("&amp;", "&")
    form = ana.get(kind_link)
    assert form.status_code == 200 and "For the call of table 2" in plain(form)
    north = table.seats.get(position=3).registration
    clock.forward(minutes=4, seconds=30)
    recorded = ana.post(
        kind_link,
        {
            "kind": "false_hu",
            "player": north.key,
            "hand_number": 1,
            "variant": "invalid_hand",
            "idempotency_key": key(),
        },
    )
    assert recorded.status_code == 302
    penalty = Penalty.objects.get(table=table)
    assert recorded["Location"] == f"{call_page}?penalty={penalty.pk}"
    # back on the call, the penalty is the one chosen; it resolves the call
    back = ana.get(recorded["Location"]).content.decode()
    assert f'<option value="{penalty.pk}" selected>' in back
    resolved = ana.post(call_page, {"action": "resolve", "penalty": penalty.pk, "idempotency_key": key()})
    assert resolved.status_code == 302
    call.refresh_from_db()
    assert (call.status, call.penalty_id, call.acknowledged_name, call.resolved_name) == (
        "resolved",
        penalty.pk,
        "Ana Ruiz",
        "Ana Ruiz",
    )
    assert "Penalty recorded: False Hu" in plain(ana.get(call_page))

    # the table's phone shows how it ended, and may call again
    shown = plain(table_phone.get(page))
    assert "Call resolved." in shown and "By Ana Ruiz" in shown and "A penalty was recorded." in shown
    assert 'id="referee-call-form"' in table_phone.get(page).content.decode()
    # the queues are empty again
    for phone in (ana, bruno):
        assert 'id="referee-calls"' not in phone.get(overview).content.decode()

    # the director's dashboard and the observer's report: waited 2 min 30 s, resolved after 7 min
    desk = phone_of(director)
    dashboard = plain(desk.get(reverse("director-dashboard", args=[tournament.slug])))
    box = dashboard.split("Calls of a referee", 1)[1]
    assert "1 call(s) of a referee from the tables, 1 resolved." in box
    assert "Table 2, session 1 · A wrong claim" in box
    assert "waited 2 min 30 s for Ana Ruiz · resolved after 7 min 00 s by Ana Ruiz" in box
    assert "Penalty recorded: False Hu" in box
    report = plain(desk.get(reverse("ema-submission-report", kwargs={"slug": tournament.slug})))
    assert (
        "1 call(s) of a referee from the tables, 1 resolved. Waiting for a referee: 2 min 30 s on average, "
        "2 min 30 s at most. Until resolved: 7 min 00 s on average, 7 min 00 s at most."
    ) in report
    body = desk.get(f"/api/tournaments/{tournament.slug}/ema-submission/report/").json()["referee_calls"]
    assert (body["calls"], body["longest_wait_acknowledged"], body["longest_wait_resolved"]) == (1, 150, 420)
    # the table's history keeps the call with its times
    history = plain(ana.get(reverse("table-page", args=[tournament.slug, 1, 2])))
    assert "Referee called" in history and "A referee is on the way" in history

    # in Spanish, the director reads the same
    spanish = plain(desk.get(reverse("director-dashboard", args=[tournament.slug]), headers=ES))
    assert "Llamadas a un árbitro" in spanish and "esperó 2 min 30 s a Ana Ruiz" in spanish
