"""REST API of the EMA submission (the tournament's directors).

GET   /api/tournaments/<slug>/ema-submission/          the checks with their articles and outcome, the MERS
                                                       weight with its parts, the ranking preview, the
                                                       newest pack (and whether it is out of date), the
                                                       recorded facts
PATCH /api/tournaments/<slug>/ema-submission/          change the recorded facts (observer, referees,
                                                       prizes, substitutes' answers, observer's comments)
GET   /api/tournaments/<slug>/ema-submission/report/   the observer's report drafted from the data

The pack itself is an export: ``POST /api/tournaments/<slug>/exports/`` with ``{"exporter": "ema-pack"}``.
"""

from __future__ import annotations

import dataclasses

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response
from rest_framework.views import APIView

from rankings.submission import engine, pack, selectors, services
from rankings.submission.report import report_of
from tournaments.models import Tournament
from tournaments.permissions import can_manage

NOT_ALLOWED = "You need the director role in this tournament."


def _director_tournament(request, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not request.user.is_authenticated or not can_manage(request.user, tournament):
        raise PermissionDenied(NOT_ALLOWED)
    return tournament


class EmaRefereeSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=services.MAX_NAME)
    plays = serializers.BooleanField()


class EmaFactsSerializer(serializers.Serializer):
    observer = serializers.CharField(max_length=services.MAX_NAME, allow_blank=True, required=False)
    observer_ema_id = serializers.CharField(max_length=8, allow_blank=True, required=False)
    referees = EmaRefereeSerializer(
        many=True,
        required=False,
        help_text="The referees and whether they play; empty: the referee accounts of the tournament.",
    )
    prizes = serializers.ListField(
        child=serializers.CharField(max_length=services.MAX_NAME),
        max_length=services.MAX_LINES,
        required=False,
    )
    substitute_answers = serializers.DictField(
        child=serializers.BooleanField(),
        required=False,
        help_text="A substitute's registration key → whether the results count (ERGMT §3.9).",
    )
    organisation = serializers.CharField(max_length=services.MAX_TEXT, allow_blank=True, required=False)
    communication = serializers.CharField(max_length=services.MAX_TEXT, allow_blank=True, required=False)
    irregularities = serializers.CharField(max_length=services.MAX_TEXT, allow_blank=True, required=False)
    complaints = serializers.CharField(max_length=services.MAX_TEXT, allow_blank=True, required=False)
    conclusion = serializers.CharField(max_length=services.MAX_TEXT, allow_blank=True, required=False)


class EmaCheckSerializer(serializers.Serializer):
    key = serializers.CharField()
    title = serializers.CharField()
    article = serializers.CharField(help_text="The article of the EMA's texts the check applies.")
    status = serializers.ChoiceField(choices=list(engine.STATUSES))
    messages = serializers.ListField(child=serializers.CharField())


class EmaWeightSerializer(serializers.Serializer):
    value = serializers.CharField(allow_null=True)
    days = serializers.CharField()
    players = serializers.CharField()
    countries = serializers.CharField()
    qualifier = serializers.CharField()
    player_count = serializers.IntegerField()
    country_count = serializers.IntegerField()
    final = serializers.BooleanField(help_text="False while it still depends on who plays.")


class EmaPreviewSerializer(serializers.Serializer):
    name = serializers.CharField()
    ema_id = serializers.CharField()
    place = serializers.IntegerField()
    base_rank = serializers.IntegerField()
    before = serializers.CharField()
    after = serializers.CharField()


class EmaPackSerializer(serializers.Serializer):
    job = serializers.IntegerField(allow_null=True)
    status = serializers.CharField(allow_null=True)
    progress = serializers.IntegerField(allow_null=True)
    current = serializers.BooleanField()
    out_of_date = serializers.BooleanField()


class EmaSubmissionSerializer(serializers.Serializer):
    checks = EmaCheckSerializer(many=True)
    summary = serializers.DictField(child=serializers.IntegerField())
    weight = EmaWeightSerializer()
    preview = EmaPreviewSerializer(many=True)
    pack = EmaPackSerializer()
    facts = EmaFactsSerializer()


def check_json(c: engine.Check) -> dict:
    return {
        "key": c.key,
        "title": str(c.title),
        "article": c.article,
        "status": c.status,
        "messages": [str(m) for m in c.messages],
    }


def weight_json(w: selectors.Weight) -> dict:
    value = w.value
    return {
        "value": None if value is None else engine._num(value),
        "days": engine._num(w.day_part),
        "players": engine._num(w.player_part),
        "countries": engine._num(w.country_part),
        "qualifier": engine._num(w.qualifier_part),
        "player_count": w.players,
        "country_count": w.countries,
        "final": w.final,
    }


