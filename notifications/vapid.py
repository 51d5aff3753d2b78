"""The VAPID key pair: from the settings (the environment), else from the file ``make run`` keeps in var/."""

from __future__ import annotations

import base64
import json
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings


@dataclass(frozen=True)
class Keys:
    public: str  # the uncompressed P-256 point, base64url (the browser's applicationServerKey)
    private: str  # the private value, 32 bytes, base64url
    subject: str


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def new_pair() -> tuple[str, str]:
    """A fresh key pair: (public, private), base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(public), b64url(private)


def write_file(path: Path) -> bool:
    """Make a pair in ``path`` unless it has one; True when it made one. The file is the owner's only."""
    if path.exists():
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    public, private = new_pair()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump({"public": public, "private": private}, handle)
    return True


@lru_cache(maxsize=4)
def _from_file(path: str, mtime: float) -> tuple[str, str] | None:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        return str(data["public"]), str(data["private"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def keys() -> Keys | None:
    """The pair in use (None: no pair, push is not offered)."""
    if settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY:
        return Keys(settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY, settings.VAPID_SUBJECT)
    path = Path(settings.VAPID_FILE)
    try:
        mtime = path.stat().st_mtime
    except OSError:
        return None
    pair = _from_file(str(path), mtime)
    return Keys(pair[0], pair[1], settings.VAPID_SUBJECT) if pair else None
