"""Forms of the penalty pages: one form whose fields follow the kind of penalty, plus cancel, appeal and the
list filter. Amounts are never typed except for referee decisions and table point deductions: the service
computes them from the ruleset."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from penalties.kinds import KINDS, kind_of
from penalties.models import Kind, Scope
from scoring.rules.base import RuleError, Ruleset
from scoring.rules.numbers import POINTS_LIMIT, read_number
from tournaments.models import Registration, Session, Table

#: the kinds recorded at a hand of the game
HAND_KINDS = tuple(value for value, kind in KINDS.items() if kind.at_hand)
SUBSTITUTION_REASON_CHOICES = (
    ("late_arrival", _("Late arrival (past the limit)")),
    ("illness", _("Illness")),
    ("disqualified", _("Disqualified for the session")),
)


def penalty_kinds(rules: Ruleset) -> list[tuple[str, str]]:
    """The kinds of penalty the ruleset has an amount (or a meaning) for, in the order they are offered."""
    return [(value, kind.label) for value, kind in KINDS.items() if kind.supported(rules)]


def late_arrival_help(rules: Ruleset) -> str:
    """The ruleset's late arrival scale, for the referee who types the minutes."""
    try:
        explain = LATE_ARRIVAL_HELP[rules.late_arrival_scale]
    except KeyError:
        raise LookupError(f"no help for the {rules.key} rules' late arrival scale") from None
    text = explain(rules.config)
    whole = str(_("Whole minutes on the referee's clock."))
    if rules.late_minutes_rounded_up() and text.startswith(whole):
        text = str(STARTED_MINUTES) + text[len(whole) :]
    return text


# riichi 2025 §7.2: "rounded up", "9 minutes and 30 seconds late has a 10,000-point penalty"
STARTED_MINUTES = _("Minutes on the referee's clock, a started minute counted whole (9 min 30 s late: 10).")


def _minutes_help(config: Any) -> str:
    return str(_("Whole minutes on the referee's clock."))


def _mers_late_help(config: Any) -> str:
    return str(
        _(
            "Whole minutes on the referee's clock. Under %(short)s minutes: −%(short_points)s; up to "
            "%(grace)s minutes: −%(long_points)s; later: out of the session, a substitute takes the seat."
        )
        % {
            "short": config.late_short_minutes,
            "short_points": config.late_short_penalty,
            "grace": config.late_grace_minutes,
            "long_points": config.late_long_penalty,
        }
    )


def _riichi_late_help(config: Any) -> str:
    """The riichi scale the tournament set (``late_arrival_minutes``, ``_points``, ``_limit``)."""
    clock = str(_("Whole minutes on the referee's clock."))
    steps = list(zip(config.late_arrival_minutes, config.late_arrival_points, strict=True))
    limit = config.late_arrival_limit
    parts = []
    if not steps and limit is not None:
        parts.append(_("up to %(minutes)s minutes: no deduction") % {"minutes": limit})
    elif steps and steps[0][0] > 0:
        parts.append(_("under %(minutes)s minutes: no deduction") % {"minutes": steps[0][0]})
    for minutes, points in steps:
        if not points:
            parts.append(_("from %(minutes)s minutes: no deduction") % {"minutes": minutes})
            continue
        parts.append(
            _("from %(minutes)s minutes: −%(points)s points off the final score")
            % {"minutes": minutes, "points": points}
        )
    if limit is not None:
        parts.append(
            _("later than %(minutes)s minutes: out of the session, a substitute takes the seat")
            % {"minutes": limit}
        )
    if not parts:
        return clock
    scale = "; ".join(str(p) for p in parts)
    return f"{clock} {scale[:1].upper()}{scale[1:]}."


# The help beside the minutes late, by ``Ruleset.late_arrival_scale``.
LATE_ARRIVAL_HELP = {"minutes": _minutes_help, "mers": _mers_late_help, "riichi": _riichi_late_help}


def parse_points(text: str) -> Fraction:
    """Points as typed (``-15``, ``-1/2``, ``−7,5``): bounded text, no exponent (scoring.rules.numbers)."""
    return Fraction(read_number(text or "", field="points", limit=POINTS_LIMIT))


def registration_label(registration: Registration, wind: str = "") -> str:
    name = f"{registration.player.full_name} ({registration.key})"
    return f"{wind} · {name}" if wind else name


