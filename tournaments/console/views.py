"""The director's console: thin pages over the domains' services (organising, staff, registrations,
sessions) and the console's selectors.

Every page checks the role in the tournament it touches; the EMA list needs an organiser, a director of
some tournament or a site admin; creating a tournament needs an organiser.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from rankings.standings import selectors as rk
from rankings.submission.engine import format_shortfall
from scoring.presenters import needs_referee
from scoring.rules.base import RuleError
from scoring.selectors import session_tables
from tournaments import lifecycle, presenters
from tournaments import selectors as tsel
from tournaments.api import player_foreign_tournaments, visible_players
from tournaments.console import confirmations, selectors
from tournaments.console.first_run import FirstRunClosed, accounts_exist, first_organiser_create
from tournaments.console.forms import (
    CheckinForm,
    EMAListForm,
    NewTournamentForm,
    PlayerForm,
    SessionTimesForm,
    StaffAddForm,
    StaffCreateForm,
    TournamentForm,
    WithdrawForm,
    tournament_initial,
)
from tournaments.console.rules_form import RulesForm
from tournaments.lifecycle import Blocked
from tournaments.models import Player, Registration, Role, Session, Tournament, TournamentRole
from tournaments.organising import services as organising_services
from tournaments.permissions import can_create_tournament, can_manage, is_any_director, user_roles
from tournaments.registrations import checkin as checkin_services
from tournaments.registrations import ema_list as ema_list_services
from tournaments.registrations import services as registration_services
from tournaments.seating.engine import SeatingError
from tournaments.selectors import HIDE_SETTING
from tournaments.services import player_hidden_error as base_player_hidden_error
from tournaments.services import registration_withdraw
from tournaments.sessions import services as session_services
from tournaments.staff import services as staff_services


def _director_tournament(request, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not can_manage(request.user, tournament):
        raise PermissionDenied(_("You need the director role in this tournament."))
    return tournament


def _page(request, template: str, tournament: Tournament | None, **context):
    if tournament is not None:
        context.setdefault("tournament", tournament)
        context.setdefault("roles", user_roles(request.user, tournament))
    return render(request, f"tournaments/console/{template}", context, status=context.pop("status", 200))


def _errors(form, exc: ValidationError) -> None:
    if hasattr(exc, "error_dict"):
        for field, errors in exc.message_dict.items():
            for error in errors:
                form.add_error(field if field in form.fields else None, error)
    else:
        for error in exc.messages:
            form.add_error(None, error)


def _confirm_page(request, tournament: Tournament, confirmation, *, back_url: str):
    """The confirmation step of a one-tap action: what it will do, in numbers; its button posts to this URL."""
    return _page(
        request,
        "confirm.html",
        tournament,
        confirmation=confirmation,
        action_url=request.path,
        back_url=back_url,
    )


def _blocked(request, exc: Blocked) -> None:
    for reason in exc.reasons:
        messages.error(request, reason)


# -- a person's tournaments and creating one ------------------------------------------------------------


@login_required
def my_tournaments(request):
    return render(
        request,
        "tournaments/console/my_tournaments.html",
        {
            "mine": selectors.my_tournaments(user=request.user),
            "can_create": can_create_tournament(request.user),
            "can_ema_list": _may_keep_ema_list(request.user),
        },
    )


@login_required
def tournament_new(request):
    if not can_create_tournament(request.user):
        raise PermissionDenied(_("Only organisers create tournaments; a site admin can make you one."))
    form = NewTournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = organising_services.tournament_open(
                director=request.user,
                name=data["name"],
                ruleset=data["ruleset"],
                starts_on=data["starts_on"],
                days=data["days"],
                city=data["city"],
                country=data["country"],
                is_public=data["is_public"],
                settings={
                    **(
                        {"hide_last_sessions": data["hide_last_sessions"]}
                        if data["hide_last_sessions"]
                        else {}
                    ),
                    **({} if data["clock_with_session"] else {lifecycle.CLOCK_SETTING: False}),
                },
                session_starts=form.session_starts(),
            )
        except ValidationError as exc:
            _errors(form, exc)
        else:
            messages.success(
                request,
                _("%(name)s is created. Check its rules, then add the players.") % {"name": tournament.name},
            )
            shortfall = format_shortfall(tournament.family, data["days"], data["sessions"])
            if shortfall is not None:
                messages.warning(request, str(shortfall))
            return redirect("console-rules", slug=tournament.slug)
    return _page(request, "tournament_new.html", None, form=form, status=400 if form.errors else 200)


# -- the console's front page ---------------------------------------------------------------------------


@login_required
def console_home(request, slug: str):
    tournament = _director_tournament(request, slug)
    sessions = list(tsel.session_list(tournament=tournament))
    registrations = list(tsel.registration_list(tournament=tournament))
    return _page(
        request,
        "home.html",
        tournament,
        sessions=sessions,
        players=sum(1 for r in registrations if not r.is_substitute),
        substitutes=sum(1 for r in registrations if r.is_substitute),
        staff=TournamentRole.objects.filter(tournament=tournament).select_related("user").order_by("role"),
        blockers=organising_services.tournament_blockers(tournament=tournament)
        if tournament.status != Tournament.Status.FINISHED
        else [],
        hidden_after=selectors.hidden_after(tournament=tournament),
        hide=int((tournament.settings or {}).get(HIDE_SETTING) or 0),
    )


@login_required
def tournament_edit(request, slug: str):
    tournament = _director_tournament(request, slug)
    sessions = list(Session.objects.filter(tournament=tournament).order_by("number"))
    form = TournamentForm(request.POST or None, initial=tournament_initial(tournament), prefix="t")
    times = SessionTimesForm(request.POST or None, sessions=sessions, prefix="s")
    if request.method == "POST" and form.is_valid() and times.is_valid():
        data = dict(form.cleaned_data)
        hide = data.pop("hide_last_sessions")
        settings = dict(tournament.settings or {})
        settings[HIDE_SETTING] = hide
        settings[lifecycle.CLOCK_SETTING] = data.pop("clock_with_session")
        rules = tournament.rules if data["ruleset"] == tournament.ruleset else {}
        try:
            organising_services.tournament_edit(
                tournament=tournament, fields={**data, "settings": settings}, rules=rules
            )
            session_services.session_times_set(tournament=tournament, starts=times.starts())
        except ValidationError as exc:
            _errors(form, exc)
        else:
            messages.success(request, _("The tournament is saved."))
            return redirect("console-home", slug=tournament.slug)
    return _page(
        request,
        "tournament_edit.html",
        tournament,
        form=form,
        times=times,
        confirmed=organising_services.confirmed_table_count(tournament=tournament),
    )


@login_required
@require_POST
def session_add(request, slug: str):
    tournament = _director_tournament(request, slug)
    session = session_services.session_add(tournament=tournament)
    messages.success(request, _("Session %(n)s added.") % {"n": session.number})
    return redirect("console-edit", slug=slug)


@login_required
@require_http_methods(["GET", "POST"])
def session_remove(request, slug: str):
    """GET: what removing the last session does, and the button that does it; POST: remove it."""
    tournament = _director_tournament(request, slug)
    if request.method == "GET":
        return _confirm_page(
            request,
            tournament,
            confirmations.session_remove(tournament=tournament),
            back_url=reverse("console-edit", args=[slug]),
        )
    try:
        number = session_services.session_remove_last(tournament=tournament)
    except Blocked as exc:
        _blocked(request, exc)
    else:
        messages.success(request, _("Session %(n)s removed.") % {"n": number})
    return redirect("console-edit", slug=slug)


@login_required
def rules_edit(request, slug: str):
    tournament = _director_tournament(request, slug)
    form = RulesForm(request.POST or None, ruleset=tournament.ruleset, current=tournament.rules)
    confirmed = organising_services.confirmed_table_count(tournament=tournament)
    if request.method == "POST" and form.is_valid():
        overrides = form.overrides()
        before = dict(tournament.rules or {})
        try:
            organising_services.tournament_edit(tournament=tournament, fields={}, rules=overrides)
        except ValidationError as exc:
            _errors(form, exc)
        else:
            text = _("The rules are saved.")
            if confirmed and overrides != before:
                text += " " + _("The confirmed tables were computed again under them.")
            messages.success(request, text)
            return redirect("console-home", slug=slug)
    return _page(
        request,
        "rules.html",
        tournament,
        form=form,
        confirmed=confirmed,
        changed=form.changed_rows(),
        rule_texts=presenters.rule_texts(tournament.get_rules()),
    )


# -- staff ----------------------------------------------------------------------------------------------


@login_required
def staff(request, slug: str):
    tournament = _director_tournament(request, slug)
    add_form = StaffAddForm(request.POST if request.POST.get("form") == "add" else None, prefix="add")
    create_form = StaffCreateForm(
        request.POST if request.POST.get("form") == "create" else None, prefix="new"
    )
    created = None
    if request.method == "POST":
        if request.POST.get("form") == "add" and add_form.is_valid():
            try:
                role = staff_services.staff_add(
                    tournament=tournament,
                    identifier=add_form.cleaned_data["who"],
                    role=add_form.cleaned_data["role"],
                )
            except ValidationError as exc:
                _errors(add_form, exc)
            else:
                messages.success(
                    request,
                    _("%(user)s is now %(role)s.")
                    % {"user": role.user.username, "role": role.get_role_display()},
                )
                return redirect("console-staff", slug=slug)
        elif request.POST.get("form") == "create" and create_form.is_valid():
            data = create_form.cleaned_data
            try:
                created = staff_services.staff_create(
                    tournament=tournament,
                    username=data["username"],
                    email=data["email"],
                    role=data["role"],
                    with_link=data["access"] == "link",
                )
            except ValidationError as exc:
                _errors(create_form, exc)
            else:
                create_form = StaffCreateForm(prefix="new")
        elif request.POST.get("form") == "remove":
            try:
                staff_services.staff_remove(
                    tournament=tournament,
                    role_id=int(request.POST.get("role_id") or 0),
                    acting_user=request.user,
                )
            except TournamentRole.DoesNotExist:
                raise Http404 from None
            except (ValueError, Blocked) as exc:
                if isinstance(exc, Blocked):
                    _blocked(request, exc)
            return redirect("console-staff", slug=slug)
    link = request.build_absolute_uri(created.sign_in_path) if created and created.sign_in_path else ""
    return _page(
        request,
        "staff.html",
        tournament,
        add_form=add_form,
        create_form=create_form,
        created=created,
        link=link,
        staff=TournamentRole.objects.filter(tournament=tournament)
        .select_related("user")
        .order_by("role", "user__username"),
        status=400 if (add_form.errors or create_form.errors) else 200,
    )


def sign_in(request, uid: str, token: str):
    """A helper's one-time sign-in link: valid until the account signs in once or sets a password."""
    user = staff_services.sign_in_link_user(uid=uid, token=token)
    if user is None:
        return render(request, "tournaments/console/sign_in_used.html", status=410)
    if request.method == "POST":
        # consumed atomically: of simultaneous requests with the link, one signs in
        user = staff_services.sign_in_link_use(uid=uid, token=token)
        if user is None:
            return render(request, "tournaments/console/sign_in_used.html", status=410)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("You are signed in. Choose a password to sign in next time."))
        return redirect("console-password")
    return render(request, "tournaments/console/sign_in.html", {"helper": user})


