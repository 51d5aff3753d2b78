"""A push service of the tests' own: a local HTTP server that records what the product sends and answers as
a browser vendor's would (201, or what the test asks: 410, 429…), and a browser's subscription keys, so that
a test decrypts each message and checks its VAPID signature against the public key."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    path: str
    headers: dict
    body: bytes


class PushServer:
    def __init__(self):
        self.received: list[Received] = []
        self.answers: deque[int] = deque()  # the next answers, then 201
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            disable_nagle_algorithm = True

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                with server.lock:
                    server.received.append(
                        Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                    )
                    status = server.answers.popleft() if server.answers else 201
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.port}/push/{name}"

    def for_path(self, name: str) -> list[Received]:
        return [r for r in self.received if r.path == f"/push/{name}"]

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@dataclass
class Browser:
    """A phone's push subscription, keys made as a browser makes them (P-256 and a 16-byte secret)."""

    server: PushServer
    name: str
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    secret: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def endpoint(self) -> str:
        return self.server.url(self.name)

    def subscription(self, topics) -> dict:
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": b64url(public), "auth": b64url(self.secret)},
            "topics": list(topics),
        }

    def messages(self) -> list[Received]:
        return self.server.for_path(self.name)

    def read(self, message: Received) -> dict:
        """The message decrypted (aes128gcm, RFC 8291) with this phone's private key and secret."""
        assert message.headers["content-encoding"] == "aes128gcm"
        plain = http_ece.decrypt(
            message.body, private_key=self.key, auth_secret=self.secret, version="aes128gcm"
        )
        return json.loads(plain)


def vapid_claims(message: Received, public_key: str) -> dict:
    """The VAPID token's claims (RFC 8292), its ES256 signature checked against ``public_key``."""
    scheme, _, params = message.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    values = dict(part.strip().split("=", 1) for part in params.split(","))
    assert values["k"] == public_key
    header, claims, signature = values["t"].split(".")
    assert json.loads(unb64url(header))["alg"] == "ES256"
    raw = unb64url(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    point = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
    try:
        point.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature as exc:  # pragma: no cover - the assertion says it
        raise AssertionError("the VAPID signature does not match the public key") from exc
    data = json.loads(unb64url(claims))
    assert data["exp"] > time.time()
    return data
