"""A table calls a referee: one open call per table, a referee on the way, the call resolved with a note, a
penalty recorded at the table or a corrected hand; who may do what, and nothing across tournaments."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from penalties.services import penalty_record
from scoring import services as scoring
from scoring.calls import selectors as call_selectors
from scoring.calls import services as calls
from scoring.models import RefereeCall
from scoring.rules.base import RuleError
from tests.scoring.test_referee_overview import publish, seat_all
from tournaments import services as tournament_services
from tournaments.models import Role
from tournaments.permissions import Actor

pytestmark = pytest.mark.django_db


@pytest.fixture
def tables(tournament):
    tables = seat_all(tournament)
    publish(tournament, 1)
    return tables


@pytest.fixture
def table(tables):
    return tables[0]


def link(table):
    return Actor(role="table", table_id=table.pk)


@pytest.fixture
def ref(referee):
    return Actor(user=referee, role=Role.REFEREE)


def test_a_table_calls_and_a_second_call_answers_with_the_open_one(table, ref):
    call, created = calls.call_create(table=table, actor=link(table), reason="dispute")
    assert created and call.status == "open" and call.called_at is not None
    again, created_again = calls.call_create(table=table, actor=link(table), reason="question")
    assert not created_again and again.pk == call.pk and again.reason == "dispute"
    assert RefereeCall.objects.filter(table=table).count() == 1
    # once acknowledged it is still the open call
    calls.call_acknowledge(call=call, actor=ref)
    third, created_third = calls.call_create(table=table, actor=link(table), reason="foul")
    assert not created_third and third.pk == call.pk
    # resolved, the table may call again
    calls.call_resolve(call=call, actor=ref, note="Discard was legal.")
    fresh, created_fresh = calls.call_create(table=table, actor=link(table), reason="foul")
    assert created_fresh and fresh.pk != call.pk


def test_acknowledge_names_the_referee_and_resolve_keeps_the_times(table, ref, referee):
    referee.first_name, referee.last_name = "Ana", "Ruiz"
    referee.save()
    call, _ = calls.call_create(table=table, actor=link(table), reason="wrong_claim")
    call = calls.call_acknowledge(call=call, actor=ref)
    assert call.status == "acknowledged" and call.acknowledged_name == "Ana Ruiz"
    assert call.acknowledged_at >= call.called_at
    call = calls.call_resolve(call=call, actor=ref, note="Claim withdrawn.")
    assert call.status == "resolved" and call.resolved_at >= call.acknowledged_at
    assert call.note == "Claim withdrawn." and call.resolved_name == "Ana Ruiz"
    # the history keeps every step
    assert [h.status for h in call.history.order_by("history_id")] == ["open", "acknowledged", "resolved"]
    with pytest.raises(RuleError) as refused:
        calls.call_resolve(call=call, actor=ref, note="again")
    assert refused.value.path == "status"


def test_resolving_needs_a_note_a_penalty_or_a_hand(table, ref):
    call, _ = calls.call_create(table=table, actor=link(table), reason="foul")
    with pytest.raises(RuleError) as refused:
        calls.call_resolve(call=call, actor=ref, note="  ")
    assert refused.value.path == "note"
    with pytest.raises(RuleError) as refused:
        calls.call_resolve(call=call, actor=ref, hand_number=3)
    assert refused.value.path == "hand_number"  # the table has no hand 3
    assert RefereeCall.objects.get(pk=call.pk).status == "open"


def test_a_penalty_recorded_at_the_table_since_the_call_resolves_it(tournament, tables, table, ref):
    call, _ = calls.call_create(table=table, actor=link(table), reason="foul")
    calls.call_acknowledge(call=call, actor=ref)
    player = table.seats.order_by("position").first().registration
    elsewhere = tables[1].seats.order_by("position").first().registration
    other = penalty_record(
        tournament=tournament,
        registration=elsewhere,
        kind="referee",
        actor=ref,
        session=table.session,
        table=tables[1],
        points=-5,
        reason="slow play",
    )
    with pytest.raises(RuleError) as refused:
        calls.call_resolve(call=call, actor=ref, penalty_id=other.pk)
    assert refused.value.path == "penalty"  # not at this table
    penalty = penalty_record(
        tournament=tournament,
        registration=player,
        kind="referee",
        actor=ref,
        session=table.session,
        table=table,
        points=-10,
        reason="showed tiles",
    )
    assert [p.pk for p in calls.linkable_penalties(call=call)] == [penalty.pk]
    call = calls.call_resolve(call=call, actor=ref, penalty_id=penalty.pk)
    assert call.penalty == penalty and call.status == "resolved"


def test_a_corrected_hand_resolves_it(table, ref):
    scoring.hand_add(table=table, hand={"result": "draw"}, actor=ref, expected_version=None)
    call, _ = calls.call_create(table=table, actor=link(table), reason="dispute")
    call = calls.call_resolve(call=call, actor=ref, hand_number=1, note="Hand 1 was a draw.")
    assert call.hand_number == 1 and call.status == "resolved"


def test_who_may_call_and_who_may_answer(tournament, tables, table, scorer, referee, director, make_user):
    # another table's link calls for its own table only
    with pytest.raises(PermissionDenied):
        calls.call_create(table=table, actor=link(tables[1]), reason="question")
    # a scorer of the tournament may call; a scorer may not acknowledge nor resolve
    call, _ = calls.call_create(table=table, actor=Actor(user=scorer, role=Role.SCORER), reason="question")
    with pytest.raises(PermissionDenied):
        calls.call_acknowledge(call=call, actor=Actor(user=scorer, role=Role.SCORER))
    with pytest.raises(PermissionDenied):
        calls.call_resolve(call=call, actor=link(table), note="done")
    # an actor claiming a role it has not got in this tournament is refused
    stranger = make_user("stranger")
    with pytest.raises(PermissionDenied):
        calls.call_acknowledge(call=call, actor=Actor(user=stranger, role=Role.REFEREE))
    # the director answers
    calls.call_acknowledge(call=call, actor=Actor(user=director, role=Role.DIRECTOR))
    assert RefereeCall.objects.get(pk=call.pk).acknowledged_by == director


def test_nothing_crosses_tournaments(make_tournament, make_user, tables, table, client):
    other_director = make_user("other-director")
    other = make_tournament("other-2026", director=other_director)
    other_referee = make_user("other-referee")
    tournament_services.role_grant(tournament=other, user=other_referee, role=Role.REFEREE)
    call, _ = calls.call_create(table=table, actor=link(table), reason="dispute")
    with pytest.raises(PermissionDenied):
        calls.call_acknowledge(call=call, actor=Actor(user=other_referee, role=Role.REFEREE))
    # the referee of another tournament cannot open the call's page, under either tournament's address
    client.force_login(other_referee)
    assert (
        client.get(reverse("referee-call", args=[table.session.tournament.slug, call.pk])).status_code == 403
    )
    assert client.get(reverse("referee-call", args=[other.slug, call.pk])).status_code == 404
    assert RefereeCall.objects.get(pk=call.pk).status == "open"


def test_a_reason_outside_the_list_is_refused(table):
    with pytest.raises(RuleError) as refused:
        calls.call_create(table=table, actor=link(table), reason="lunch")
    assert refused.value.path == "reason"
    assert not RefereeCall.objects.exists()


def test_the_queue_puts_open_calls_first(tables, ref):
    first, _ = calls.call_create(table=tables[0], actor=link(tables[0]), reason="dispute")
    second, _ = calls.call_create(table=tables[1], actor=link(tables[1]), reason="foul")
    calls.call_acknowledge(call=first, actor=ref)
    queue = call_selectors.session_queue(session=tables[0].session)
    assert [c.pk for c in queue] == [second.pk, first.pk]


def test_the_call_figures_count_the_calls_and_the_waits(tournament, tables, ref):
    import datetime as dt

    call, _ = calls.call_create(table=tables[0], actor=link(tables[0]), reason="dispute")
    calls.call_acknowledge(call=call, actor=ref)
    calls.call_resolve(call=call, actor=ref, note="settled")
    calls.call_create(table=tables[1], actor=link(tables[1]), reason="question")
    # the times as the service stored them, moved to known waits: 60 s to the referee, 300 s to the end
    base = call.called_at
    RefereeCall.objects.filter(pk=call.pk).update(
        acknowledged_at=base + dt.timedelta(seconds=60), resolved_at=base + dt.timedelta(seconds=300)
    )
    figures = call_selectors.call_figures(tournament=tournament)
    assert figures.calls == 2 and figures.resolved == 1
    assert figures.average_wait_acknowledged == 60 and figures.longest_wait_resolved == 300


# -- pages -------------------------------------------------------------------------------------------------


def test_the_table_page_calls_and_the_referees_see_the_call(client, tournament, table, referee):
    page = reverse("table-link", args=[table.private_key])
    html = client.get(page).content.decode()
    assert 'id="referee-call-form"' in html and "Call a referee" in html
    posted = client.post(reverse("table-link-call", args=[table.private_key]), {"reason": "wrong_claim"})
    assert posted.status_code == 302 and posted["Location"].startswith(page)
    html = client.get(page).content.decode()
    assert "A referee has been called." in html and "A wrong claim" in html
    assert 'id="referee-call-form"' not in html  # no second call while this one is open
    # calling again answers with the open call
    client.post(reverse("table-link-call", args=[table.private_key]), {"reason": "foul"})
    assert RefereeCall.objects.filter(table=table).count() == 1
    # the referees' overview lists it first, and the table map flags its table
    client.force_login(referee)
    overview = client.get(reverse("clock-tables", args=[tournament.slug, 1])).content.decode()
    box = overview.split('id="referee-calls"', 1)[1].split("</article>", 1)[0]
    assert "1 table calls a referee" in box and "Table 1" in box and "A wrong claim" in box
    assert overview.index('id="referee-calls"') < overview.find('id="table-1"')
    assert 'class="badge bad call-badge" data-call-table="1"' in overview
    call = RefereeCall.objects.get(table=table)
    referee_page = reverse("referee-call", args=[tournament.slug, call.pk])
    assert referee_page in box
    # on my way, then resolved
    assert client.post(referee_page, {"action": "acknowledge"}).status_code == 302
    client.logout()
    section = client.get(reverse("table-link-call", args=[table.private_key])).content.decode()
    assert "On my way: referee" in section and 'data-call-state="acknowledged"' in section
    client.force_login(referee)
    refused = client.post(referee_page, {"action": "resolve", "note": ""})
    assert refused.status_code == 400 and "needs a note" in refused.content.decode()
    done = client.post(referee_page, {"action": "resolve", "note": "Claim withdrawn."})
    assert done.status_code == 302
    client.logout()
    html = client.get(page).content.decode()
    assert "Call resolved." in html and "Claim withdrawn." in html and 'id="referee-call-form"' in html


def test_the_call_pages_in_spanish(client, tournament, table, referee):
    client.post(reverse("table-link-call", args=[table.private_key]), {"reason": "dispute"})
    html = client.get(reverse("table-link", args=[table.private_key]), headers={"Accept-Language": "es"})
    text = html.content.decode()
    assert "Se ha llamado a un árbitro." in text and "Una disputa" in text
    client.force_login(referee)
    call = RefereeCall.objects.get(table=table)
    text = client.get(
        reverse("referee-call", args=[tournament.slug, call.pk]), headers={"Accept-Language": "es"}
    ).content.decode()
    assert "Voy para allá" in text and "Resolver la llamada" in text


def test_a_referee_elsewhere_cannot_answer_from_a_scorer_account(client, table, scorer):
    call, _ = calls.call_create(table=table, actor=link(table), reason="dispute")
    client.force_login(scorer)
    page = reverse("referee-call", args=[table.session.tournament.slug, call.pk])
    assert client.post(page, {"action": "acknowledge"}).status_code == 403
    assert RefereeCall.objects.get(pk=call.pk).status == "open"


# -- API ---------------------------------------------------------------------------------------------------


def test_the_api_calls_lists_acknowledges_and_resolves(api, api_as, tournament, table, referee, scorer):
    url = f"/api/tables/{table.pk}/referee-call/"
    assert api.get(url, headers={"X-Table-Key": table.private_key}).status_code == 204
    made = api.post(url, {"reason": "foul"}, format="json", headers={"X-Table-Key": table.private_key})
    assert made.status_code == 201 and made.json()["status"] == "open" and made.json()["table"] == 1
    again = api.post(url, {"reason": "question"}, format="json", headers={"X-Table-Key": table.private_key})
    assert again.status_code == 200 and again.json()["id"] == made.json()["id"]
    bad = api.post(url, {"reason": "lunch"}, format="json", headers={"X-Table-Key": table.private_key})
    assert bad.status_code == 400 and "reason" in bad.content.decode()
    assert (
        api.post(url, {"reason": "foul"}, format="json", headers={"X-Table-Key": "nope"}).status_code == 403
    )
    listing = f"/api/tournaments/{tournament.slug}/referee-calls/"
    assert api_as(scorer).get(listing).status_code == 403
    rows = api_as(referee).get(listing, {"status": "waiting"}).json()
    assert [r["id"] for r in rows] == [made.json()["id"]]
    assert api_as(referee).get(listing, {"status": "sleeping"}).status_code == 400
    call_id = made.json()["id"]
    assert api_as(scorer).post(f"{listing}{call_id}/acknowledge/").status_code == 403
    acked = api_as(referee).post(f"{listing}{call_id}/acknowledge/")
    assert acked.status_code == 200 and acked.json()["acknowledged_by"] == "referee"
    shown = api.get(url, headers={"X-Table-Key": table.private_key}).json()
    assert shown["status"] == "acknowledged"
    empty = api_as(referee).post(f"{listing}{call_id}/resolve/", {}, format="json")
    assert empty.status_code == 400 and "note" in empty.content.decode()
    done = api_as(referee).post(f"{listing}{call_id}/resolve/", {"note": "Settled."}, format="json")
    assert (
        done.status_code == 200 and done.json()["status"] == "resolved" and done.json()["note"] == "Settled."
    )


def test_the_api_keeps_each_tournament_to_itself(api_as, make_tournament, make_user, table):
    other = make_tournament("other-2026", director=make_user("other-director"))
    outsider = make_user("other-referee")
    tournament_services.role_grant(tournament=other, user=outsider, role=Role.REFEREE)
    call, _ = calls.call_create(table=table, actor=link(table), reason="dispute")
    client = api_as(outsider)
    assert client.get(f"/api/tournaments/{other.slug}/referee-calls/").json() == []
    assert (
        client.post(f"/api/tournaments/{other.slug}/referee-calls/{call.pk}/acknowledge/").status_code == 404
    )
    mine = f"/api/tournaments/{table.session.tournament.slug}/referee-calls/{call.pk}/acknowledge/"
    assert client.post(mine).status_code == 403
    assert (
        client.post(f"/api/tables/{table.pk}/referee-call/", {"reason": "foul"}, format="json").status_code
        == 403
    )


def test_the_schema_documents_the_calls(api):
    schema = api.get("/api/schema/", {"format": "json"}).json()
    paths = schema["paths"]
    assert "post" in paths["/api/tables/{table_pk}/referee-call/"]
    assert "/api/tournaments/{tournament_slug}/referee-calls/{id}/resolve/" in paths


# -- the observer's report -------------------------------------------------------------------------------


def test_the_observer_report_counts_the_calls_and_the_waits(
    client, api_as, tournament, tables, ref, director
):
    import datetime as dt

    url = reverse("ema-submission-report", kwargs={"slug": tournament.slug})
    client.force_login(director)
    assert "No table called a referee" in client.get(url).content.decode()
    first, _ = calls.call_create(table=tables[0], actor=link(tables[0]), reason="dispute")
    calls.call_acknowledge(call=first, actor=ref)
    calls.call_resolve(call=first, actor=ref, note="settled")
    second, _ = calls.call_create(table=tables[1], actor=link(tables[1]), reason="question")
    calls.call_acknowledge(call=second, actor=ref)
    # known waits: 60 s and 180 s until a referee came, 300 s until the first was resolved
    base = first.called_at
    RefereeCall.objects.filter(pk=first.pk).update(
        acknowledged_at=base + dt.timedelta(seconds=60), resolved_at=base + dt.timedelta(seconds=300)
    )
    RefereeCall.objects.filter(pk=second.pk).update(
        called_at=base, acknowledged_at=base + dt.timedelta(seconds=180)
    )
    html = client.get(url).content.decode()
    box = html.split('id="report-calls">', 1)[1].split("</dd>", 1)[0]
    assert "2 call(s) of a referee from the tables, 1 resolved." in box
    assert "Waiting for a referee: 2 min 00 s on average, 3 min 00 s at most." in box
    assert "Until resolved: 5 min 00 s on average, 5 min 00 s at most." in box
    spanish = client.get(url, headers={"Accept-Language": "es"}).content.decode()
    assert "2 llamada(s) a un árbitro desde las mesas" in spanish
    body = api_as(director).get(f"/api/tournaments/{tournament.slug}/ema-submission/report/").json()
    assert body["referee_calls"]["calls"] == 2 and body["referee_calls"]["longest_wait_acknowledged"] == 180


def test_the_director_dashboard_shows_the_open_calls(client, tournament, tables, ref, director):
    first, _ = calls.call_create(table=tables[0], actor=link(tables[0]), reason="foul")
    calls.call_create(table=tables[1], actor=link(tables[1]), reason="question")
    calls.call_acknowledge(call=first, actor=ref)
    client.force_login(director)
    html = client.get(reverse("director-dashboard", args=[tournament.slug])).content.decode()
    box = html.split('id="referee-calls"', 1)[1].split("</article>", 1)[0]
    assert "2 tables call a referee" in box
    lines = box.split("<li ")[1:]
    # the call still waiting comes first, then the one a referee is on the way to
    assert 'data-call-table="2" data-call-state="open"' in lines[0] and "A question" in lines[0]
    assert 'data-call-state="acknowledged"' in lines[1] and "On my way: referee" in lines[1]
    calls.call_resolve(call=first, actor=ref, note="done")
    html = client.get(reverse("director-dashboard", args=[tournament.slug])).content.decode()
    assert "1 table calls a referee" in html


def test_the_table_history_keeps_the_call_with_its_times(client, table, ref, referee):
    call, _ = calls.call_create(table=table, actor=link(table), reason="wrong_claim")
    calls.call_acknowledge(call=call, actor=ref)
    calls.call_resolve(call=call, actor=ref, note="Claim withdrawn.")
    client.force_login(referee)
    html = client.get(
        reverse("table-page", args=[table.session.tournament.slug, table.session.number, table.number])
    ).content.decode()
    history = html.split('id="history"', 1)[1]
    assert "Referee called" in history and "A wrong claim" in history and "table link of table 1" in history
    assert "A referee is on the way" in history and "Claim withdrawn." in history


def test_a_table_or_session_with_a_call_is_not_deleted(api_as, table, director):
    calls.call_create(table=table, actor=link(table), reason="question")
    client = api_as(director)
    refused = client.delete(f"/api/tables/{table.pk}/")
    assert refused.status_code == 409 and "1 call of a referee" in refused.content.decode()
    assert client.delete(f"/api/sessions/{table.session.pk}/").status_code == 409
    assert RefereeCall.objects.filter(table=table).exists()


def test_the_queue_part_the_referees_pages_ask_for_again(
    client, tournament, tables, scorer, referee, make_user
):
    url = reverse("referee-calls-part", args=[tournament.slug, 1])
    client.force_login(referee)
    empty = client.get(url)
    assert empty.status_code == 200 and 'id="referee-calls-box"' in empty.content.decode()
    assert 'id="referee-calls"' not in empty.content.decode()
    call, _ = calls.call_create(table=tables[1], actor=link(tables[1]), reason="dispute")
    part = client.get(url).content.decode()
    assert (
        "1 table calls a referee" in part and reverse("referee-call", args=[tournament.slug, call.pk]) in part
    )
    # a scorer sees the queue without the referees' links; someone without a role sees nothing
    client.force_login(scorer)
    part = client.get(url).content.decode()
    assert "Table 2" in part and reverse("referee-call", args=[tournament.slug, call.pk]) not in part
    client.force_login(make_user("nobody"))
    assert client.get(url).status_code == 403


def test_a_penalty_recorded_from_a_call_goes_back_to_it_chosen(client, tournament, table, ref, referee):
    call, _ = calls.call_create(table=table, actor=link(table), reason="foul")
    client.force_login(referee)
    call_page = reverse("referee-call", args=[tournament.slug, call.pk])
    kinds = client.get(call_page).content.decode()
    url = reverse("table-penalty", args=[tournament.slug, 1, table.number, "foul"])
    assert f'href="{url}?call={call.pk}"' in kinds
    form = client.get(f"{url}?call={call.pk}").content.decode()
    assert "For the call of table 1" in form and f"/penalty/dead_hand/?call={call.pk}" in form
    recorded = client.post(f"{url}?call={call.pk}", {"kind": "foul", "player": "p1", "reason": "slow"})
    penalty = tournament.penalties.get()
    assert recorded.status_code == 302 and recorded["Location"] == f"{call_page}?penalty={penalty.pk}"
    assert f'<option value="{penalty.pk}" selected>' in client.get(recorded["Location"]).content.decode()
    spanish = client.get(f"{url}?call={call.pk}", headers={"Accept-Language": "es"}).content.decode()
    assert "Para la llamada de la mesa 1: una vez registrada" in spanish
    # a call resolved meanwhile, or a link that names no call of this table: back to the table
    calls.call_resolve(call=call, actor=ref, note="settled")
    for query in (f"?call={call.pk}", "?call=x"):
        again = client.post(url + query, {"kind": "foul", "player": "p2", "reason": "slow"})
        assert again.status_code == 302 and again["Location"].endswith("#penalties")