@login_required
def password_set(request):
    """Choose a password (a helper who came with a one-time link has none yet)."""
    from django.contrib.auth import update_session_auth_hash
    from django.contrib.auth.forms import SetPasswordForm

    form = SetPasswordForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        form.save()
        update_session_auth_hash(request, form.user)
        messages.success(request, _("Your password is saved."))
        return redirect("my-tournaments")
    return render(
        request, "tournaments/console/password.html", {"form": form}, status=400 if form.errors else 200
    )


def first_organiser(request):
    """A new server's first account, an organiser: offered only while no account exists, then never again."""
    from django.contrib.auth.forms import UserCreationForm
    from django.db import DatabaseError

    if accounts_exist():
        raise Http404("An account exists already.")
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = first_organiser_create(
                username=form.cleaned_data["username"], password=form.cleaned_data["password1"]
            )
        except (FirstRunClosed, DatabaseError):
            raise Http404("An account exists already.") from None
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Your account is ready: you may now create your first tournament."))
        return redirect("tournament-new")
    return render(
        request,
        "tournaments/console/first_organiser.html",
        {"form": form},
        status=400 if form.errors else 200,
    )


# -- players --------------------------------------------------------------------------------------------


def _registration(tournament: Tournament, key: str) -> Registration:
    return get_object_or_404(Registration.objects.select_related("player"), tournament=tournament, key=key)


