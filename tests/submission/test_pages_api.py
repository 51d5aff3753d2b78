"""The EMA submission's pages (checks, dashboard panel, observer's report and its form, the PDF, the
substitutes' answers, starting the pack) and its API, for directors only, in English and Spanish."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from rankings.submission import selectors
from rankings.submission.services import submission_update
from tests.submission.builders import failing_tournament
from tournaments import services
from tournaments.models import Role

pytestmark = pytest.mark.django_db


@pytest.fixture
def planned(director):
    """A tournament being planned: 2 sessions for 1 day, 4 players, a substitute."""
    tournament = services.tournament_create(
        name="Planned",
        slug="planned",
        ruleset="mcr",
        starts_on=dt.date(2027, 4, 3),
        director=director,
        sessions=2,
    )
    for i in range(1, 5):
        player = services.player_create(first_name=f"Pl{i}", last_name="Ñúñez", country="ESP")
        services.registration_create(tournament=tournament, player=player, key=f"p{i}")
    sub = services.player_create(first_name="Søren", last_name="Sub", country="DNK")
    services.registration_create(tournament=tournament, player=sub, key="s1", is_substitute=True)
    return tournament


def test_the_checks_page_shows_each_check_with_its_article(client, director, planned):
    client.force_login(director)
    page = client.get(reverse("ema-submission", kwargs={"slug": planned.slug}))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="check-schedule" data-status="fail"' in html
    assert "1 day(s) need at least 4 sessions; 2 are planned." in html
    assert "ERGMT §3.6" in html and "ERGMT §2.1" in html and "ERGMT §3.10" in html
    assert 'id="check-results" data-status="pending"' in html
    assert "Søren Sub" in html  # the substitute, to record his answer
    assert "The weight is known once players are registered." not in html  # 4 players: a weight already


def test_the_checks_page_in_spanish(client, director, planned):
    client.force_login(director)
    page = client.get(reverse("ema-submission", kwargs={"slug": planned.slug}), HTTP_ACCEPT_LANGUAGE="es")
    html = page.content.decode()
    assert "Requisitos de la EMA" in html
    assert "1 día(s) necesitan al menos 4 sesiones; hay 2 previstas." in html


def test_the_dashboard_loads_the_panel_that_turns_green_item_by_item(client, director, planned):
    client.force_login(director)
    dashboard = client.get(reverse("director-dashboard", kwargs={"slug": planned.slug})).content.decode()
    panel_url = reverse("ema-submission-panel", kwargs={"slug": planned.slug})
    assert f'hx-get="{panel_url}"' in dashboard
    panel = client.get(panel_url).content.decode()
    assert panel.count('data-status="ok"') == 0
    # the players have no EMA number: said plainly, not a fault
    assert 'id="check-ema_numbers" data-status="info"' in panel
    assert "1 of 12 met" in panel
    submission_update(
        tournament=planned, changes={"observer": "Jan Novák", "prizes": ["Cups for the best three"]}
    )
    panel = client.get(panel_url).content.decode()
    assert 'id="check-observer" data-status="ok"' in panel and 'id="check-prizes" data-status="ok"' in panel
    assert "3 of 12 met" in panel


def test_a_substitute_s_answer_is_recorded_on_the_page(client, director, planned):
    client.force_login(director)
    url = reverse("ema-submission-substitute", kwargs={"slug": planned.slug})
    response = client.post(url, {"key": "s1", "answer": "yes"})
    assert response.status_code == 302
    assert selectors.submission_of(tournament=planned).substitute_answers == {"s1": True}
    checks = {c.key: c for c in selectors.checks(tournament=planned)}
    assert [str(m) for m in checks["substitutes"].messages] == ["Søren Sub: results count."]
    client.post(url, {"key": "p1", "answer": "no"})  # not a substitute: refused, nothing recorded
    assert selectors.submission_of(tournament=planned).substitute_answers == {"s1": True}
    client.post(url, {"key": "s1", "answer": ""})  # forgotten: not asked yet
    assert selectors.submission_of(tournament=planned).substitute_answers == {}


def test_the_report_form_records_what_only_people_know_and_the_pdf_prints_it(client, director, planned):
    client.force_login(director)
    url = reverse("ema-submission-report", kwargs={"slug": planned.slug})
    response = client.post(
        url,
        {
            "observer": "Ingrid Ødegaard",
            "observer_ema_id": "04123456",
            "referees_not_playing": "Núria Árbitra\n",
            "referees_playing": "Pl1 Ñúñez",
            "prizes": "Trophy for the winner\nCups for 2nd and 3rd",
            "organisation": "Bright hall, good tiles.",
            "communication": "Results on a screen.",
            "irregularities": "",
            "complaints": "None.",
            "conclusion": "Recommended.",
        },
    )
    assert response.status_code == 302
    stored = selectors.submission_of(tournament=planned)
    assert stored.referees == [
        {"name": "Núria Árbitra", "plays": False},
        {"name": "Pl1 Ñúñez", "plays": True},
    ]
    assert stored.prizes == ["Trophy for the winner", "Cups for 2nd and 3rd"]
    html = client.get(url).content.decode()
    assert "Ingrid Ødegaard (EMA 04123456)" in html
    assert "Pl1 Ñúñez: playing" in html and "Núria Árbitra: non-playing" in html
    pdf = client.get(reverse("ema-submission-pdf", kwargs={"slug": planned.slug}))
    assert pdf["Content-Type"] == "application/pdf"
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "Ingrid Ødegaard (EMA 04123456)" in text
    assert "Pl1 Ñúñez: playing" in text and "Núria Árbitra: non-playing" in text
    assert "Bright hall, good tiles." in text


def test_the_report_form_names_a_faulty_field(client, director, planned):
    client.force_login(director)
    url = reverse("ema-submission-report", kwargs={"slug": planned.slug})
    response = client.post(url, {"observer": "X", "observer_ema_id": "12ab"})
    assert response.status_code == 200
    assert "an EMA number has exactly 8 digits" in response.content.decode()
    assert selectors.submission_of(tournament=planned).pk is None


def test_the_pack_starts_from_the_checks_page(client, director, planned, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    client.force_login(director)
    response = client.post(reverse("ema-submission-pack", kwargs={"slug": planned.slug}))
    assert response.status_code == 302
    job = planned.export_jobs.get()
    assert (job.exporter, job.format) == ("ema-pack", "zip")
    assert response["Location"] == reverse("export-job", kwargs={"slug": planned.slug, "pk": job.pk})


def test_pages_are_for_the_director_only(client, make_user, planned):
    referee = make_user("ref")
    services.role_grant(tournament=planned, user=referee, role=Role.REFEREE)
    client.force_login(referee)
    for name in ("ema-submission", "ema-submission-panel", "ema-submission-report", "ema-submission-pdf"):
        assert client.get(reverse(name, kwargs={"slug": planned.slug})).status_code in (403, 404), name
    client.logout()
    assert client.get(reverse("ema-submission", kwargs={"slug": planned.slug})).status_code == 302


# -- API ---------------------------------------------------------------------------------------------


def test_the_api_gives_the_checks_weight_and_preview(api_as, director):
    tournament = failing_tournament(director)
    body = api_as(director).get(f"/api/tournaments/{tournament.slug}/ema-submission/").json()
    checks = {c["key"]: c for c in body["checks"]}
    assert checks["clock"] == {
        "key": "clock",
        "title": "A countdown clock ran in every session",
        "article": "ERGMT §3.6, §3.8",
        "status": "fail",
        "messages": ["No countdown clock ran in session 1."],
    }
    assert body["summary"] == {"ok": 0, "fail": 11, "pending": 1, "info": 0}  # the substitute: to ask
    assert body["weight"] == {
        "value": "1.5",
        "days": "1",
        "players": "0",
        "countries": "0.5",
        "qualifier": "0",
        "player_count": 8,
        "country_count": 7,
        "final": False,
    }
    assert body["preview"][0] == {
        "name": "Lars Odegard",
        "ema_id": "04010009",
        "place": 1,
        "base_rank": 1000,
        "before": "0.00",
        "after": "303.03",
    }
    assert body["pack"] == {
        "job": None,
        "status": None,
        "progress": None,
        "current": False,
        "out_of_date": False,
    }


def test_the_api_records_the_facts_and_names_faulty_fields(api_as, director, planned):
    api = api_as(director)
    url = f"/api/tournaments/{planned.slug}/ema-submission/"
    ok = api.patch(
        url,
        {
            "observer": "Jan Novák",
            "referees": [{"name": "Rita", "plays": True}],
            "substitute_answers": {"s1": False},
        },
        format="json",
    )
    assert ok.status_code == 200
    assert ok.json()["facts"]["referees"] == [{"name": "Rita", "plays": True}]
    checks = {c["key"]: c for c in ok.json()["checks"]}
    assert checks["referees"]["messages"] == ["1 referee(s), 1 playing."]
    bad = api.patch(url, {"substitute_answers": {"p1": True}}, format="json")
    assert bad.status_code == 400 and "p1" in str(bad.json())
    bad = api.patch(url, {"observer_ema_id": "123"}, format="json")
    assert bad.status_code == 400 and "observer_ema_id" in bad.json()
    bad = api.patch(url, {"referees": [{"name": "", "plays": True}]}, format="json")
    assert bad.status_code == 400 and "referees" in bad.json()
    assert selectors.submission_of(tournament=planned).observer == "Jan Novák"
    report = api.get(f"/api/tournaments/{planned.slug}/ema-submission/report/").json()
    assert report["observer"] == "Jan Novák" and report["participants"] == 4
    assert report["referees"] == [{"name": "Rita", "plays": True}]


def test_the_api_is_for_the_director_only(api_as, make_user, planned, api):
    referee = make_user("ref")
    services.role_grant(tournament=planned, user=referee, role=Role.REFEREE)
    url = f"/api/tournaments/{planned.slug}/ema-submission/"
    assert api_as(referee).get(url).status_code == 403
    assert api_as(referee).patch(url, {"observer": "Me"}, format="json").status_code == 403
    assert api.get(url).status_code in (401, 403)
    assert selectors.submission_of(tournament=planned).pk is None
