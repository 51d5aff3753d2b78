"""Forms of the director's seating pages: generate, import, swap and the seating settings."""

from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Registration, Session, Tournament
from tournaments.seating.selectors import (
    IMPORT_MAX_CHARS,
    NAMES_AUTO,
    NAMES_KEYS,
    NAMES_NUMBERS,
    RANDOM,
    SCHEDULE,
    SWISS,
    SeatingConfig,
    seatable_sessions,
    seating_config,
)

STRATEGY_CHOICES = [
    (SCHEDULE, _("Whole schedule: fewest repeated meetings over all the chosen sessions")),
    (SWISS, _("Swiss: from the current standings, leaders together (one session)")),
    (RANDOM, _("Random draw, then repeated meetings removed")),
]

NAMES_CHOICES = [
    (NAMES_AUTO, _("Detect (keys or numbers)")),
    (NAMES_KEYS, _("Registration keys (p1, s1, …)")),
    (NAMES_NUMBERS, _("Numbers in the player list (1, 2, …)")),
]

MAX_SEED = 2**31 - 1


class _SessionsField(forms.TypedMultipleChoiceField):
    widget = forms.CheckboxSelectMultiple
    default_error_messages = {
        "invalid_choice": _(
            "Session %(value)s cannot be seated now: it is published (unpublish it first) or has results."
        ),
    }


class _SessionChoiceMixin:
    """A ``sessions`` field listing the sessions the director may seat now."""

    def _set_sessions(self, tournament: Tournament) -> None:
        self.tournament = tournament
        self.seatable = seatable_sessions(tournament=tournament)
        self.fields["sessions"].choices = [
            (s.number, _("Session %(n)s") % {"n": s.number}) for s in self.seatable
        ]
        if not self.is_bound:
            empty = [s.number for s in self.seatable if s.state == "empty"]
            self.initial.setdefault("sessions", empty[:1] or [s.number for s in self.seatable][:1])

    def clean_sessions(self) -> list[Session]:
        numbers = self.cleaned_data["sessions"]
        if not numbers:
            raise forms.ValidationError(_("Choose at least one session."))
        return [s.session for s in self.seatable if s.number in numbers]


class GenerateForm(_SessionChoiceMixin, forms.Form):
    strategy = forms.ChoiceField(
        label=_("Strategy"), choices=STRATEGY_CHOICES, initial=SCHEDULE, widget=forms.RadioSelect
    )
    sessions = _SessionsField(label=_("Sessions"), coerce=int, required=False)
    seed = forms.IntegerField(
        label=_("Seed"),
        min_value=0,
        max_value=MAX_SEED,
        required=False,
        help_text=_("The same seed and players give the same seating; change it for another one."),
    )

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self._set_sessions(tournament)
        self.fields["seed"].initial = seating_config(tournament=tournament).seed


class ImportForm(_SessionChoiceMixin, forms.Form):
    sessions = _SessionsField(
        label=_("Sessions"),
        coerce=int,
        required=False,
        help_text=_("The schedule must hold exactly as many sessions, in this order."),
    )
    names = forms.ChoiceField(label=_("Players are written as"), choices=NAMES_CHOICES, initial=NAMES_AUTO)
    text = forms.CharField(
        label=_("Schedule"),
        required=False,
        max_length=IMPORT_MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false", "placeholder": "p1-p2-p3-p4\n…"}),
        help_text=_(
            "One table per line, four players in seat order East, South, West, North (p1-p2-p3-p4); "
            "a blank line or “Session 2” between sessions; or CSV with a header "
            "(session, table, east, south, west, north)."
        ),
    )
    file = forms.FileField(label=_("or a file"), required=False)

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self._set_sessions(tournament)

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        if upload is not None:
            if upload.size > IMPORT_MAX_CHARS * 4:
                raise forms.ValidationError(_("The file is too large."))
            raw = upload.read()
            try:
                data["text"] = raw.decode("utf-8-sig")
            except UnicodeDecodeError as exc:
                raise forms.ValidationError(_("The file is not UTF-8 text.")) from exc
        if not (data.get("text") or "").strip():
            raise forms.ValidationError(_("Paste the schedule or choose a file."))
        return data


class SwapForm(forms.Form):
    a = forms.ChoiceField(label=_("Player"))
    b = forms.ChoiceField(label=_("swaps seats with"))

    def __init__(self, *args, players: list[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "—"), *players]
        self.fields["a"].choices = choices
        self.fields["b"].choices = choices

    def clean(self):
        data = super().clean()
        if data.get("a") and data.get("a") == data.get("b"):
            raise forms.ValidationError(_("Choose two different players."))
        return data