@login_required
def players(request, slug: str):
    tournament = _director_tournament(request, slug)
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        duplicates = registration_services.possible_duplicates(
            tournament=tournament,
            first_name=data["first_name"],
            last_name=data["last_name"],
            ema_id=data["ema_id"],
            among=visible_players(request.user),
        )
        choice = data.get("same_player")
        existing = None
        if duplicates and choice is None:
            form.set_duplicates(duplicates)
            form.add_error(
                "same_player",
                _("Someone with this name or EMA number is already known: is it the same person?"),
            )
        else:
            if choice:
                existing = Player.objects.filter(pk=choice).first()
            try:
                if choice and existing is None:
                    raise base_player_hidden_error(field="same_player")
                registration = registration_services.player_register(
                    tournament=tournament,
                    first_name=data["first_name"],
                    last_name=data["last_name"],
                    ema_id=data["ema_id"],
                    country=data["country"],
                    club=data["club"],
                    is_substitute=data["is_substitute"],
                    existing=existing,
                    user=request.user,
                )
            except ValidationError as exc:
                _errors(form, exc)
            else:
                messages.success(
                    request,
                    _("%(name)s is registered (%(key)s).")
                    % {"name": registration.player.full_name, "key": registration.key},
                )
                return redirect(reverse("console-players", args=[slug]) + "#add")
    registrations = list(tsel.registration_list(tournament=tournament))
    return _page(
        request,
        "players.html",
        tournament,
        form=form,
        registrations=registrations,
        count=sum(1 for r in registrations if not r.is_substitute),
        ema_list_size=selectors.EMAPlayer.objects.count(),
        status=400 if form.errors else 200,
    )


