"""The EMA observer's report (ERGMT §3.11), drafted from the tournament's data, as a page and a PDF.

ERGMT §3.11: "The EMA observer should submit a small report shortly after the tournament containing:
Name of the EMA observer; Tournament name, location and dates; Rule system and MERS weight; Playing
schedule: Number and length of playing sessions; Number of participants and number of countries
represented; Names of the referees and whether they were playing or non-playing; Number of prizes and
what they are awarded for; A few comments on the overall organisation [...]; Information and communication
before and during the tournament. Was a clock clearly visible during sessions, and were results clearly
communicated between sessions?; Irregularities experienced, if any; Complaints received or questions
raised, if any; Brief conclusion". "[...] the report should be written in English language": the PDF is
always in English.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import override
from fpdf import FPDF

from rankings.ema.selectors import tournament_ended_on
from rankings.submission import engine, selectors
from scoring.calls.selectors import CallFigures, call_figures
from tournaments.countries import country_name
from tournaments.models import Registration, Tournament

FONTS = Path(__file__).resolve().parent / "fonts"


@dataclass(frozen=True)
class SessionLine:
    number: int
    starts: str
    minutes: int
    clock: bool | None  # None: not played yet


@dataclass(frozen=True)
class IrregularityLine:
    sequence: int
    session: str
    table: str
    player: str
    kind: str
    reason: str
    appeal: str
    decision: str


@dataclass(frozen=True)
class Report:
    observer: str
    observer_ema_id: str
    name: str
    place: str
    starts_on: date
    ends_on: date
    rules: str
    weight: selectors.Weight
    sessions: tuple[SessionLine, ...]
    participants: int
    countries: tuple[str, ...]
    referees: tuple[engine.RefereeFact, ...]
    prizes: tuple[str, ...]
    clock_ran: bool | None
    results_published: bool | None
    irregularities: tuple[IrregularityLine, ...]
    organisation: str
    communication: str
    irregularities_comment: str
    complaints: str
    conclusion: str
    calls: CallFigures | None = None  # the tables' calls of a referee and how long they waited

    @property
    def calls_text(self) -> str:
        return calls_text(self.calls)

    @property
    def weight_text(self) -> str:
        value = self.weight.value
        return "—" if value is None else engine._num(value)


def _yes_no(status: str) -> bool | None:
    return True if status == engine.OK else False if status == engine.FAIL else None


def report_of(*, tournament: Tournament) -> Report:
    submission = selectors.submission_of(tournament=tournament)
    facts = selectors.facts(tournament=tournament)
    checks = {c.key: c for c in engine.run_checks(facts)}
    players = Registration.objects.filter(tournament=tournament, is_substitute=False).select_related("player")
    countries = sorted({r.player.country for r in players if r.player.country})
    sessions = tuple(
        SessionLine(
            number=s.number,
            starts=timezone.localtime(s.starts_at).strftime("%Y-%m-%d %H:%M") if s.starts_at else "",
            minutes=s.minutes,
            clock=s.clock_ran if s.played else None,
        )
        for s in facts.sessions
    )
    irregular = tuple(
        IrregularityLine(
            sequence=p.sequence,
            session=str(p.session.number) if p.session else "",
            table=str(p.table.number) if p.table else "",
            player=p.registration.player.full_name,
            kind=str(p.get_kind_display()),
            reason=p.reason,
            appeal=p.appeal,
            decision=p.appeal_decision,
        )
        for p in selectors.irregularities(tournament=tournament)
    )
    place = ", ".join(x for x in (tournament.city, country_name(tournament.country)) if x)
    return Report(
        observer=submission.observer,
        observer_ema_id=submission.observer_ema_id,
        name=tournament.name,
        place=place,
        starts_on=tournament.starts_on,
        ends_on=tournament_ended_on(tournament),
        rules=str(tournament.get_ruleset_display()),
        weight=selectors.weight(tournament=tournament),
        sessions=sessions,
        participants=players.count(),
        countries=tuple(countries),
        referees=facts.referees,
        prizes=facts.prizes,
        clock_ran=_yes_no(checks["clock"].status) if checks else None,
        results_published=_yes_no(checks["published"].status) if checks else None,
        irregularities=irregular,
        organisation=submission.organisation,
        communication=submission.communication,
        irregularities_comment=submission.irregularities,
        complaints=submission.complaints,
        conclusion=submission.conclusion,
        calls=call_figures(tournament=tournament),
    )


# -- PDF --------------------------------------------------------------------------------------------


def wait_text(seconds: int | None) -> str:
    """A wait as minutes and seconds (``4 min 05 s``); a dash when there was none."""
    if seconds is None:
        return "—"
    return _("%(m)s min %(s)s s") % {"m": seconds // 60, "s": f"{seconds % 60:02d}"}


def calls_text(calls: CallFigures | None) -> str:
    """The tables' calls of a referee in one sentence: how many, and how long tables waited."""
    if calls is None or not calls.calls:
        return _("No table called a referee through the tables' pages.")
    return _(
        "%(n)s call(s) of a referee from the tables, %(resolved)s resolved. Waiting for a referee: "
        "%(ack)s on average, %(ack_max)s at most. Until resolved: %(res)s on average, %(res_max)s at most."
    ) % {
        "n": calls.calls,
        "resolved": calls.resolved,
        "ack": wait_text(calls.average_wait_acknowledged),
        "ack_max": wait_text(calls.longest_wait_acknowledged),
        "res": wait_text(calls.average_wait_resolved),
        "res_max": wait_text(calls.longest_wait_resolved),
    }


def _answer(value: bool | None) -> str:
    return _("not yet known") if value is None else _("yes") if value else _("no")


