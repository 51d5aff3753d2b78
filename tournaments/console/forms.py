"""Forms of the director's console."""

from __future__ import annotations

import datetime as dt

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from tournaments.console.plan import MAX_SESSIONS, day_plan, parse_times
from tournaments.countries import is_country
from tournaments.models import RULESET_CHOICES, Registration, Role, Session, Tournament

DATE_WIDGET = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


def _country(value: str) -> str:
    value = (value or "").strip().upper()
    if value and not is_country(value):
        raise forms.ValidationError(
            _("%(value)s is not an ISO 3166 three-letter country code (for example ESP, FRA, NLD)."),
            params={"value": value},
        )
    return value


class TournamentForm(forms.Form):
    """Name, ruleset, dates, place and visibility; on creation also the sessions from a day plan."""

    name = forms.CharField(label=_("Name"), max_length=200)
    ruleset = forms.ChoiceField(label=_("Ruleset"), choices=RULESET_CHOICES)
    starts_on = forms.DateField(label=_("First day"), widget=DATE_WIDGET)
    days = forms.IntegerField(label=_("Days"), min_value=1, max_value=30, initial=1)
    city = forms.CharField(label=_("City"), max_length=100, required=False)
    country = forms.CharField(
        label=_("Country"), max_length=3, required=False, help_text=_("Three letters: ESP, FRA, NLD…")
    )
    is_public = forms.BooleanField(
        label=_("Public"), required=False, initial=True, help_text=_("Anyone can see its pages.")
    )
    hide_last_sessions = forms.IntegerField(
        label=_("Hide the standings of the last sessions"),
        min_value=0,
        max_value=MAX_SESSIONS,
        initial=0,
        help_text=_("The public sees the standings before them until you reveal the results."),
    )
    clock_with_session = forms.BooleanField(
        label=_("The clock starts with the session"),
        required=False,
        initial=True,
        help_text=_("Starting a session starts its clock; without this, you start the clock yourself."),
    )

    language = forms.ChoiceField(
        label=_("Language of the venue screen and printouts"),
        required=False,
        help_text=_("Unless a reader chose another language; “Each reader's own” follows each browser."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "language" in self.fields:
            self.fields["language"].choices = [("", _("Each reader's own")), *settings.LANGUAGES]

    def clean_country(self):
        return _country(self.cleaned_data.get("country", ""))


class NewTournamentForm(TournamentForm):
    language = None  # chosen afterwards, on the tournament's details
    sessions = forms.IntegerField(
        label=_("Sessions"),
        min_value=1,
        max_value=MAX_SESSIONS,
        initial=4,
        help_text=_(
            "For the EMA ranking (ERGMT §3.6): at least 4 sessions for one day; for two days 6 (MCR) or 7 "
            "(riichi); for three days 9 (MCR) or 11 (riichi)."
        ),
    )
    times = forms.CharField(
        label=_("Start times of a day"),
        max_length=100,
        initial="10:00, 15:00",
        help_text=_("The sessions start at these times each day, in order; you can change each one later."),
    )

    def clean_times(self):
        try:
            times = parse_times(self.cleaned_data["times"])
        except ValueError as exc:
            raise forms.ValidationError(
                _("%(value)s is not a list of times such as 10:00, 15:00."), params={"value": str(exc)}
            ) from None
        if not times:
            raise forms.ValidationError(_("Give at least one start time."))
        return times

    def session_starts(self) -> list[dt.datetime]:
        data = self.cleaned_data
        return day_plan(
            starts_on=data["starts_on"], days=data["days"], sessions=data["sessions"], times=data["times"]
        )


class SessionTimesForm(forms.Form):
    """One start time per session."""

    def __init__(self, *args, sessions: list[Session], **kwargs):
        super().__init__(*args, **kwargs)
        from django.utils import timezone

        for session in sessions:
            local = timezone.localtime(session.starts_at) if session.starts_at else None
            self.fields[f"s{session.number}"] = forms.DateTimeField(
                label=_("Session %(n)s") % {"n": session.number},
                required=False,
                initial=local.strftime("%Y-%m-%dT%H:%M") if local else None,
                widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
                input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
            )

    def starts(self) -> dict[int, dt.datetime | None]:
        return {int(name[1:]): value for name, value in self.cleaned_data.items()}


class StaffAddForm(forms.Form):
    who = forms.CharField(label=_("Username or e-mail"), max_length=254)
    role = forms.ChoiceField(
        label=_("Role"),
        choices=[(Role.REFEREE, _("Referee")), (Role.SCORER, _("Scorer")), (Role.DIRECTOR, _("Director"))],
    )


class StaffCreateForm(forms.Form):
    username = forms.CharField(label=_("New username"), max_length=150)
    email = forms.EmailField(label=_("E-mail (optional)"), required=False)
    role = forms.ChoiceField(
        label=_("Role"),
        choices=[(Role.REFEREE, _("Referee")), (Role.SCORER, _("Scorer")), (Role.DIRECTOR, _("Director"))],
    )
    access = forms.ChoiceField(
        label=_("How they sign in"),
        choices=[("link", _("A one-time sign-in link")), ("password", _("A generated password, shown once"))],
        initial="link",
        widget=forms.RadioSelect,
    )


class PlayerForm(forms.Form):
    first_name = forms.CharField(label=_("First name"), max_length=100)
    last_name = forms.CharField(label=_("Last name"), max_length=100, required=False)
    country = forms.CharField(label=_("Country"), max_length=3, required=False, help_text=_("ESP, FRA, NLD…"))
    club = forms.CharField(label=_("Club"), max_length=150, required=False)
    ema_id = forms.RegexField(
        label=_("EMA number"),
        regex=r"^\d{8}$",
        required=False,
        error_messages={"invalid": _("An EMA number has exactly 8 digits (leading zeros kept).")},
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    is_substitute = forms.BooleanField(label=_("Substitute"), required=False)
    same_player = forms.TypedChoiceField(
        label=_("Possible duplicates"), required=False, coerce=int, empty_value=None, widget=forms.RadioSelect
    )

    def __init__(self, *args, duplicates=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.set_duplicates(duplicates)

    def set_duplicates(self, duplicates) -> None:
        choices = [
            (
                p.pk,
                _("Register %(name)s%(ema)s, already known")
                % {"name": p.full_name, "ema": f" ({p.ema_id})" if p.ema_id else ""},
            )
            for p in duplicates
        ]
        choices.append((0, _("No: a different person, save a new player")))
        self.fields["same_player"].choices = choices
        self.duplicates = list(duplicates)

    def clean_country(self):
        return _country(self.cleaned_data.get("country", ""))


class WithdrawForm(forms.Form):
    from_session = forms.IntegerField(label=_("First session missed"), min_value=1, max_value=MAX_SESSIONS)


class EMAListForm(forms.Form):
    file = forms.FileField(
        label=_("EMA player list (CSV)"),
        help_text=_("Columns: EMA number, first name, last name, country; with or without a header line."),
    )


ANSWER_CHOICES = [
    ("", _("not asked yet")),
    ("yes", _("yes: his results count, he is ranked")),
    ("no", _("no: he plays for the others, not ranked")),
]


class CheckinForm(forms.Form):
    """Present or absent for every registered player due to play, and what happens to the absent: absent
    from this session only (a substitute plays it; the player plays the later sessions) or withdrawn
    (out of the tournament from this session on). Before the first session, each substitute's answer to
    ERGMT §3.9: do his results count?"""

    new_substitutes = forms.CharField(
        label=_("New substitutes"),
        required=False,
        max_length=500,
        help_text=_("Names of substitutes who came today, one per line."),
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(
        self,
        *args,
        session: Session,
        registrations: list[Registration],
        first_session: bool = False,
        answers: dict[str, bool] | None = None,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.session = session
        self.first_session = first_session
        self.players = [r for r in registrations if not r.is_substitute and r.is_active_in(session.number)]
        self.subs = [r for r in registrations if r.is_substitute and r.is_active_in(session.number)]
        checked = set(session.checked_in or [])
        saved = bool(checked)  # before the check-in is first saved, everybody starts present, substitutes too
        away = set(session.absent or [])
        for r in self.players:
            initial = "substitute" if r.key in away else "present"
            self.fields[f"p_{r.key}"] = forms.ChoiceField(
                label=r.player.full_name,
                choices=[
                    ("present", _("present")),
                    ("substitute", _("absent this session: a substitute plays")),
                    ("withdraw", _("withdrawn: leaves the tournament")),
                ],
                initial=initial,
                widget=forms.Select,
            )
        answers = answers or {}
        for r in self.subs:
            self.fields[f"s_{r.key}"] = forms.BooleanField(
                label=_("%(name)s (substitute) is here") % {"name": r.player.full_name},
                required=False,
                initial=r.key in checked or not saved,
            )
            if first_session:
                known = answers.get(r.key)
                self.fields[f"c_{r.key}"] = forms.ChoiceField(
                    label=_("%(name)s: do his results count in the ranking?") % {"name": r.player.full_name},
                    help_text=_(
                        "Asked before the first session of a substitute who plays from the start (ERGMT "
                        "§3.9). The same answer as on the EMA submission page."
                    ),
                    choices=ANSWER_CHOICES,
                    required=False,
                    initial="" if known is None else ("yes" if known else "no"),
                )

    def player_fields(self):
        return [self[f"p_{r.key}"] for r in self.players]

    def sub_fields(self):
        return [self[f"s_{r.key}"] for r in self.subs]

    def answer_fields(self):
        return [self[f"c_{r.key}"] for r in self.subs if f"c_{r.key}" in self.fields]

    def answers(self) -> dict[str, bool | None]:
        """The substitutes' answers as chosen (None: not asked yet); empty after the first session."""
        if not self.first_session:
            return {}
        values = {"yes": True, "no": False, "": None}
        return {r.key: values[self.cleaned_data.get(f"c_{r.key}") or ""] for r in self.subs}

    def outcome(self) -> tuple[set[str], dict[str, str], list[str], list[str]]:
        present, absent = set(), {}
        for r in self.players:
            choice = self.cleaned_data[f"p_{r.key}"]
            if choice == "present":
                present.add(r.key)
            else:
                absent[r.key] = choice
        subs = [r.key for r in self.subs if self.cleaned_data.get(f"s_{r.key}")]
        new = [
            line.strip()[:100]
            for line in self.cleaned_data.get("new_substitutes", "").splitlines()
            if line.strip()
        ]
        return present, absent, subs, new[:20]


def tournament_initial(tournament: Tournament) -> dict:
    return {
        "name": tournament.name,
        "ruleset": tournament.ruleset,
        "starts_on": tournament.starts_on,
        "days": tournament.days,
        "city": tournament.city,
        "country": tournament.country,
        "is_public": tournament.is_public,
        "language": tournament.language,
        "hide_last_sessions": int((tournament.settings or {}).get("hide_last_sessions") or 0),
        "clock_with_session": bool((tournament.settings or {}).get("clock_with_session", True)),
    }