@login_required
def ema_search(request, slug: str):
    """The add form's search of the EMA player list, as you type (htmx)."""
    tournament = _director_tournament(request, slug)
    query = request.GET.get("ema_q", "")[:60]
    return render(
        request,
        "tournaments/console/_ema_found.html",
        {
            "tournament": tournament,
            "query": query,
            "found": selectors.ema_list_search(query=query) if len(query.strip()) >= 2 else [],
            "registered": selectors.registered_ema_ids(tournament=tournament),
        },
    )


@login_required
@require_POST
def ema_register(request, slug: str):
    tournament = _director_tournament(request, slug)
    line = get_object_or_404(selectors.EMAPlayer, ema_id=request.POST.get("ema_id", "")[:8])
    try:
        registration = registration_services.player_register(
            tournament=tournament,
            first_name=line.first_name,
            last_name=line.last_name,
            ema_id=line.ema_id,
            country=line.country,
            is_substitute=request.POST.get("is_substitute") == "1",
            user=request.user,
        )
    except ValidationError as exc:
        for error in exc.messages:
            messages.error(request, error)
    else:
        messages.success(
            request,
            _("%(name)s is registered (%(key)s).")
            % {"name": registration.player.full_name, "key": registration.key},
        )
    return redirect(reverse("console-players", args=[slug]) + "#add")


def _shared_player_refusal(user, player: Player, data: dict) -> str:
    """Players are shared by every tournament: a director changes a player's details only while the
    player plays in no tournament the director does not direct (site admins always)."""
    details = ("first_name", "last_name", "country", "club", "ema_id")
    current = {name: getattr(player, name) or "" for name in details}
    wanted = {name: (data.get(name) or "").strip() for name in details}
    wanted["country"] = wanted["country"].upper()
    if current == wanted or user.is_staff or user.is_superuser:
        return ""
    others = player_foreign_tournaments(player=player, user=user)
    if not others:
        return ""
    return ngettext(
        "This player also plays in %(n)s tournament you do not direct, where a change would show too: "
        "only a site admin can change the player's details.",
        "This player also plays in %(n)s tournaments you do not direct, where a change would show too: "
        "only a site admin can change the player's details.",
        others,
    ) % {"n": others}


@login_required
def player_edit(request, slug: str, key: str):
    tournament = _director_tournament(request, slug)
    registration = _registration(tournament, key)
    player = registration.player
    initial = {
        "first_name": player.first_name,
        "last_name": player.last_name,
        "country": player.country,
        "club": player.club,
        "ema_id": player.ema_id or "",
        "is_substitute": registration.is_substitute,
    }
    form = PlayerForm(request.POST if request.POST.get("form") == "edit" else None, initial=initial)
    withdraw = WithdrawForm(request.POST if request.POST.get("form") == "withdraw" else None)
    if request.method == "POST":
        action = request.POST.get("form")
        try:
            if action == "edit" and form.is_valid():
                done = _player_edit_save(request, tournament, registration, form)
            else:
                done = _player_step(request, registration, action, withdraw)
            if done:
                messages.success(request, done)
                return redirect("console-players", slug=slug)
        except Blocked as exc:
            _blocked(request, exc)
            return redirect("console-player", slug=slug, key=key)
        except ValidationError as exc:
            _errors(form if action == "edit" else withdraw, exc)
    form.set_duplicates(form.duplicates)
    if not form.duplicates:
        form.fields["same_player"].widget = form.fields["same_player"].hidden_widget()
    return _page(
        request,
        "player_edit.html",
        tournament,
        registration=registration,
        form=form,
        withdraw=withdraw,
        status=400 if (form.errors or withdraw.errors) else 200,
    )


def _player_edit_save(request, tournament, registration, form) -> str:
    """Save the player's details from the valid ``form``, unless another account's tournaments share the
    player or the details match a player already known (saved on the second try): the message of the
    saved change, or "" (the form then says why)."""
    data = form.cleaned_data
    others = registration_services.possible_duplicates(
        tournament=tournament,
        first_name=data["first_name"],
        last_name=data["last_name"],
        ema_id=data["ema_id"],
        exclude_registration=registration,
        among=visible_players(request.user),
    )
    shared = _shared_player_refusal(request.user, registration.player, data)
    if shared:
        form.add_error(None, shared)
        return ""
    if others and data.get("same_player") is None:
        form.set_duplicates([])
        form.add_error(
            "same_player",
            _("Also known: %(names)s. Save again to keep these details.")
            % {"names": ", ".join(p.full_name for p in others)},
        )
        return ""
    registration_services.registration_edit(
        registration=registration,
        first_name=data["first_name"],
        last_name=data["last_name"],
        ema_id=data["ema_id"],
        country=data["country"],
        club=data["club"],
        is_substitute=data["is_substitute"],
    )
    return _("%(name)s is saved.") % {"name": registration.player.full_name}


def _player_step(request, registration, action: str | None, withdraw) -> str:
    """Withdraw, reinstate or remove the registration: the message of the step done, or "" (none)."""
    name = registration.player.full_name
    if action == "withdraw" and withdraw.is_valid():
        registration_withdraw(registration=registration, from_session=withdraw.cleaned_data["from_session"])
        return _("%(name)s withdraws.") % {"name": name}
    if action == "reinstate":
        registration_services.registration_reinstate(registration=registration)
        return _("%(name)s plays again.") % {"name": name}
    if action == "remove":
        registration_services.registration_remove(registration=registration)
        return _("%(name)s is no longer registered.") % {"name": name}
    return ""


def _local(path: str) -> str:
    path = (path or "")[:200]
    return path if path.startswith("/") and not path.startswith("//") and "\\" not in path else ""


def _may_keep_ema_list(user) -> bool:
    return bool(
        user.is_authenticated and (user.is_staff or can_create_tournament(user) or is_any_director(user))
    )