def facts_json(tournament: Tournament) -> dict:
    s = selectors.submission_of(tournament=tournament)
    return {
        "observer": s.observer,
        "observer_ema_id": s.observer_ema_id,
        "referees": list(s.referees or []),
        "prizes": list(s.prizes or []),
        "substitute_answers": dict(s.substitute_answers or {}),
        **{name: getattr(s, name) for name in services.TEXT_FIELDS},
    }


def submission_json(tournament: Tournament) -> dict:
    checks = selectors.checks(tournament=tournament)
    state = pack.pack_state(tournament=tournament)
    job = state.job
    return {
        "checks": [check_json(c) for c in checks],
        "summary": engine.summary(checks),
        "weight": weight_json(selectors.weight(tournament=tournament)),
        "preview": [
            {
                "name": line.name,
                "ema_id": line.ema_id,
                "place": line.place,
                "base_rank": line.base_rank,
                "before": f"{float(line.before):.2f}",
                "after": f"{float(line.after):.2f}",
            }
            for line in selectors.preview(tournament=tournament)
        ],
        "pack": {
            "job": job.pk if job else None,
            "status": job.status if job else None,
            "progress": job.progress if job else None,
            "current": state.current,
            "out_of_date": state.stale,
        },
        "facts": facts_json(tournament),
    }


class SubmissionView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        responses=EmaSubmissionSerializer, summary="The EMA checks, weight, ranking preview and pack"
    )
    def get(self, request, tournament_slug: str):
        tournament = _director_tournament(request, tournament_slug)
        return Response(submission_json(tournament))

    @extend_schema(
        request=EmaFactsSerializer,
        responses=EmaSubmissionSerializer,
        summary="Record the observer, referees, prizes, substitutes' answers and the observer's comments",
    )
    def patch(self, request, tournament_slug: str):
        tournament = _director_tournament(request, tournament_slug)
        data = EmaFactsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        changes = dict(data.validated_data)
        if "referees" in changes:
            changes["referees"] = [dict(r) for r in changes["referees"]]
        services.submission_update(tournament=tournament, changes=changes)
        return Response(submission_json(tournament))


class EmaObserverReportSerializer(serializers.Serializer):
    observer = serializers.CharField()
    observer_ema_id = serializers.CharField()
    name = serializers.CharField()
    place = serializers.CharField()
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()
    rules = serializers.CharField()
    weight = EmaWeightSerializer()
    sessions = serializers.ListField(child=serializers.DictField())
    participants = serializers.IntegerField()
    countries = serializers.ListField(child=serializers.CharField())
    referees = EmaRefereeSerializer(many=True)
    prizes = serializers.ListField(child=serializers.CharField())
    clock_ran = serializers.BooleanField(allow_null=True)
    results_published = serializers.BooleanField(allow_null=True)
    irregularities = serializers.ListField(child=serializers.DictField())
    comments = serializers.DictField(child=serializers.CharField())
    referee_calls = serializers.DictField(
        help_text="The tables' calls of a referee: calls, resolved, and the waits in seconds until a referee "
        "acknowledged (average_wait_acknowledged, longest_wait_acknowledged) and until resolved "
        "(average_wait_resolved, longest_wait_resolved); null when none."
    )


class SubmissionReportView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        responses=EmaObserverReportSerializer, summary="The EMA observer's report drafted from the tournament"
    )
    def get(self, request, tournament_slug: str):
        tournament = _director_tournament(request, tournament_slug)
        r = report_of(tournament=tournament)
        return Response(
            {
                "observer": r.observer,
                "observer_ema_id": r.observer_ema_id,
                "name": r.name,
                "place": r.place,
                "starts_on": r.starts_on,
                "ends_on": r.ends_on,
                "rules": r.rules,
                "weight": weight_json(r.weight),
                "sessions": [
                    {"number": s.number, "starts": s.starts, "minutes": s.minutes, "clock": s.clock}
                    for s in r.sessions
                ],
                "participants": r.participants,
                "countries": list(r.countries),
                "referees": [{"name": x.name, "plays": x.plays} for x in r.referees],
                "prizes": list(r.prizes),
                "clock_ran": r.clock_ran,
                "results_published": r.results_published,
                "irregularities": [i.__dict__ for i in r.irregularities],
                "comments": {
                    "organisation": r.organisation,
                    "communication": r.communication,
                    "irregularities": r.irregularities_comment,
                    "complaints": r.complaints,
                    "conclusion": r.conclusion,
                },
                "referee_calls": dataclasses.asdict(r.calls) if r.calls is not None else None,
            }
        )