def _variant_choices(rules: Ruleset) -> list[tuple[str, str]]:
    """What a false hu showed, with what it pays under ``rules``."""
    below, invalid = rules.false_hu(0, "below_minimum")[1], rules.false_hu(0, "invalid_hand")[1]
    return [
        (
            "below_minimum",
            _("Four sets and a pair, under %(fan)s fan: pays %(each)s to each other player")
            % {"fan": rules.config.min_fan, "each": below},
        ),
        (
            "invalid_hand",
            _("An invalid hand (wrong set or tile count): pays %(each)s to each other player")
            % {"each": invalid},
        ),
    ]


def _points_help(rules: Ruleset) -> str:
    """The bounds, the step and the least deduction of a referee's decision under ``rules``."""
    low, high = rules.referee_bounds()
    step = rules.referee_step()
    bounds = _("Between %(low)s and %(high)s.") % {"low": low, "high": high}
    if step:
        bounds += " " + _("In steps of %(step)s points.") % {"step": step}
    minimum = rules.referee_minimum()
    if minimum:
        bounds += " " + _("At least %(minimum)s points, or 0 for a warning.") % {"minimum": minimum}
    return bounds


class PenaltyForm(forms.Form):
    """The fields of one kind of penalty. ``players`` are the registrations it may concern (the four of a
    table, or the one of a player page); ``sessions`` is given when the session is chosen on the form."""

    path_fields = {
        "player": "player",
        "by": "substitute",
        "minutes_late": "minutes_late",
        "variant": "variant",
        "scope": "scope",
        "session": "session",
        "during": "during",
        "hand_number": "hand_number",
    }

    def __init__(
        self,
        *args,
        kind: str,
        rules: Ruleset,
        players: Sequence[tuple[Registration, str]],
        sessions: Sequence[Session] | None = None,
        substitutes: Sequence[Registration] = (),
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.kind = kind
        asks = kind_of(kind)
        self.rules = rules
        self.players = {str(r.key): r for r, _ in players}
        self.sessions = {str(s.number): s for s in sessions or ()}
        self.substitutes = {str(r.key): r for r in substitutes}
        self._add_who_and_when(kind, players, sessions, asks)
        self._add_what_happened(asks, rules)
        self._add_points(asks, rules)
        self._add_outcome(asks, rules, substitutes)

    def _add_who_and_when(self, kind: str, players, sessions, asks) -> None:
        """The kind, the player (unless one), the session (when chosen here), the hand."""
        f = self.fields
        f["kind"] = forms.CharField(widget=forms.HiddenInput, initial=kind)
        self.only = players[0][0] if len(players) == 1 else None
        if self.only is None:
            f["player"] = forms.ChoiceField(
                label=_("Player"),
                choices=[("", "—"), *[(r.key, registration_label(r, wind)) for r, wind in players]],
            )
        if sessions is not None:
            f["session"] = forms.ChoiceField(
                label=_("Session"),
                choices=[("", "—"), *[(str(s.number), str(s.number)) for s in sessions]],
                required=asks.session_required,
            )
        if asks.at_hand:
            f["hand_number"] = forms.IntegerField(
                label=_("Hand number"),
                min_value=1,
                max_value=99,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )

    def _add_what_happened(self, asks, rules: Ruleset) -> None:
        """Minutes late, what a false hu showed, a foul that carries on."""
        f = self.fields
        if "minutes_late" in asks.fields:
            f["minutes_late"] = forms.IntegerField(
                label=_("Minutes late"),
                min_value=0,
                max_value=600,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                help_text=late_arrival_help(rules),
            )
        if "variant" in asks.fields and rules.false_hu_variants:
            f["variant"] = forms.ChoiceField(
                label=_("What was shown"),
                widget=forms.RadioSelect,
                choices=_variant_choices(rules),
            )
        if "persists" in asks.fields:
            f["persists"] = forms.BooleanField(
                label=_("Obstruction or time-wasting (the count carries on to the next sessions)"),
                required=False,
            )

    def _add_points(self, asks, rules: Ruleset) -> None:
        """The points a referee's decision or a table deduction takes."""
        f = self.fields
        if "points" in asks.fields:
            f["points"] = forms.CharField(
                label=_("Points (0 or negative)"),
                max_length=20,
                help_text=_points_help(rules),
                widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
            )
        if "table_points" in asks.fields:
            f["table_points"] = forms.CharField(
                label=_("Table points to deduct (negative)"),
                max_length=20,
                widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
            )

    def _add_outcome(self, asks, rules: Ruleset, substitutes) -> None:
        """What a disqualification covers, who replaces the player and why, or the reason."""
        f = self.fields
        if "scope" in asks.fields:
            f["scope"] = forms.ChoiceField(
                label=_("Disqualified from"),
                choices=Scope.choices,
                widget=forms.RadioSelect,
                initial=Scope.SESSION,
            )
        if "substitute" in asks.fields:
            f["substitute"] = forms.ChoiceField(
                label=_("Replaced by"),
                choices=[
                    ("", "—"),
                    *[
                        (
                            r.key,
                            registration_label(r) + (" · " + str(_("substitute")) if r.is_substitute else ""),
                        )
                        for r in substitutes
                    ],
                ],
            )
            f["reason"] = forms.ChoiceField(
                label=_("Why"), choices=SUBSTITUTION_REASON_CHOICES, widget=forms.RadioSelect
            )
            f["during"] = forms.BooleanField(
                label=_(
                    "After the game at the table began (the substitute's score does not count for the "
                    "others' uma)"
                )
                if rules.substitute_outside_uma()
                else _("During the session (illness: the substitute gets no table points)"),
                required=False,
            )
        else:
            needs_reason = asks.reason_asked
            f["reason"] = forms.CharField(
                label=_("Reason") if needs_reason else _("Reason (optional)"),
                required=needs_reason,
                max_length=500,
                widget=forms.TextInput(attrs={"autocomplete": "off"}),
            )

    # -- errors from the service ------------------------------------------------------------------------
    def add_rule_error(self, exc: RuleError) -> None:
        path = exc.path or ""
        name = self.path_fields.get(path)
        if path == "points":
            name = "points" if "points" in self.fields else "table_points"
        if path == "reason":
            name = "reason"
        self.add_error(name if name in self.fields else None, exc.message)

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("player") and cleaned["player"] not in self.players:
            self.add_error("player", _("Choose a player of this table."))
        if "session" in self.fields:
            scope = cleaned.get("scope")
            if not cleaned.get("session") and scope != Scope.TOURNAMENT:
                self.add_error("session", _("Choose the session."))
        if cleaned.get("substitute") and cleaned["substitute"] not in self.substitutes:
            self.add_error("substitute", _("Choose a registered substitute."))
        for name in ("points", "table_points"):
            if cleaned.get(name):
                try:
                    cleaned[name] = parse_points(cleaned[name])
                except RuleError as exc:
                    self.add_error(
                        name, _("Enter a number, such as -15. (%(problem)s)") % {"problem": exc.message}
                    )
        return cleaned

    # -- the service's arguments ------------------------------------------------------------------------
    @property
    def registration(self) -> Registration:
        return self.only or self.players[self.cleaned_data["player"]]

    def chosen_session(self, fixed: Session | None) -> Session | None:
        if self.cleaned_data.get("scope") == Scope.TOURNAMENT:
            return None
        if fixed is not None:
            return fixed
        return self.sessions.get(self.cleaned_data.get("session") or "")

    def service_kwargs(self, *, session: Session | None, table: Table | None) -> dict[str, Any]:
        c = self.cleaned_data
        return {
            "registration": self.registration,
            "kind": self.kind,
            "session": session,
            "table": table,
            "hand_number": c.get("hand_number"),
            "variant": c.get("variant", ""),
            "minutes_late": c.get("minutes_late"),
            "persists": bool(c.get("persists")),
            "scope": c.get("scope", ""),
            "substitute": self.substitutes.get(c.get("substitute") or ""),
            "during": bool(c.get("during")),
            "reason": c.get("reason", ""),
            "points": c.get("points"),
            "table_points": c.get("table_points"),
        }


class CancelForm(forms.Form):
    reason = forms.CharField(label=_("Reason for cancelling"), max_length=500)


class AppealForm(forms.Form):
    appeal = forms.CharField(label=_("Appeal"), max_length=2000, widget=forms.Textarea(attrs={"rows": 2}))
    decision = forms.CharField(
        label=_("Decision (when heard)"),
        max_length=2000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class PenaltyFilterForm(forms.Form):
    session = forms.ChoiceField(label=_("Session"), required=False)
    kind = forms.ChoiceField(label=_("Kind"), required=False)

    def __init__(self, *args, sessions: Sequence[Session], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["session"].choices = [
            ("", _("All sessions")),
            *[(str(s.number), str(s.number)) for s in sessions],
        ]
        self.fields["kind"].choices = [("", _("All kinds")), *Kind.choices]
