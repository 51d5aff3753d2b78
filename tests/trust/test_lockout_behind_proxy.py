"""The failed-login lock-out behind the TLS proxy: every request reaches the server from the proxy's
address, the caller's own address is in X-Forwarded-For. A stranger's wrong passwords lock the stranger
out, never the account's owner signing in from another address; without the proxy's header the
connection's address counts, and an X-Forwarded-For the caller wrote himself does not."""

from __future__ import annotations

import pytest
from django.test import Client

from config.clientip import client_ip

pytestmark = pytest.mark.django_db

PROXY = "10.0.0.2"
LOGIN = "/accounts/login/"
PASSWORD = "pw-for-tests-123"


def through_proxy(address: str) -> Client:
    """A browser at ``address`` behind the proxy (which appends the address it saw)."""
    return Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=address)


def fail_five_times(client: Client, username: str) -> None:
    for _ in range(5):
        client.post(LOGIN, {"username": username, "password": "wrong"})


def signs_in(client: Client, username: str) -> bool:
    response = client.post(LOGIN, {"username": username, "password": PASSWORD})
    return response.status_code == 302 and "_auth_user_id" in client.session


def test_a_stranger_cannot_lock_the_owner_out_from_another_address(make_user, settings):
    settings.BEHIND_PROXY, settings.TRUSTED_PROXY_COUNT = True, 1
    make_user("victim")
    stranger = through_proxy("203.0.113.7")
    fail_five_times(stranger, "victim")
    assert stranger.post(LOGIN, {"username": "victim", "password": PASSWORD}).status_code == 429
    assert signs_in(through_proxy("198.51.100.20"), "victim")


def test_the_lock_holds_for_the_stranger_whatever_header_he_adds(make_user, settings):
    """The proxy appends the address it saw: a forged first entry changes nothing."""
    settings.BEHIND_PROXY, settings.TRUSTED_PROXY_COUNT = True, 1
    make_user("victim")
    fail_five_times(through_proxy("203.0.113.7"), "victim")
    forged = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.20, 203.0.113.7")
    assert forged.post(LOGIN, {"username": "victim", "password": PASSWORD}).status_code == 429


def test_without_a_proxy_the_connections_address_counts(make_user, settings):
    settings.BEHIND_PROXY = False
    make_user("victim")
    fail_five_times(Client(REMOTE_ADDR="203.0.113.7", HTTP_X_FORWARDED_FOR="198.51.100.1"), "victim")
    other = Client(REMOTE_ADDR="203.0.113.7", HTTP_X_FORWARDED_FOR="198.51.100.99")
    assert other.post(LOGIN, {"username": "victim", "password": PASSWORD}).status_code == 429
    assert signs_in(Client(REMOTE_ADDR="198.51.100.20"), "victim")


@pytest.mark.parametrize(
    "remote, forwarded, hops, expected",
    [
        (PROXY, "203.0.113.7", 1, "203.0.113.7"),
        (PROXY, "1.2.3.4, 203.0.113.7", 1, "203.0.113.7"),
        (PROXY, "203.0.113.7, 10.0.0.9", 2, "203.0.113.7"),
        (PROXY, "", 1, PROXY),  # not through the proxy
        (PROXY, "not-an-address", 1, PROXY),
        (PROXY, "203.0.113.7:51000", 1, "203.0.113.7"),
        (PROXY, "[2001:db8::1]:443", 1, "2001:db8::1"),
        (PROXY, "203.0.113.7", 2, PROXY),  # fewer entries than proxies
    ],
)
def test_the_callers_address_is_the_entry_the_trusted_proxies_wrote(
    rf, settings, remote, forwarded, hops, expected
):
    settings.BEHIND_PROXY, settings.TRUSTED_PROXY_COUNT = True, hops
    request = rf.get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)
    assert client_ip(request) == expected