@login_required
def ema_list(request):
    """Import the locally kept EMA player list (directors, organisers and site admins)."""
    if not _may_keep_ema_list(request.user):
        raise PermissionDenied(_("Only directors and site admins keep the EMA player list."))
    form = EMAListForm(request.POST or None, request.FILES or None)
    faults: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            report = ema_list_services.ema_list_import(
                data=form.cleaned_data["file"].read(),
                may_change=request.user.is_staff or request.user.is_superuser,
            )
        except Blocked as exc:
            faults = exc.reasons
        else:
            messages.success(
                request,
                _("EMA player list: %(new)s added, %(updated)s updated.")
                % {"new": report.created, "updated": report.updated},
            )
            if report.kept:
                messages.warning(
                    request,
                    ngettext(
                        "%(n)s EMA number was already on the list and is kept as it is: only a site admin "
                        "changes the list's lines.",
                        "%(n)s EMA numbers were already on the list and are kept as they are: only a site "
                        "admin changes the list's lines.",
                        report.kept,
                    )
                    % {"n": report.kept},
                )
            back = _local(request.POST.get("next", ""))
            if back:
                return redirect(back)
            return redirect("console-ema-list")
    return render(
        request,
        "tournaments/console/ema_list.html",
        {
            "form": form,
            "faults": faults,
            "size": selectors.EMAPlayer.objects.count(),
            "next": _local(request.GET.get("next", "")),
        },
        status=400 if faults or form.errors else 200,
    )


# -- sessions -------------------------------------------------------------------------------------------


def _session(tournament: Tournament, number: int) -> Session:
    return get_object_or_404(Session, tournament=tournament, number=number)


@login_required
def session_page(request, slug: str, number: int):
    tournament = _director_tournament(request, slug)
    session = _session(tournament, number)
    registrations = list(tsel.registration_list(tournament=tournament))
    first_session = tsel.checkin_first_session(session)
    checkin = CheckinForm(
        request.POST or None,
        session=session,
        registrations=registrations,
        first_session=first_session,
        answers=selectors.substitute_answers(tournament=tournament) if first_session else None,
    )
    if request.method == "POST" and checkin.is_valid():
        present, absent, subs, new = checkin.outcome()
        try:
            report = checkin_services.checkin_apply(
                session=session,
                present=present,
                absent=absent,
                substitutes_present=subs,
                new_substitutes=new,
                substitute_answers=checkin.answers(),
            )
        except Blocked as exc:
            _blocked(request, exc)
        except ValidationError as exc:
            for error in exc.messages:
                messages.error(request, error)
        else:
            text = ngettext(
                "Check-in saved: %(n)s present.", "Check-in saved: %(n)s present.", report.present
            ) % {"n": report.present}
            if report.absent:
                text += " " + _("Absent this session, a substitute plays: %(names)s.") % {
                    "names": ", ".join(report.absent)
                }
            if report.withdrawn:
                text += " " + _("Withdrawn: %(names)s.") % {"names": ", ".join(report.withdrawn)}
            messages.success(request, text)
            return redirect("console-session", slug=slug, number=number)

    tables = session_tables(session=session)
    return _page(
        request,
        "session.html",
        tournament,
        session=session,
        checkin=checkin,
        seated=bool(tables),
        tables=tables,
        needs=needs_referee(tables),
        table_keys={t.number: t.private_key for t in session.tables.all()},
        blockers=session_services.session_blockers(session=session)
        if session.status == Session.Status.PLAYING
        else [],
        checked_count=len(session.checked_in or []),
        absent_names=[r.player.full_name for r in registrations if r.key in set(session.absent or ())],
        withdrawn_here=[r.player.full_name for r in registrations if r.withdrawn_from == session.number],
        answer_lines=_answer_lines(tournament, registrations),
        reopened_after_finish=lifecycle.reopened_after_finish(tournament),
    )


def _answer_lines(tournament: Tournament, registrations) -> list[tuple[str, bool]]:
    """The substitutes' recorded answers (ERGMT §3.9), as check-in shows them."""
    answers = selectors.substitute_answers(tournament=tournament)
    return [
        (r.player.full_name, answers[r.key]) for r in registrations if r.is_substitute and r.key in answers
    ]


