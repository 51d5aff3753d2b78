// The table page's call of a referee. While a call waits (open, or a referee on the way) the page asks for
// its call section every few seconds and swaps it in, so the table sees "on my way" and the resolution.
// A call made with no connection is kept on this phone (with its idempotency key, so it is made once) and
// sent when the connection comes back; the section says so meanwhile.
(function () {
  "use strict";
  var SECONDS = 10;
  var box = function () { return document.getElementById("referee-call"); };
  if (!box() || !window.fetch || !window.DOMParser) return;
  var STORE = "mahjong-referee-call:" + box().getAttribute("data-call-url");
  var busy = false;
  var gettext = window.gettext || function (text) { return text; };  // the catalogue (/i18n/js/<language>.js)

  function swap(html, always) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var next = doc.getElementById("referee-call");
    var old = box();
    if (!next || !old) return;
    // an open form (a reason being chosen) is left alone until the call exists (a refusal is shown)
    if (!always && !next.getAttribute("data-call-state") && !old.getAttribute("data-call-state")) return;
    old.replaceWith(document.importNode(next, true));
    kept();
  }

  function poll() {
    var b = box();
    if (busy || !b || document.hidden) return;
    var state = b.getAttribute("data-call-state");
    if (state !== "open" && state !== "acknowledged") return;
    busy = true;
    fetch(b.getAttribute("data-call-url"), {cache: "no-store", credentials: "same-origin"})
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(swap, function () {})
      .then(function () { busy = false; });
  }

  function kept() {
    var b = box();
    if (!b || !localStorage.getItem(STORE)) return;
    var note = document.getElementById("referee-call-kept");
    if (!note) {
      note = document.createElement("p");
      note.id = "referee-call-kept";
      note.className = "message warn";
      note.setAttribute("role", "status");
      note.textContent = gettext(
        "Your call is kept on this phone: it is sent as soon as the connection comes back. If it is urgent, raise your hand."
      );
      b.insertBefore(note, b.children[1] || null);
    }
  }

  function send(fields) {
    var b = box();
    return fetch(b.getAttribute("data-call-url"), {
      method: "POST",
      body: new URLSearchParams(fields),
      credentials: "same-origin",
      cache: "no-store",
    }).then(function (r) {
      localStorage.removeItem(STORE);
      if (r.redirected || r.ok) { window.location.assign(r.url); return; }
      return r.text().then(function (html) { swap(html, true); });
    });
  }

  function flush() {
    var raw = localStorage.getItem(STORE);
    if (!raw || busy) return;
    busy = true;
    var fields;
    try { fields = JSON.parse(raw); } catch (e) { localStorage.removeItem(STORE); busy = false; return; }
    send(fields).then(function () { busy = false; }, function () { busy = false; kept(); });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || form.id !== "referee-call-form") return;
    event.preventDefault();
    var fields = [];
    new FormData(form).forEach(function (value, name) { if (typeof value === "string") fields.push([name, value]); });
    localStorage.setItem(STORE, JSON.stringify(fields));
    if (!navigator.onLine) { kept(); return; }
    flush();
  });

  window.addEventListener("online", flush);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { flush(); poll(); } });
  setInterval(function () { flush(); poll(); }, SECONDS * 1000);
  kept();
  flush();
})();
