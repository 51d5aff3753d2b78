"""The offline service worker's `push` and `notificationclick` handlers, run as written.

Chromium's DevTools can deliver a push to a service worker (tests/browser/test_push_browser.py) but has no
command to tap the notification it shows. Here the worker the site serves runs under Node with a stand-in
for the browser's worker scope: a message the product renders is pushed, the notification it shows is
tapped, and the page it opens is read back.
"""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from django.urls import reverse

from notifications.messages import Notice, render

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs the service worker"),
]

ORIGIN = "https://venue.example"

HARNESS = r"""
const fs = require("fs");
const [source, windows, payload] = [fs.readFileSync(process.argv[2], "utf8"), JSON.parse(process.argv[3]), process.argv[4]];
const listeners = {}, shown = [], opened = [], focused = [];
const self = {
  location: new URL(process.argv[5]),
  addEventListener: (type, listener) => { listeners[type] = listener; },
  registration: { showNotification: (title, options) => { shown.push({ title, options }); return Promise.resolve(); } },
  clients: {
    matchAll: () => Promise.resolve(windows.map((url) => ({ url, focus: () => { focused.push(url); return Promise.resolve(); } }))),
    openWindow: (url) => { opened.push(url); return Promise.resolve(); },
  },
};
new Function("self", "caches", "fetch", source)(self, {}, () => Promise.reject(new Error("offline")));
function fire(type, event) {
  const waits = [];
  event.waitUntil = (promise) => waits.push(promise);
  listeners[type](event);
  return Promise.all(waits);
}
(async () => {
  await fire("push", { data: { json: () => JSON.parse(payload), text: () => payload } });
  await fire("notificationclick", { notification: { data: shown[0].options.data, close: () => {} } });
  console.log(JSON.stringify({ shown, opened, focused }));
})().catch((error) => { console.error(error); process.exit(1); });
"""


def run_worker(client, tmp_path, payload: bytes, windows: list[str]) -> dict:
    worker = tmp_path / "sw.js"
    worker.write_bytes(client.get(reverse("entry-sw")).content)
    harness = tmp_path / "harness.js"
    harness.write_text(HARNESS)
    done = subprocess.run(
        ["node", str(harness), str(worker), json.dumps(windows), payload.decode(), f"{ORIGIN}/entry-sw.js"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def seat_message(url: str) -> bytes:
    notice = Notice(
        topic="seat", facts={"session": 2, "table": 5, "wind": 1, "opponents": ["Ana", "Bo", "Cy"]}, url=url
    )
    return render(notice, language="es", tournament="Open de Bilbao")


def test_a_tap_on_the_seat_message_opens_the_page_it_names(client, tmp_path):
    seen = run_worker(client, tmp_path, seat_message("/me/k3y/"), windows=[])
    [notification] = seen["shown"]
    assert notification["title"] == "Sesión 2: mesa 5, Sur"
    assert notification["options"]["body"] == "Rivales: Ana, Bo, Cy."
    assert notification["options"]["tag"] == "seat" and notification["options"]["lang"] == "es"
    assert seen["opened"] == [f"{ORIGIN}/me/k3y/"] and seen["focused"] == []


def test_a_tap_focuses_the_page_when_it_is_already_open(client, tmp_path):
    seen = run_worker(client, tmp_path, seat_message("/me/k3y/"), windows=[f"{ORIGIN}/", f"{ORIGIN}/me/k3y/"])
    assert seen["focused"] == [f"{ORIGIN}/me/k3y/"] and seen["opened"] == []


def test_a_message_naming_another_site_opens_this_site_instead(client, tmp_path):
    seen = run_worker(client, tmp_path, seat_message("https://elsewhere.example/phish"), windows=[])
    assert seen["opened"] == [f"{ORIGIN}/"]