@login_required
@require_http_methods(["GET", "POST"])
def session_action(request, slug: str, number: int, action: str):
    """POST: seat, advance (publish, start, finish) or step back. GET: the confirmation step before starting a
    seated session (the only step offered as a page; any other GET goes back to the session)."""
    tournament = _director_tournament(request, slug)
    session = _session(tournament, number)
    if request.method == "GET":
        if action == "advance" and session.status == Session.Status.SEATED:
            return _confirm_page(
                request,
                tournament,
                confirmations.session_start(session=session),
                back_url=reverse("console-session", args=[slug, number]),
            )
        return redirect("console-session", slug=slug, number=number)

    try:
        if action == "seat":
            session_services.session_seat(session=session)
            messages.success(
                request, _("Session %(n)s is seated. Check the tables, then publish.") % {"n": number}
            )
        elif action == "advance":
            session = session_services.session_advance(session=session)
            messages.success(
                request,
                _("Session %(n)s: %(status)s.") % {"n": number, "status": session.get_status_display()},
            )
        elif action == "reopen":
            session = session_services.session_reopen(
                session=session, reason=request.POST.get("reason", ""), user=request.user
            )
            messages.success(
                request,
                _("Session %(n)s is back to: %(status)s.")
                % {"n": number, "status": session.get_status_display()},
            )
        else:
            raise Http404
    except Blocked as exc:
        _blocked(request, exc)
    except RuleError as exc:
        messages.error(request, exc.message)
    except SeatingError as exc:
        for fault in exc.faults:
            messages.error(request, fault)
    return redirect("console-session", slug=slug, number=number)


@login_required
@require_http_methods(["GET", "POST"])
def tournament_action(request, slug: str, action: str):
    """POST: finish, reopen, reveal, hide. GET: the confirmation step before finishing (any other GET goes back
    to the console)."""
    tournament = _director_tournament(request, slug)
    if request.method == "GET":
        if action == "finish" and tournament.status != Tournament.Status.FINISHED:
            blockers = organising_services.tournament_blockers(tournament=tournament)
            return _confirm_page(
                request,
                tournament,
                confirmations.tournament_finish(tournament=tournament, blockers=blockers),
                back_url=reverse("console-home", args=[slug]),
            )
        return redirect("console-home", slug=slug)
    try:
        if action == "finish":
            organising_services.tournament_finish(tournament=tournament)
            messages.success(request, _("The tournament is finished: it counts for the EMA ranking."))
        elif action == "reopen":
            organising_services.tournament_reopen(
                tournament=tournament, reason=request.POST.get("reason", ""), user=request.user
            )
            messages.success(
                request, _("The tournament is open again: it no longer counts for the EMA ranking.")
            )
        elif action == "reveal":
            organising_services.standings_reveal(tournament=tournament, revealed=True)
            messages.success(request, _("The standings are public."))
        elif action == "hide":
            organising_services.standings_reveal(tournament=tournament, revealed=False)
            messages.success(request, _("The last sessions' standings are hidden again."))
        else:
            raise Http404
    except Blocked as exc:
        _blocked(request, exc)
    except RuleError as exc:
        messages.error(request, exc.message)
    return redirect("console-home", slug=slug)


@login_required
def reveal(request, slug: str):
    """The prize-giving: the final places from the bottom up, one tap at a time, then the teams."""
    tournament = _director_tournament(request, slug)
    document = rk.standings_view(tournament=tournament).to_document(tournament.slug, tournament.ruleset)
    lines = rk.standings_lines(tournament=tournament, document=document)
    lines = [line for line in lines if not line.withdrawn_from or line.sessions]
    return render(
        request,
        "tournaments/console/reveal.html",
        {
            "tournament": tournament,
            "lines": list(reversed(lines)),
            "count": len(lines),
            "teams": rk.team_lines(document=document),
            "by_table_points": any(line.table_points is not None for line in lines),
        },
    )


__all__ = ["Role"]
