"""Every write of the entry pages, sent twice with the form's hidden ``idempotency_key``: one effect and
two identical answers; the same key with other data is refused (422)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from idempotency.models import IdempotencyRecord
from idempotency.services import idempotency_purge
from penalties.models import Penalty
from scoring.models import Hand, TableResult
from tests.idempotency.support import effects, new_key, same_answer
from tests.scoring.test_pages_support import link_url, seat_session, table_url, text, version

pytestmark = pytest.mark.django_db
WIN = {"result": "win", "winner": 0, "discarder": 2, "fan": 8}


def twice(client, url: str, data: dict, table, *, expect: int = 302):
    data = {**data, "idempotency_key": new_key()}
    before = effects(table)
    first = client.post(url, data)
    assert first.status_code == expect, text(first)
    after = effects(table)
    assert after != before
    second = client.post(url, data)
    same_answer(first, second)
    assert effects(table) == after
    return first


def action(table, name: str, **fields) -> dict:
    return {"action": name, "version": version(table), **fields}


def test_every_form_of_the_table_page_carries_a_fresh_key(client, tournament, referee):
    table = seat_session(tournament)[0]
    client.force_login(referee)
    html = client.get(table_url(table)).content.decode()
    keys = re.findall(r'name="idempotency_key" value="([0-9a-f]{32})"', html)
    forms = html.count('method="post"') - 2  # the language switch and the logout are no entry
    assert len(keys) == forms >= 2
    assert len(set(keys)) == len(keys)
    again = re.findall(
        r'name="idempotency_key" value="([0-9a-f]{32})"', client.get(table_url(table)).content.decode()
    )
    assert not set(again) & set(keys)


def test_hand_add_edit_undo_submit_confirm_and_reopen_from_the_table_page(
    client, tournament, scorer, referee
):
    table = seat_session(tournament)[0]
    url = table_url(table)
    client.force_login(scorer)
    twice(client, url, action(table, "hand", **WIN), table)
    twice(client, url, action(table, "hand", result="draw"), table)
    assert Hand.objects.filter(result__table=table).count() == 2
    edit = {**action(table, "hand", **{**WIN, "fan": 9}), "reason": "fan miscounted"}
    hand_url = reverse("table-hand", args=[tournament.slug, 1, table.number, 1])
    twice(client, hand_url, edit, table)
    assert Hand.objects.get(result__table=table, number=1).data["fan"] == 9
    twice(client, url, action(table, "undo"), table)
    assert Hand.objects.filter(result__table=table).count() == 1
    twice(client, url, action(table, "submit"), table)
    client.force_login(referee)
    twice(client, url, action(table, "confirm", short_reason="time limit reached"), table)
    twice(client, url, action(table, "reopen", reason="wrong winner"), table)
    result = TableResult.objects.get(table=table)
    assert result.status == TableResult.Status.SUBMITTED and result.version == 8  # 7 writes


def test_totals_and_the_referees_session_confirmation(client, tournament, scorer, referee):
    table = seat_session(tournament)[0]
    client.force_login(scorer)
    scores = {"score0": 30, "score1": 10, "score2": -15, "score3": -25}
    twice(client, table_url(table), action(table, "totals", **scores), table)
    twice(client, table_url(table), action(table, "submit"), table)
    client.force_login(referee)
    session_url = reverse("session-tables", args=[tournament.slug, 1])
    twice(client, session_url, {"table": table.pk, "version": version(table)}, table)
    assert TableResult.objects.get(table=table).status == TableResult.Status.CONFIRMED


def test_the_table_link_and_the_players_confirmation(client, make_tournament, director):
    tournament = make_tournament(
        slug="players-confirm", director=director, settings={"players_confirm": True}
    )
    table = seat_session(tournament)[0]
    twice(client, link_url(table), action(table, "hand", **WIN), table)
    twice(client, link_url(table), action(table, "submit"), table)
    player = table.seats.order_by("position").first().registration.player
    url = reverse("table-player-confirm", args=[table.private_key, player.private_key])
    twice(client, url, {"version": version(table)}, table)
    assert len(TableResult.objects.get(table=table).player_confirmations) == 1


def test_a_penalty_recorded_and_cancelled_from_the_pages(client, tournament, referee):
    table = seat_session(tournament)[0]
    client.force_login(referee)
    url = reverse("table-penalty", args=[tournament.slug, 1, table.number, "late_arrival"])
    twice(client, url, {"kind": "late_arrival", "player": "p2", "minutes_late": 7}, table)
    penalty = Penalty.objects.get()
    twice(client, reverse("penalty-cancel", args=[tournament.slug, penalty.pk]), {"reason": "clock"}, table)
    assert Penalty.objects.get().cancelled_at is not None


def test_other_data_with_a_used_key_is_refused(client, tournament, scorer):
    table = seat_session(tournament)[0]
    client.force_login(scorer)
    data = {**action(table, "hand", **WIN), "idempotency_key": new_key()}
    assert client.post(table_url(table), data).status_code == 302
    refused = client.post(table_url(table), {**data, "fan": 12})
    assert refused.status_code == 422
    # the page says what happened and what to do, with a link back; no header, path or status line
    page = text(refused)
    assert "already sent, with other data: nothing was saved" in page and "Open the page again" in page
    assert "Idempotency-Key" not in page and "POST" not in page and table_url(table) not in page
    html = refused.content.decode()
    assert f'href="{table_url(table)}" id="idempotency-back"' in html  # no Referer: back where it was sent
    assert Hand.objects.filter(result__table=table).count() == 1
    spanish = client.post(
        table_url(table),
        {**data, "fan": 13},
        headers={"Accept-Language": "es", "Referer": "http://testserver/x/"},
    )
    assert spanish.status_code == 422
    page = text(spanish)
    assert "Este formulario ya se envió con otros datos" in page and "Idempotency-Key" not in page
    assert 'href="http://testserver/x/" id="idempotency-back"' in spanish.content.decode()  # the form's page


def test_a_renewed_csrf_token_is_the_same_request(client, tournament, scorer):
    table = seat_session(tournament)[0]
    client.force_login(scorer)
    data = {**action(table, "hand", **WIN), "idempotency_key": new_key()}
    first = client.post(table_url(table), {**data, "csrfmiddlewaretoken": "a"})
    second = client.post(table_url(table), {**data, "csrfmiddlewaretoken": "b"})
    same_answer(first, second)


def test_keys_are_kept_at_least_a_day_then_forgotten(settings, client, tournament, scorer):
    settings.IDEMPOTENCY_KEEP_HOURS = 1  # never less than 24 hours whatever the setting
    table = seat_session(tournament)[0]
    client.force_login(scorer)
    client.post(table_url(table), {**action(table, "hand", result="draw"), "idempotency_key": new_key()})
    now = timezone.now()
    assert idempotency_purge(now=now + dt.timedelta(hours=23)) == 0
    assert IdempotencyRecord.objects.count() == 1
    assert idempotency_purge(now=now + dt.timedelta(hours=25)) == 1
    assert not IdempotencyRecord.objects.exists()


def test_an_htmx_preview_posting_the_whole_form_is_not_the_forms_write(client, tournament, scorer):
    """The tile value preview posts the hand form (with its key) at each change: not a keyed write."""
    table = seat_session(tournament)[0]
    client.force_login(scorer)
    data = {**action(table, "hand", **WIN), "idempotency_key": new_key()}
    preview = f"{table_url(table)}tiles/value/?hand=1"
    first = client.post(preview, data, HTTP_HX_REQUEST="true")
    second = client.post(preview, {**data, "fan": 12}, HTTP_HX_REQUEST="true")
    assert first.status_code == second.status_code == 200
    assert "Idempotent-Replayed" not in second
    assert not IdempotencyRecord.objects.exists()
    assert client.post(table_url(table), data).status_code == 302  # the form's own write keeps its key
    assert IdempotencyRecord.objects.count() == 1


def test_a_repeat_gets_the_stored_compressed_answer_only_when_it_accepts_gzip(client, tournament):
    """The phone's first save accepted gzip and its answer was stored compressed; a repeat of it that does
    not accept gzip (another client of the same link, a proxy that strips the header) reads the same page,
    uncompressed, and one that does gets the stored bytes as they are."""
    import gzip

    table = seat_session(tournament)[0]
    data = {**action(table, "hand", **WIN), "idempotency_key": new_key()}
    fragments = {"HTTP_X_ENTRY_FRAGMENTS": "1"}
    first = client.post(link_url(table), data, HTTP_ACCEPT_ENCODING="gzip, deflate, br", **fragments)
    assert first.status_code == 200 and first["Content-Encoding"] == "gzip"
    html = gzip.decompress(first.content)
    assert b"Hand 1 saved." in html
    plain = client.post(link_url(table), data, HTTP_ACCEPT_ENCODING="identity", **fragments)
    assert plain["Idempotent-Replayed"] == "true"
    assert not plain.has_header("Content-Encoding")
    assert plain.content == html and plain["Content-Length"] == str(len(html))
    none = client.post(link_url(table), data, **fragments)
    assert none.content == html and not none.has_header("Content-Encoding")
    again = client.post(link_url(table), data, HTTP_ACCEPT_ENCODING="gzip", **fragments)
    assert again["Content-Encoding"] == "gzip" and again.content == first.content
    assert Hand.objects.filter(result__table=table).count() == 1


def test_a_stored_answer_that_does_not_decompress_is_replayed_as_stored(client, tournament):
    """A damaged compressed answer is no server error for the repeat: it gets the bytes as they were kept."""
    table = seat_session(tournament)[0]
    data = {**action(table, "hand", **WIN), "idempotency_key": new_key()}
    first = client.post(link_url(table), data, HTTP_ACCEPT_ENCODING="gzip", HTTP_X_ENTRY_FRAGMENTS="1")
    assert first["Content-Encoding"] == "gzip"
    record = IdempotencyRecord.objects.get(key=data["idempotency_key"])
    IdempotencyRecord.objects.filter(pk=record.pk).update(body=first.content[:20])  # cut short
    again = client.post(link_url(table), data, HTTP_X_ENTRY_FRAGMENTS="1")
    assert again.status_code == 200 and again.content == first.content[:20]
    assert again["Content-Encoding"] == "gzip"
    assert Hand.objects.filter(result__table=table).count() == 1
