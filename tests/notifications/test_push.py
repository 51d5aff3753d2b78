"""Web Push end to end, with a push service of the tests' own: a phone subscribes through the page's
endpoint, events happen, and each message is decrypted with the phone's keys and its VAPID signature
checked against the public key; the push service's 410 removes the subscription, its 429 is tried again."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.test import TestCase
from django.urls import reverse
from django.utils import timezone

from notifications import events, jobs
from notifications.models import Subscription
from notifications.tasks import push_send
from penalties.services import penalty_record
from scoring import services as scoring
from scoring.calls import services as calls
from tests.notifications.pushserver import vapid_claims
from tests.scoring.test_referee_overview import publish, seat_all
from tournaments import deletion, lifecycle
from tournaments.clock import services as clock
from tournaments.models import Role, Seat, Session
from tournaments.permissions import Actor

pytestmark = pytest.mark.django_db

PLAYER = ["seat", "start", "clock", "result", "penalty", "rank", "announce"]


def commits():
    """The writes of the block are told as their commit would tell them (after it)."""
    return TestCase.captureOnCommitCallbacks(execute=True)


def subscribe(client, url, browser, topics, language="en"):
    return client.post(
        url,
        json.dumps(browser.subscription(topics)),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=language,
    )


def link_url(registration):
    return reverse("push-player-link", args=[registration.player.private_key, registration.tournament.slug])


@pytest.fixture
def p1(tournament):
    return tournament.registrations.get(key="p1")


def test_seating_published_tells_each_phone_its_seat_in_its_language(client, tournament, p1, phone, settings):
    es, en = phone(), phone()
    assert subscribe(client, link_url(p1), es, PLAYER, "es").status_code == 201
    p2 = tournament.registrations.get(key="p2")
    assert subscribe(client, link_url(p2), en, ["seat"], "en").status_code == 201
    seat_all(tournament)
    with commits():
        publish(tournament, 1)
    (message,) = es.messages()
    data = es.read(message)
    assert data["title"].startswith("Sesión 1: mesa 1, Este")
    assert "Player2 open-2026" in data["body"] and "Player1" not in data["body"]
    assert data["url"] == f"/me/{p1.player.private_key}/"
    assert message.headers["ttl"] == str(6 * 3600)
    assert message.headers["topic"] == "seat"
    claims = vapid_claims(message, settings.VAPID_PUBLIC_KEY)
    assert (
        claims["aud"] == f"http://127.0.0.1:{es.server.port}" and claims["sub"] == "mailto:tests@example.org"
    )
    (english,) = en.messages()
    assert en.read(english)["title"] == "Session 1: table 1, South"
    # published again unchanged: told once
    with commits():
        lifecycle.session_move(session=tournament.sessions.get(number=1), to=Session.Status.PLAYING)
    assert len(en.messages()) == 1
    started = [es.read(m) for m in es.messages()][1]
    assert started["title"] == "La sesión 1 ha comenzado" and started["tag"] == "start"


def test_a_410_removes_the_subscription_and_a_429_is_tried_again(client, tournament, p1, phone, push_server):
    a = phone()
    subscribe(client, link_url(p1), a, ["seat"])
    sub = Subscription.objects.get()
    rows = [[sub.pk, "announce", {"text": "Lunch at one"}, "/"]]
    push_server.answers.append(429)
    outcome = jobs.push_send(tournament_id=tournament.pk, rows=rows)
    assert outcome.retry == rows and Subscription.objects.filter(pk=sub.pk).exists()
    push_server.answers.append(410)
    assert push_send.apply(args=(tournament.pk, rows)).get() == 0
    assert not Subscription.objects.filter(pk=sub.pk).exists()


def test_a_batch_to_retry_goes_back_to_the_queue_with_backoff(monkeypatch, tournament):
    seen = {}
    outcome = jobs.Outcome(retry=[[1, "announce", {"text": "x"}, "/"]])
    monkeypatch.setattr(jobs, "push_send", lambda **kw: outcome)

    def retry(**kwargs):
        seen.update(kwargs)
        return RuntimeError("retry")

    monkeypatch.setattr(push_send, "retry", retry)
    push_send.push_request(is_eager=False, retries=2)
    try:
        with pytest.raises(RuntimeError):
            push_send.run(tournament.pk, [[1, "announce", {"text": "x"}, "/"]])
    finally:
        push_send.pop_request()
    assert seen == {"args": (tournament.pk, outcome.retry), "countdown": 40}


def test_bad_subscriptions_are_refused_naming_the_field(client, p1, phone, tournament):
    url = link_url(p1)
    good = phone().subscription(["seat"])
    cases = [
        ({**good, "endpoint": "https://evil.example.com/x"}, "endpoint"),
        ({**good, "endpoint": "http://fcm.googleapis.com/x"}, "endpoint"),
        ({**good, "keys": {**good["keys"], "p256dh": "not base64!"}}, "keys.p256dh"),
        ({**good, "keys": {**good["keys"], "auth": "AAAA"}}, "keys.auth"),
        ({**good, "topics": ["call"]}, "topics"),
        ({**good, "topics": []}, "topics"),
        ([1, 2], "subscription"),
    ]
    for body, field in cases:
        response = client.post(url, json.dumps(body), content_type="application/json")
        assert response.status_code == 400 and field in response.json(), (field, response.content)
    response = client.post(url, "x" * 5000, content_type="application/json")
    assert response.status_code == 400
    assert not Subscription.objects.exists()


def test_only_the_owner_lists_and_removes_a_phone(client, tournament, p1, phone, make_user):
    a = phone()
    subscribe(client, link_url(p1), a, ["seat", "rank"])
    listed = client.get(link_url(p1)).json()
    (row,) = listed["phones"]
    assert row["topics"] == ["rank", "seat"] and "endpoint" not in json.dumps(listed)
    assert a.endpoint not in json.dumps(listed)
    p2 = tournament.registrations.get(key="p2")
    other = reverse("push-player-link-delete", args=[p2.player.private_key, tournament.slug, row["id"]])
    assert client.post(other).status_code == 404
    assert client.get(link_url(p2)).json()["phones"] == []
    # a stranger's account cannot subscribe for p1 on the public page; the player's own account can
    stranger = make_user("stranger")
    client.force_login(stranger)
    account = reverse("push-player-account", args=[tournament.slug, "p1"])
    assert subscribe(client, account, phone(), ["seat"]).status_code == 403
    p1.player.user = stranger
    p1.player.save()
    assert subscribe(client, account, phone(), ["seat"]).status_code == 201
    # and staff topics need a staff role
    staff = reverse("push-staff", args=[tournament.slug])
    assert subscribe(client, staff, phone(), ["call"]).status_code == 403
    mine = reverse("push-player-link-delete", args=[p1.player.private_key, tournament.slug, row["id"]])
    assert client.get(mine).status_code == 405
    assert client.post(mine).json() == {"removed": 1}


def test_subscriptions_go_with_their_owner(client, tournament, p1, phone, referee):
    subscribe(client, link_url(p1), phone(), ["seat"])
    subscribe(client, link_url(tournament.registrations.get(key="p2")), phone(), ["seat"])
    tables = seat_all(tournament)
    subscribe(client, reverse("push-table-link", args=[tables[1].private_key]), phone(), ["clock"])
    client.force_login(referee)
    subscribe(client, reverse("push-staff", args=[tournament.slug]), phone(), ["call"])
    assert Subscription.objects.count() == 4
    referee.delete()  # the account
    assert Subscription.objects.count() == 3
    deletion.table_delete(table=tables[1])  # the table's link
    assert Subscription.objects.count() == 2
    deletion.registration_delete(registration=tournament.registrations.get(key="p8"))
    assert Subscription.objects.count() == 2
    Seat.objects.filter(registration=p1).delete()
    deletion.registration_delete(registration=p1)  # the player's link in this tournament
    assert list(Subscription.objects.values_list("registration__key", flat=True)) == ["p2"]


def test_penalty_result_and_rank_reach_the_player_and_never_while_hidden(
    client, tournament, p1, phone, referee, settings
):
    a, t = phone(), phone()
    subscribe(client, link_url(p1), a, ["penalty", "result", "rank"], "es")
    tables = seat_all(tournament)
    subscribe(client, reverse("push-table-link", args=[tables[0].private_key]), t, ["result"])
    publish(tournament, 1)
    ref = Actor(user=referee, role=Role.REFEREE)
    with commits():
        penalty_record(
            tournament=tournament,
            registration=p1,
            kind="referee",
            actor=ref,
            session=tournament.sessions.get(number=1),
            table=tables[0],
            points=-10,
            reason="Mostró sus fichas",
        )
    (penalty,) = [a.read(m) for m in a.messages()]
    assert penalty["body"] == "Motivo: Mostró sus fichas" and penalty["tag"] == "penalty"
    with commits():
        version = 1
        for hand in ({"result": "win", "winner": 0, "discarder": 2, "fan": 8}, {"result": "draw"}):
            version = scoring.hand_add(
                table=tables[0], hand=hand, actor=ref, expected_version=version
            ).version
        scoring.result_confirm(table=tables[0], actor=ref, expected_version=version, short_reason="Time")
    result = a.read(a.messages()[-1])
    assert result["tag"] == "result" and result["title"] == "Mesa 1: resultado confirmado"
    assert "22" in result["body"]  # +32 on the win, −10 of the penalty
    (table_msg,) = t.messages()
    assert t.read(table_msg)["url"] == f"/table/{tables[0].private_key}/"
    # the rank after session 1: not while the last session is hidden, then told
    session = tournament.sessions.get(number=1)
    tournament.settings = {**tournament.settings, "hide_last_sessions": 1}
    tournament.save()
    from tournaments.selectors import HIDE_SETTING

    tournament.settings = {HIDE_SETTING: 2}
    tournament.save()
    assert events.ranked(session, tournament) == []
    tournament.settings = {}
    tournament.save()
    items = events.ranked(session, tournament)
    assert [n.facts["session"] for _, n in items] == [1] and items[0][1].facts["count"] == 8


def test_announcements_and_staff_news(client, tournament, p1, phone, referee, director):
    a, ref_phone = phone(), phone()
    subscribe(client, link_url(p1), a, ["announce"])
    client.force_login(referee)
    subscribe(client, reverse("push-staff", args=[tournament.slug]), ref_phone, ["call", "held", "wait"])
    with commits():
        clock.announcement_add(tournament=tournament, user=director, text="Lunch at one")
    (message,) = a.messages()
    assert a.read(message)["body"] == "Lunch at one" and message.headers["topic"] == "announce"
    tables = seat_all(tournament)
    publish(tournament, 1)
    with commits():
        calls.call_create(table=tables[1], actor=Actor(role="table", table_id=tables[1].pk), reason="dispute")
    (call,) = ref_phone.messages()
    data = ref_phone.read(call)
    assert data["title"] == "Table 2 calls a referee" and data["body"] == "A dispute"
    assert data["url"].startswith(f"/t/{tournament.slug}/calls/")
    assert call.headers["urgency"] == "high"
    # a table submitted longer ago than the director's setting: told once by the sweep
    ref = Actor(user=referee, role=Role.REFEREE)
    result = scoring.hand_add(table=tables[0], hand={"result": "draw"}, actor=ref, expected_version=1)
    scoring.result_submit(table=tables[0], actor=ref, expected_version=result.version)
    from scoring.models import TableResult

    TableResult.objects.filter(table=tables[0]).update(submitted_at=timezone.now() - dt.timedelta(minutes=11))
    found = jobs.push_sweep()
    assert [(n.topic, n.facts["table"]) for _, items in found for _, n in items] == [("wait", 1)]
    assert jobs.push_sweep() == []


def test_the_clock_tells_the_signal_and_the_end_and_a_stale_schedule_tells_nothing(
    client, tournament, phone, referee
):
    tables = seat_all(tournament)
    publish(tournament, 1)
    t = phone()
    subscribe(client, reverse("push-table-link", args=[tables[0].private_key]), t, ["clock"])
    session = tournament.sessions.get(number=1)
    clock.clock_act(tournament=tournament, user=referee, action="start")
    clock.clock_act(tournament=tournament, user=referee, action="extend", seconds=300, table=1)
    version, moments = events.clock_moments(session)
    by_table = {(phase, tuple(numbers)): when for when, phase, numbers in moments}
    end1, end2 = by_table[("end", (1,))], by_table[("end", (2,))]
    assert end1 - end2 == dt.timedelta(seconds=300)  # table 1's extra time
    assert events.clock_due(session, version - 1, end1, late=jobs.CLOCK_LATE) == []  # stale
    items = events.clock_due(session, version, end1, late=jobs.CLOCK_LATE)
    assert [(n.facts["table"], n.facts["phase"]) for _, n in items] == [(1, "end")]
    assert events.clock_due(session, version, end1, late=jobs.CLOCK_LATE) == []  # told once


def test_a_held_hand_tells_the_referees_who_chose_it(client, tournament, phone, referee, scorer, api_as):
    from tests.scoring.test_referee_overview import MCR_TILES, hand

    tables = seat_all(tournament)
    publish(tournament, 1)
    mine, other = phone(), phone()
    client.force_login(referee)
    subscribe(client, reverse("push-staff", args=[tournament.slug]), mine, ["held"], "es")
    with commits():
        hand(api_as(scorer), tables[0], 1, result="win", winner="p1", discarder="p3", fan=16, tiles=MCR_TILES)
    (message,) = mine.messages()
    data = mine.read(message)
    assert data["title"] == "Mesa 1: la mano 1 está retenida"
    assert data["url"] == f"/t/{tournament.slug}/s/1/table/1/"
    assert other.messages() == []


def test_a_phone_is_told_only_while_its_account_still_may_know(
    client, tournament, p1, phone, referee, make_user
):
    from tournaments.models import TournamentRole

    staff_phone = phone()
    client.force_login(referee)
    subscribe(client, reverse("push-staff", args=[tournament.slug]), staff_phone, ["call"])
    user = make_user("p1-account")
    p1.player.user = user
    p1.player.save()
    client.force_login(user)
    subscribe(client, reverse("push-player-account", args=[tournament.slug, "p1"]), phone(), ["announce"])
    assert len(events.subscribers(tournament.pk, "call")) == 1
    assert len(events.subscribers(tournament.pk, "announce")) == 1
    TournamentRole.objects.filter(user=referee).delete()  # no longer a referee here
    p1.player.user = None  # the player's record no longer names the account
    p1.player.save()
    assert events.subscribers(tournament.pk, "call") == []
    assert events.subscribers(tournament.pk, "announce") == []


def test_a_clock_change_schedules_its_messages_and_an_old_schedule_sends_nothing(
    client, tournament, phone, referee, monkeypatch
):
    tables = seat_all(tournament)
    publish(tournament, 1)
    t = phone()
    subscribe(client, reverse("push-table-link", args=[tables[0].private_key]), t, ["clock"], "es")
    scheduled = []
    monkeypatch.setattr(jobs, "later", lambda when, run: scheduled.append((when, run)))
    with commits():
        clock.clock_act(tournament=tournament, user=referee, action="start")
    first = sorted(scheduled, key=lambda item: item[0])
    session = tournament.sessions.get(number=1)
    _, moments = events.clock_moments(session)
    assert [when for when, _ in first] == sorted({when for when, _, _ in moments})
    signal_at, run_signal = first[0]
    end_at, run_end = first[-1]
    # the signal's task runs at its time: the table's phone is told
    monkeypatch.setattr(jobs.timezone, "now", lambda: signal_at)
    run_signal()
    (message,) = t.messages()
    data = t.read(message)
    assert data["title"] == "Mesa 1: la señal" and data["body"] == "Quedan 15 minutos en su mesa."
    assert message.headers["ttl"] == "600" and message.headers["topic"] == "clock"
    # five more minutes for table 1: the end first scheduled is stale and sends nothing
    scheduled.clear()
    with commits():
        clock.clock_act(tournament=tournament, user=referee, action="extend", seconds=300, table=1)
    monkeypatch.setattr(jobs.timezone, "now", lambda: end_at)
    run_end()
    assert len(t.messages()) == 1
    new_end = max(when for when, _ in scheduled)
    assert new_end - end_at == dt.timedelta(seconds=300)
    monkeypatch.setattr(jobs.timezone, "now", lambda: new_end)
    for when, run in scheduled:
        if when == new_end:
            run()
    assert t.read(t.messages()[-1])["title"] == "Mesa 1: se acabó el tiempo"


def test_an_ordinary_hand_queues_no_push_and_a_held_hand_or_a_call_does(
    tournament, scorer, api_as, monkeypatch
):
    """Hands entered at a table tell nobody: no push job is queued for them (a busy day enters thousands),
    only for a table that asks for a referee: a hand held for a ruling, a referee call."""
    from notifications import receivers
    from tests.scoring.test_referee_overview import MCR_TILES, hand

    queued = []
    monkeypatch.setattr(receivers, "dispatch", lambda name, args: queued.append(args))
    tables = seat_all(tournament)
    publish(tournament, 1)
    with commits():
        hand(api_as(scorer), tables[0], 1, result="draw")
    assert queued == []
    with commits():
        hand(api_as(scorer), tables[0], 2, result="win", winner="p1", discarder="p3", fan=16, tiles=MCR_TILES)
    assert [(what, list(t)) for _, what, _, t in queued] == [(["attention"], [tables[0].pk])]
    queued.clear()
    with commits():
        calls.call_create(table=tables[1], actor=Actor(role="table", table_id=tables[1].pk), reason="dispute")
    assert [(what, list(t)) for _, what, _, t in queued] == [(["attention"], [tables[1].pk])]