class _ReportPdf(FPDF):
    """An A4 page in DejaVu Sans (every European name prints) with the report's headings and lines."""

    def __init__(self, name: str):
        super().__init__(format="A4")
        self.set_title(f"EMA observer's report: {name}")
        self.set_creator("mahjong tournaments")
        self.add_font("DejaVu", "", str(FONTS / "DejaVuSans.ttf"))
        self.add_font("DejaVu", "B", str(FONTS / "DejaVuSans-Bold.ttf"))
        self.set_auto_page_break(auto=True, margin=15)
        self.add_page()
        self.width = self.w - self.l_margin - self.r_margin

    def para(self, value: str) -> None:
        self.multi_cell(self.width, 5.5, value, new_x="LMARGIN", new_y="NEXT")

    def heading(self, value: str) -> None:
        self.ln(2)
        self.set_font("DejaVu", "B", 12)
        self.multi_cell(self.width, 7, value, new_x="LMARGIN", new_y="NEXT")
        self.set_font("DejaVu", "", 10)

    def line(self, label: str, value: str) -> None:
        self.set_font("DejaVu", "B", 10)
        self.multi_cell(self.width, 5.5, label, new_x="LMARGIN", new_y="NEXT")
        self.set_font("DejaVu", "", 10)
        self.multi_cell(self.width, 5.5, value or "—", new_x="LMARGIN", new_y="NEXT")


def report_pdf(report: Report) -> bytes:
    """The report as a PDF (A4, DejaVu Sans so that every European name prints), in English."""
    with override("en"):
        pdf = _ReportPdf(report.name)
        _pdf_tournament(pdf, report)
        _pdf_schedule(pdf, report)
        _pdf_people(pdf, report)
        _pdf_organisation(pdf, report)
        _pdf_irregularities(pdf, report)
        pdf.heading(_("Complaints and questions"))
        pdf.para(report.complaints or "—")
        pdf.line(_("Calls of a referee"), calls_text(report.calls))
        pdf.heading(_("Conclusion"))
        pdf.para(report.conclusion or "—")
        return bytes(pdf.output())


def _pdf_tournament(pdf: _ReportPdf, report: Report) -> None:
    """The title, the observer, the tournament, its dates, rules and weight."""
    pdf.set_font("DejaVu", "B", 16)
    pdf.multi_cell(pdf.width, 9, _("EMA observer's report"), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", "", 10)
    observer = report.observer + (f" (EMA {report.observer_ema_id})" if report.observer_ema_id else "")
    pdf.line(_("EMA observer"), observer)
    pdf.line(_("Tournament"), report.name)
    pdf.line(_("Location"), report.place)
    dates = report.starts_on.isoformat()
    if report.ends_on != report.starts_on:
        dates += f" – {report.ends_on.isoformat()}"
    pdf.line(_("Dates"), dates)
    w = report.weight
    parts = _(
        "%(days)s (days) + %(players)s (players) + %(countries)s (countries) + %(qualifier)s (qualifier)"
    ) % {
        "days": engine._num(w.day_part),
        "players": engine._num(w.player_part),
        "countries": engine._num(w.country_part),
        "qualifier": engine._num(w.qualifier_part),
    }
    pdf.line(_("Rules and MERS weight"), f"{report.rules}; {report.weight_text} = {parts}")


def _pdf_schedule(pdf: _ReportPdf, report: Report) -> None:
    pdf.heading(_("Playing schedule"))
    pdf.para(_("%(count)s sessions") % {"count": len(report.sessions)})
    for s in report.sessions:
        pdf.para(
            _("Session %(n)s: %(start)s, %(minutes)s minutes")
            % {"n": s.number, "start": s.starts or "—", "minutes": s.minutes}
        )


def _pdf_people(pdf: _ReportPdf, report: Report) -> None:
    """The participants, the referees and the prizes."""
    pdf.heading(_("Participants"))
    pdf.para(
        _("%(players)s players from %(countries)s countries: %(list)s")
        % {
            "players": report.participants,
            "countries": len(report.countries),
            "list": ", ".join(report.countries) or "—",
        }
    )
    pdf.heading(_("Referees"))
    for r in report.referees or ():
        pdf.para(f"{r.name}: {_('playing') if r.plays else _('non-playing')}")
    if not report.referees:
        pdf.para("—")
    pdf.heading(_("Prizes"))
    pdf.para(_("%(count)s prize(s)") % {"count": len(report.prizes)})
    for prize in report.prizes:
        pdf.para(f"• {prize}")


def _pdf_organisation(pdf: _ReportPdf, report: Report) -> None:
    pdf.heading(_("Information and communication"))
    pdf.line(_("A countdown clock ran in every session"), _answer(report.clock_ran))
    pdf.line(_("Results were published before each next session"), _answer(report.results_published))
    pdf.line(_("Comments"), report.communication)
    pdf.heading(_("Overall organisation"))
    pdf.para(report.organisation or "—")


def _pdf_irregularities(pdf: _ReportPdf, report: Report) -> None:
    pdf.heading(_("Irregularities"))
    for i in report.irregularities:
        text = _("#%(seq)s session %(session)s table %(table)s, %(player)s: %(kind)s") % {
            "seq": i.sequence,
            "session": i.session or "—",
            "table": i.table or "—",
            "player": i.player,
            "kind": i.kind,
        }
        if i.reason:
            text += f". {i.reason}"
        if i.appeal:
            text += ". " + _("Appeal: %(appeal)s") % {"appeal": i.appeal}
        if i.decision:
            text += ". " + _("Decision: %(decision)s") % {"decision": i.decision}
        pdf.para(text)
    if not report.irregularities:
        pdf.para(_("None recorded."))
    if report.irregularities_comment:
        pdf.line(_("Comments"), report.irregularities_comment)
