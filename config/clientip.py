"""The address of the caller, as the reverse proxies in front of the server report it.

Behind a proxy every request comes from the proxy's address (``REMOTE_ADDR``); the caller's own address is
in ``X-Forwarded-For``, to which each proxy appends the address it received the request from. Only the
entries the trusted proxies wrote can be believed (a caller may send any ``X-Forwarded-For`` of his own),
so with ``TRUSTED_PROXY_COUNT`` proxies in front the caller is the entry that many places from the right.
The failed-login lock-out (django-axes, ``AXES_CLIENT_IP_CALLABLE``) keys on this address.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings


def _address(text: str) -> str | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [v6]:port
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # v4:port
        text = text.split(":", 1)[0]
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return None


def client_ip(request) -> str:
    """The caller's address: from ``X-Forwarded-For`` as the trusted proxies wrote it when the server is
    behind them (``BEHIND_PROXY``, ``TRUSTED_PROXY_COUNT``), else the connection's own address."""
    remote = request.META.get("REMOTE_ADDR", "") or ""
    hops = getattr(settings, "TRUSTED_PROXY_COUNT", 0) if getattr(settings, "BEHIND_PROXY", False) else 0
    if hops <= 0:
        return remote
    forwarded = [part for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
    if len(forwarded) < hops:  # not through the proxies: the connection is the caller
        return remote
    return _address(forwarded[-hops]) or remote
