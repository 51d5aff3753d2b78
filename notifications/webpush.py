"""Sending one batch of messages to the push services (pywebpush: the aes128gcm encryption of RFC 8291, the
VAPID signature of RFC 8292; the TTL, Topic and Urgency headers of RFC 8030).

The signature is made once per push service and batch (each message of a batch to the same service carries
the same token), and one HTTP connection per service is kept for the batch.
"""

from __future__ import annotations

import base64
import binascii
import re
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

import requests
from django.conf import settings
from py_vapid import Vapid
from pywebpush import WebPusher

from notifications.vapid import Keys

MAX_PAYLOAD = 3800  # bytes of JSON before encryption: within the 4096 of a push message (RFC 8291 §4)
TOPIC = re.compile(r"^[A-Za-z0-9_-]{1,32}$")  # RFC 8030 §5.4: at most 32 base64url characters
SENT, GONE, RETRY, FAILED = "sent", "gone", "retry", "failed"


def endpoint_fault(endpoint: str) -> str | None:
    """Why the server will not send to ``endpoint`` (None: it will): an https URL of a push service of
    PUSH_SERVICE_HOSTS (plain http for a host listed with ``http://``, as a test's own server is)."""
    if not isinstance(endpoint, str) or not endpoint or len(endpoint) > 1024:
        return "must be a URL of at most 1024 characters"
    try:
        parts = urlsplit(endpoint)
    except ValueError:
        return "must be a URL"
    host = (parts.hostname or "").lower()
    if parts.username or parts.password or not host:
        return "must be a URL of a push service"
    for allowed in settings.PUSH_SERVICE_HOSTS:
        scheme, _, name = allowed.rpartition("://")
        name = name.lower()
        if (scheme or "https") != parts.scheme:
            continue
        if scheme == "http" and host == name.split(":")[0]:
            return None
        if not scheme and (host == name or host.endswith("." + name)):
            return None
    return "must be an https URL of a browser's push service"


def key_fault(value: str, size: int) -> str | None:
    """Why ``value`` is not ``size`` bytes in base64url (None when it is)."""
    if not isinstance(value, str) or not re.fullmatch(r"[A-Za-z0-9_-]+={0,2}", value or ""):
        return "must be base64url"
    try:
        raw = base64.urlsafe_b64decode(value.rstrip("=") + "=" * (-len(value.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        return "must be base64url"
    return None if len(raw) == size else f"must be {size} bytes in base64url"


@dataclass(frozen=True)
class Outgoing:
    endpoint: str
    p256dh: str
    auth: str
    payload: bytes  # the JSON of the message, at most MAX_PAYLOAD bytes
    ttl: int
    topic: str
    urgency: str = "normal"


class Sender:
    """One batch: a signature per push service; per sending thread, a connection per service."""

    def __init__(self, keys: Keys):
        self.keys = keys
        self.vapid = Vapid.from_raw(keys.private.encode())
        self.local = threading.local()
        self.sessions: list[requests.Session] = []
        self.lock = threading.Lock()
        self.tokens: dict[str, tuple[dict, float]] = {}

    @property
    def http(self) -> requests.Session:
        session = getattr(self.local, "session", None)
        if session is None:
            session = self.local.session = requests.Session()
            with self.lock:
                self.sessions.append(session)
        return session

    def _authorization(self, endpoint: str) -> dict:
        parts = urlsplit(endpoint)
        audience = f"{parts.scheme}://{parts.netloc}"
        now = time.time()
        with self.lock:
            cached = self.tokens.get(audience)
            if cached is None or cached[1] < now + 600:
                expires = int(now) + 12 * 3600
                claims = {"aud": audience, "exp": expires, "sub": self.keys.subject}
                cached = (self.vapid.sign(claims), expires)
                self.tokens[audience] = cached
        return dict(cached[0])

    def send(self, message: Outgoing) -> tuple[str, int | None]:
        """Send one message: (SENT, GONE: the subscription is no more, RETRY: later, FAILED), status."""
        headers = {**self._authorization(message.endpoint), "Urgency": message.urgency}
        if TOPIC.match(message.topic):
            headers["Topic"] = message.topic
        pusher = WebPusher(
            {"endpoint": message.endpoint, "keys": {"p256dh": message.p256dh, "auth": message.auth}},
            requests_session=self.http,
        )
        try:
            response = pusher.send(
                message.payload,
                headers,
                ttl=message.ttl,
                content_encoding="aes128gcm",
                timeout=settings.PUSH_TIMEOUT_SECONDS,
            )
        except requests.RequestException:
            return RETRY, None
        except (ValueError, TypeError):  # keys a browser never made: the encryption refuses them
            return GONE, None
        status = response.status_code
        if status < 300:
            return SENT, status
        if status in (404, 410):
            return GONE, status
        if status == 429 or status >= 500:
            return RETRY, status
        return FAILED, status

    def close(self) -> None:
        for session in self.sessions:
            session.close()