_FIXED_LINE = re.compile(r"^\s*([^\s:=,;]+)\s*[:=,;\s]\s*(\d+)\s*$")


class SettingsForm(forms.Form):
    seed = forms.IntegerField(
        label=_("Seed"),
        min_value=0,
        max_value=MAX_SEED,
        initial=0,
        help_text=_("The same seed and players give the same seating; change it for another one."),
    )
    avoid_same_country = forms.BooleanField(label=_("Keep players of the same country apart"), required=False)
    country_sessions = forms.IntegerField(
        label=_("For how many sessions (countries)"),
        min_value=0,
        required=False,
        help_text=_("Counted from the first session. Empty: every session."),
    )
    avoid_same_club = forms.BooleanField(label=_("Keep players of the same club apart"), required=False)
    club_sessions = forms.IntegerField(
        label=_("For how many sessions (clubs)"),
        min_value=0,
        required=False,
        help_text=_("Counted from the first session. Empty: every session."),
    )
    fixed_tables = forms.CharField(
        label=_("Fixed tables"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false", "placeholder": "p7: 1"}),
        help_text=_("One player per line: key and table number (p7: 1), e.g. for accessibility."),
    )
    separate = forms.CharField(
        label=_("Keep apart"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false", "placeholder": "p1, p2"}),
        help_text=_("One group per line: keys of players who must never share a table (p1, p2)."),
    )

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.keys = set(Registration.objects.filter(tournament=tournament).values_list("key", flat=True))
        if not self.is_bound:
            config = seating_config(tournament=tournament)
            self.initial.update(
                seed=config.seed,
                avoid_same_country=config.avoid_same_country,
                country_sessions=config.country_sessions,
                avoid_same_club=config.avoid_same_club,
                club_sessions=config.club_sessions,
                fixed_tables="\n".join(f"{k}: {t}" for k, t in config.fixed_tables.items()),
                separate="\n".join(", ".join(g) for g in config.separate),
            )

    def _key(self, token: str, line: int, errors: list[str]) -> str | None:
        if token in self.keys:
            return token
        lowered = {k.lower(): k for k in self.keys}
        if token.lower() in lowered:
            return lowered[token.lower()]
        errors.append(_("Line %(line)s: no player has the key %(key)s.") % {"line": line, "key": token})
        return None

    def clean_fixed_tables(self) -> dict[str, int]:
        out: dict[str, int] = {}
        errors: list[str] = []
        for line, text in enumerate(self.cleaned_data["fixed_tables"].splitlines(), start=1):
            if not text.strip():
                continue
            match = _FIXED_LINE.match(text)
            if not match:
                errors.append(
                    _("Line %(line)s: write a key and a table number, like p7: 1.") % {"line": line}
                )
                continue
            key = self._key(match.group(1), line, errors)
            table = int(match.group(2))
            if table < 1:
                errors.append(_("Line %(line)s: tables are numbered from 1.") % {"line": line})
            elif key is not None:
                if key in out:
                    errors.append(
                        _("Line %(line)s: %(key)s already has a fixed table.") % {"line": line, "key": key}
                    )
                out[key] = table
        if errors:
            raise forms.ValidationError(errors)
        return out

    def clean_separate(self) -> tuple[tuple[str, ...], ...]:
        groups: list[tuple[str, ...]] = []
        errors: list[str] = []
        for line, text in enumerate(self.cleaned_data["separate"].splitlines(), start=1):
            tokens = [t for t in re.split(r"[\s,;]+", text) if t]
            if not tokens:
                continue
            keys = [self._key(t, line, errors) for t in tokens]
            group = tuple(dict.fromkeys(k for k in keys if k is not None))
            if len(tokens) < 2:
                errors.append(_("Line %(line)s: a group needs at least two players.") % {"line": line})
            elif len(group) > 1:
                groups.append(group)
        if errors:
            raise forms.ValidationError(errors)
        return tuple(groups)

    def config(self) -> SeatingConfig:
        data = self.cleaned_data
        return SeatingConfig(
            seed=data["seed"],
            avoid_same_club=data["avoid_same_club"],
            avoid_same_country=data["avoid_same_country"],
            club_sessions=data["club_sessions"],
            country_sessions=data["country_sessions"],
            fixed_tables=data["fixed_tables"],
            separate=data["separate"],
        )
