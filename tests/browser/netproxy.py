"""A small HTTP proxy on this machine between the browser and the live server, for the outage tests: it can
refuse every connection (the venue's network is down, for the page and its service worker alike) or do a
POST and then drop its answer (the server did the work, the phone never heard back). One request per
connection (it asks both sides to close)."""

from __future__ import annotations

import socket
import struct
import threading


def _read_head(sock: socket.socket) -> tuple[bytes, bytes]:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return b"", b""
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    return head, rest


def _with_close(head: bytes) -> bytes:
    lines = [
        line
        for line in head.split(b"\r\n")
        if not line.lower().startswith((b"connection:", b"keep-alive:", b"proxy-connection:"))
    ]
    return b"\r\n".join([*lines, b"Connection: close"]) + b"\r\n\r\n"


def _reset(sock: socket.socket) -> None:
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


class Proxy:
    def __init__(self, upstream_port: int):
        self.upstream_port = upstream_port
        self.offline = False
        self.drop_post_answers = 0
        self.drop_only: str | None = None  # drop answers of POSTs to this path only
        # POSTs to drop_only (or any) taken and then held open with no answer, never forwarded: a Wi-Fi that
        # accepts the connection and stalls.
        self.stall_posts = 0
        self.stalled: list[str] = []
        self.posts: list[str] = []
        self.dropped: list[str] = []
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._running = True
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self) -> None:
        self._running = False
        self._listener.close()

    def _accept(self) -> None:
        while self._running:
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        conn.settimeout(30)
        try:
            if self.offline:
                _reset(conn)
                return
            head, body = _read_head(conn)
            if not head:
                conn.close()
                return
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip())
            while len(body) < length:
                chunk = conn.recv(65536)
                if not chunk:
                    break
                body += chunk
            method, path = head.split(b" ", 2)[:2]
            if method == b"POST" and self.stall_posts > 0 and self.drop_only in (None, path.decode()):
                self.stall_posts -= 1
                self.stalled.append(path.decode())
                conn.settimeout(600)
                while conn.recv(65536):  # until the phone gives up and closes the connection
                    pass
                conn.close()
                return
            with socket.create_connection(("127.0.0.1", self.upstream_port), timeout=60) as upstream:
                upstream.sendall(_with_close(head) + body)
                answer = b""
                while chunk := upstream.recv(65536):
                    answer += chunk
            if method == b"POST":
                self.posts.append(path.decode())
                if self.drop_post_answers > 0 and self.drop_only in (None, path.decode()):
                    self.drop_post_answers -= 1
                    self.dropped.append(path.decode())
                    _reset(conn)
                    return
            answer_head, _, answer_body = answer.partition(b"\r\n\r\n")
            conn.sendall(_with_close(answer_head) + answer_body)
            conn.close()
        except OSError:
            conn.close()


def network(driver, proxy: Proxy, *, online: bool) -> None:
    """Cut (or bring back) the network of the page shown in ``driver`` and of its service worker: the
    page's network emulation, and the proxy refusing every connection."""
    proxy.offline = not online
    driver.execute_cdp_cmd(
        "Network.emulateNetworkConditions",
        {"offline": not online, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )
