"""A one-time sign-in link signs in once, however many requests use it at the same moment.

The probe used one link four times with simultaneous requests: the token was checked, then the account
signed in, two steps between which every other request found the token still valid.
"""

from __future__ import annotations

import copy

import pytest
from django.contrib.auth.signals import user_logged_in
from django.db import connection
from django.test import Client

from tests.conftest import skip_or_fail
from tests.scoring.test_concurrency import collide
from tournaments.console import views as console_views
from tournaments.models import Role
from tournaments.staff import services as staff_services


@pytest.fixture
def link(tournament):
    helper = staff_services.staff_create(
        tournament=tournament, username="helper", role=Role.REFEREE, with_link=True
    )
    return helper.sign_in_path


@pytest.fixture
def logins():
    counted = []

    def count(sender, user, **kwargs):
        counted.append(user.username)

    user_logged_in.connect(count)
    yield counted
    user_logged_in.disconnect(count)


@pytest.mark.django_db
def test_a_second_request_between_the_check_and_the_login_of_the_first_signs_nobody_in(
    link, logins, monkeypatch
):
    """The race, step by step: the first request has found the link valid; before it signs in, a second
    request with the same link runs to its end. Only one of them signs in."""
    second = {}
    real_login = console_views.login

    def login_after_a_second_request(request, user, **kwargs):
        if "started" not in second:
            second["started"] = True
            second["response"] = Client().post(link)
        return real_login(request, user, **kwargs)

    monkeypatch.setattr(console_views, "login", login_after_a_second_request)
    first = Client().post(link)
    statuses = sorted([first.status_code, second["response"].status_code])
    assert statuses == [302, 410]
    assert logins == ["helper"]
    assert Client().post(link).status_code == 410  # used


@pytest.mark.django_db
def test_two_requests_that_both_found_the_link_valid_cannot_both_use_it(link, monkeypatch):
    uid, token = link.rstrip("/").split("/")[-2:]
    # both requests read the account and checked the token before either used it …
    as_read = staff_services.sign_in_link_user(uid=uid, token=token)
    assert as_read is not None
    monkeypatch.setattr(staff_services, "sign_in_link_user", lambda **kwargs: copy.deepcopy(as_read))
    # … and the conditional update lets one of them through
    outcomes = [staff_services.sign_in_link_use(uid=uid, token=token) for _ in range(2)]
    assert [o is not None for o in outcomes] == [True, False]


@pytest.mark.django_db(transaction=True)
def test_eight_simultaneous_requests_with_one_link_sign_in_once(link, logins):
    if connection.vendor != "postgresql":
        skip_or_fail("simultaneous requests are checked on PostgreSQL; SQLite serialises every writer")

    def use():
        return Client().post(link).status_code

    outcomes = collide([use] * 8)
    assert sorted(outcomes) == [302] + [410] * 7, outcomes
    assert logins == ["helper"]
