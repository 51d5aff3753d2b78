// Table entry through network outages.
//
// Every hand saved on the table page goes into a queue kept on the device (localStorage), each with its own
// idempotency key and the table version it was entered against, and the queue is sent in order: at once,
// when the network comes back, on every page load, and every few seconds while hands wait. The server does
// all the work as for any form (same view, services and checks): a hand sent twice with its key is stored
// once. A 409 (the table changed meanwhile) stops the queue and shows both versions; a rule error stops it
// on the hand concerned; a table that takes no more hands (confirmed, its session finished: the page's
// data-closed says why) stops it for good and says so, the hands numbered as they were entered. Nothing is
// dropped without the scorer's say.
(function () {
  "use strict";

  const first = document.getElementById("offline-entry");
  if (!first) return;
  // The strings shown by this script, from the catalogue (/i18n/js/<language>.js, kept by the service
  // worker for a page opened offline); English when the catalogue could not be loaded.
  const gettext = window.gettext || ((text) => text);
  const ngettext = window.ngettext || ((singular, plural, n) => (n === 1 ? singular : plural));
  const T = {
    offline: gettext("No network: the hands you save stay on this phone and are sent when it is back."),
    sending: gettext("Sending…"),
    sendingHand: gettext("Sending hand %(n)s…"),
    nextAfterQueue: gettext("Next: hand %(n)s, after the hands waiting to send."),
    noAnswer: gettext("The server did not answer: trying again."),
    serverError: gettext("The server could not take the hand just now: trying again."),
    checkWinner: gettext("Choose the winner."),
    checkFu: gettext("Give the fu (needed below 5 han)."),
    saveCorrected: gettext("Save the corrected hand %(n)s"),
    stopped: gettext("Sending stopped: the hand marked below needs your decision."),
    badgeWaiting: gettext("waiting to send"),
    badgeRefused: gettext("not saved"),
    badgeConflict: gettext("not sent: the table changed"),
    hand: gettext("Hand %(n)s"),
    queueTitle: gettext("On this phone, not sent yet"),
    refused: gettext("The server refused this hand (nothing after it was sent):"),
    correct: gettext("Correct this hand"),
    discardOne: gettext("Discard this hand"),
    discardOneConfirm: gettext("Discard this hand? It was never saved."),
    conflictTitle: gettext("Someone else changed this table before this phone's hands were sent."),
    conflictText: gettext("Nothing was lost: compare both versions, then choose."),
    serverVersion: gettext("On the server now"),
    keepMine: gettext("Add my hands after these"),
    discardMine: gettext("Discard my hands"),
    discardMineConfirm: gettext("Discard the hands kept on this phone? They were never saved."),
    noHands: gettext("No hands entered yet."),
    refusedUnknown: gettext("The server did not take this hand. Open the table page again to see what is saved."),
    closedTitle: gettext("This table takes no more hands: the hands kept on this phone were not saved."),
    editing: gettext("Correcting hand %(n)s: save it to put it back in its place."),
  };
  const waiting = (n) =>
    fmt(ngettext("%(n)s hand waiting to send — it is kept on this phone", "%(n)s hands waiting to send — they are kept on this phone", n), n);
  const pendingScores = (n) =>
    fmt(ngettext("The scores above do not count the %(n)s hand waiting to send yet.", "The scores above do not count the %(n)s hands waiting to send yet.", n), n);
  const PAGE = first.dataset.page;
  const CACHE = first.dataset.cache || "";
  const STORE = "mahjong-entry-queue:" + PAGE;
  const RETRY_FIRST_MS = 2000;
  const RETRY_MAX_MS = 30000;
  // A request with no answer after this long is abandoned and sent again with the same idempotency key
  // (a Wi-Fi that takes the connection and then stalls must not block the queue).
  const TIMEOUT_MS = parseInt(first.dataset.timeout || "15000", 10);

  const fmt = (pattern, n) => pattern.replace("%(n)s", String(n));
  const root = () => document.getElementById("offline-entry");
  const serverVersion = () => parseInt(root().dataset.version, 10);
  const nextHand = () => parseInt(root().dataset.next || "1", 10);
  const closedText = () => (root() && root().dataset.closed) || "";

  // -- the queue ---------------------------------------------------------------------------------------
  function load() {
    try {
      const q = JSON.parse(localStorage.getItem(STORE) || "[]");
      return Array.isArray(q) ? q : [];
    } catch (e) {
      return [];
    }
  }

  function save(q) {
    if (q.length) localStorage.setItem(STORE, JSON.stringify(q));
    else localStorage.removeItem(STORE);
  }

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  }

  function setField(fields, name, value) {
    const at = fields.findIndex((f) => f[0] === name);
    if (at >= 0) fields[at][1] = value;
    else fields.push([name, value]);
  }

  function rekey(item, version) {
    item.version = version;
    item.key = newKey();
    setField(item.fields, "version", String(version));
    setField(item.fields, "idempotency_key", item.key);
    item.state = "waiting";
    item.error = "";
  }

  function update(key, changes) {
    const q = load();
    const item = q.find((i) => i.key === key);
    if (item) Object.assign(item, changes);
    save(q);
  }

  // -- what a hand says, from the visible fields of the form ---------------------------------------------
  function labelOf(el) {
    const label = el.id && document.querySelector('label[for="' + CSS.escape(el.id) + '"]');
    if (label) return label.textContent.trim();
    const fieldset = el.closest("fieldset");
    const legend = fieldset && fieldset.querySelector("legend");
    return legend ? legend.textContent.trim() : el.name;
  }

  function describe(form) {
    const parts = [];
    const groups = new Map();
    for (const el of form.elements) {
      if (!el.name || el.type === "hidden" || el.type === "submit" || el.getClientRects().length === 0) continue;
      const text = el.closest("label") ? el.closest("label").textContent.trim() : el.value;
      if (el.type === "radio") {
        if (el.checked) parts.push(text);
      } else if (el.type === "checkbox") {
        if (!el.checked) continue;
        const fieldset = el.closest("fieldset");
        if (!fieldset) {
          parts.push(text);
          continue;
        }
        if (!groups.has(fieldset)) {
          const group = { label: labelOf(el), values: [] };
          groups.set(fieldset, group);
          parts.push(group);
        }
        groups.get(fieldset).values.push(text);
      } else if (el.tagName === "SELECT") {
        if (el.value !== "") parts.push(labelOf(el) + ": " + el.options[el.selectedIndex].text.trim());
      } else if (el.value !== "" && el.tagName !== "TEXTAREA") {
        parts.push(labelOf(el) + " " + el.value);
      }
    }
    return parts.map((p) => (typeof p === "string" ? p : p.label + ": " + p.values.join(", "))).join(" · ");
  }

  function fill(form, fields) {
    form.reset();
    const skip = ["csrfmiddlewaretoken", "idempotency_key", "version", "action"];
    for (const [name, value] of fields) {
      if (skip.includes(name)) continue;
      for (const input of form.querySelectorAll('[name="' + CSS.escape(name) + '"]')) {
        if (input.type === "radio" || input.type === "checkbox") {
          if (input.value === value) input.checked = true;
        } else {
          input.value = value;
        }
      }
    }
    // The fu select follows the han chosen (the server redraws it with the fu kept as selected).
    form.querySelectorAll("select[name^=han]").forEach((han) => han.dispatchEvent(new Event("change", { bubbles: true })));
  }

  // -- checks the page can make before a hand is queued ---------------------------------------------------
  const visible = (node) => node && node.getClientRects().length > 0;

  function problems(form) {
    const found = [];
    const result = form.querySelector("input[name=result]:checked");
    if (!result) return found;
    const hasTiles = (form.querySelector("[name=tiles_hand]") || {}).value;
    for (const winner of form.querySelectorAll("select[name^=winner]")) {
      const block = winner.name.slice("winner".length);
      const primary = block === "";
      if (!visible(winner) || (!primary && winner.value === "")) continue;
      if (winner.value === "") found.push([winner, T.checkWinner]);
      const han = form.querySelector('[name="han' + block + '"]');
      const fu = form.querySelector('[name="fu' + block + '"]');
      const h = han && visible(han) ? parseInt(han.value, 10) : NaN;
      if (!hasTiles && h > 0 && h < 5 && fu && visible(fu) && fu.value === "") found.push([fu, T.checkFu]);
    }
    return found;
  }

  function showProblems(form, found) {
    form.querySelectorAll(".entry-check").forEach((n) => n.remove());
    form.querySelectorAll("[data-checked]").forEach((n) => {
      n.removeAttribute("aria-invalid");
      n.removeAttribute("data-checked");
    });
    for (const [field, text] of found) {
      field.setAttribute("aria-invalid", "true");
      field.setAttribute("data-checked", "1");
      field.after(el("small", { class: "field-error entry-check", role: "alert" }, text));
    }
    if (found.length) found[0][0].focus();
    return found.length === 0;
  }

  // -- entering a hand -----------------------------------------------------------------------------------
  function enqueue(form) {
    const q = load();
    const fields = [];
    for (const [name, value] of new FormData(form).entries()) {
      if (typeof value === "string") fields.push([name, value]);
    }
    const item = { key: "", version: 0, fields: fields, label: describe(form), state: "waiting", error: "", tries: 0 };
    const editing = q.findIndex((i) => i.state === "editing");
    item.number = nextHand() + (editing >= 0 ? editing : q.length); // the number it was entered as
    if (editing >= 0) {
      rekey(item, q[editing].version);
      q[editing] = item;
    } else {
      rekey(item, q.length ? q[q.length - 1].version + 1 : serverVersion());
      q.push(item);
    }
    save(q);
    form.reset();
    backoff = RETRY_FIRST_MS;
    render();
    flush();
  }

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.classList.contains("hand-form") || !root()) return;
    const action = form.querySelector('input[name="action"]');
    if (!action || action.value !== "hand") return;
    event.preventDefault();
    if (showProblems(form, problems(form))) enqueue(form);
  });

  // -- sending -------------------------------------------------------------------------------------------
  let flushing = false;
  let stopped = false;
  let timer = null;
  let backoff = RETRY_FIRST_MS;
  let problem = ""; // why the last attempt failed: "offline", "timeout", "server" or ""

  function later() {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      flush();
    }, backoff);
    backoff = Math.min(backoff * 2, RETRY_MAX_MS);
  }

  function withoutMessages(doc) {
    const copy = doc.cloneNode(true);
    copy.querySelectorAll("main > .messages").forEach((n) => n.remove());
    return "<!doctype html>\n" + copy.documentElement.outerHTML;
  }

  function swapPage(doc) {
    // The answer is the whole table page: the server's totals and hands replace what is shown.
    if (CACHE && window.caches) {
      const html = withoutMessages(doc);
      caches
        .open(CACHE)
        .then((c) => c.put(PAGE, new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } })))
        .catch(() => {});
    }
    const fresh = doc.querySelector("main");
    const current = document.querySelector("main");
    if (!fresh || !current) return;
    const adopted = document.importNode(fresh, true);
    current.replaceWith(adopted);
    document.title = doc.title;
    if (window.htmx) window.htmx.process(adopted);
    // The scripts of the page (tile picker, clock) start on the new content as on an htmx swap.
    adopted.dispatchEvent(new CustomEvent("htmx:load", { bubbles: true, detail: { elt: adopted } }));
    render();
  }

  // The answer to a hand saved by this script holds only what changed (messages, totals, hands, next
  // hand, clock): the hand form stays the phone's own, renumbered.
  function swapFragments(box) {
    const current = document.querySelector("main");
    const kept = box.querySelector("#hand[data-kept]");
    const hand = document.getElementById("hand");
    // the call of a referee keeps itself current (its own script asks for it): the answer leaves it out
    const callKept = box.querySelector("#referee-call[data-kept]");
    const call = document.getElementById("referee-call");
    if (!current || (kept && !hand)) return refresh();
    // the answer to a hand added on top of what the page shows draws the new hand only: the page keeps
    // the rows it shows, after it, when it shows exactly the hands the answer says (else it reloads)
    const rowsKept = box.querySelector("tbody[data-rows-kept]");
    let shownRows = null;
    if (rowsKept) {
      const shown = current.querySelector("#hands table.hands > tbody");
      const count = shown ? shown.querySelectorAll(":scope > tr.desc").length : -1;
      if (count !== Number(rowsKept.dataset.rowsKept)) return refresh();
      shownRows = Array.from(shown.children);
      // a kept hand the answer now says was entered after the table's time is drawn again with the page,
      // its mark being the server's (the clock moves a table's end back before a hand only in the cases
      // docs/clock.md names: a clock ended by an older release)
      const late = lateHands(rowsKept);
      if (late && shownRows.some((row) => late.has(handOf(row)) && !row.querySelector("[data-late-mark]"))) {
        return refresh();
      }
    }
    if (kept) {
      const heading = hand.querySelector("h2");
      const submit = hand.querySelector("form.hand-form button[type=submit]");
      for (const [node, text] of [[heading, kept.dataset.heading], [submit, kept.dataset.submit]]) {
        if (!node) continue;
        node.textContent = text;
        delete node.dataset.text;
      }
      const value = hand.querySelector("#tile-value");
      if (value && kept.dataset.tilesValue) value.setAttribute("hx-post", kept.dataset.tilesValue);
    }
    current.replaceChildren(...Array.from(document.importNode(box, true).childNodes));
    if (kept) current.querySelector("#hand[data-kept]").replaceWith(hand);
    if (callKept && call) current.querySelector("#referee-call[data-kept]").replaceWith(call);
    if (shownRows) {
      const body = current.querySelector("tbody[data-rows-kept]");
      body.append(...shownRows);
      markLate(body, shownRows);
      body.removeAttribute("data-rows-kept");
    }
    if (window.htmx) window.htmx.process(current);
    current.dispatchEvent(new CustomEvent("htmx:load", { bubbles: true, detail: { elt: current } }));
    render();
    keepCopy();
  }

  // The hands the answer names as entered after the table's time (null when it names none: no clock).
  function lateHands(body) {
    if (body.dataset.late === undefined) return null;
    return new Set(body.dataset.late.split(" ").filter(Boolean));
  }

  function handOf(row) {
    const number = row.querySelector("td.hn");
    return number ? number.textContent.trim() : null;
  }

  // The rows the page keeps were drawn before: a hand marked as entered after the table's time keeps its
  // mark only if the answer still names it (the table's time may have been extended since, or the clock
  // paused: the page drawn whole shows no mark then either).
  function markLate(body, rows) {
    const late = lateHands(body);
    if (late === null) return;
    for (const row of rows) {
      const mark = row.querySelector("[data-late-mark]");
      if (mark && !late.has(handOf(row))) mark.remove();
    }
    body.removeAttribute("data-late");
  }

  function keepCopy() {
    // The service worker's copy of the page is this page as it now is, without what only this visit shows.
    if (!CACHE || !window.caches) return;
    const copy = document.documentElement.cloneNode(true);
    copy
      .querySelectorAll("#offline-queue, #pending-scores, main > .messages, .entry-check")
      .forEach((n) => n.remove());
    copy.querySelectorAll("[data-ready]").forEach((n) => n.removeAttribute("data-ready"));
    copy.querySelectorAll("[data-text]").forEach((n) => {
      n.textContent = n.dataset.text;
      n.removeAttribute("data-text");
    });
    copy.querySelectorAll("[data-tp-hand] .tp-group, [data-tp-hand] .tp-in").forEach((n) => n.remove());
    const html = "<!doctype html>\n" + copy.outerHTML;
    caches
      .open(CACHE)
      .then((c) => c.put(PAGE, new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } })))
      .catch(() => {});
  }

  function focusNextHand() {
    // After a save the next hand's first field has the focus, not the top of the page.
    const field = document.querySelector("form.hand-form input[name=result]");
    if (field) field.focus({ preventScroll: true });
  }

  async function refresh() {
    const res = await fetch(PAGE, { credentials: "same-origin", cache: "no-store" });
    if (!res.ok) return;
    swapPage(new DOMParser().parseFromString(await res.text(), "text/html"));
  }

  function errorsOf(doc) {
    const nodes = doc.querySelectorAll(
      "form.hand-form .field-error, form.hand-form .errorlist p, main .message.error li, #idempotency-refused strong"
    );
    return Array.from(nodes, (n) => n.textContent.trim()).filter(Boolean).join(" ");
  }

  function closeQueue() {
    // The table takes no more hands: every hand kept here stays, marked, for a referee to see.
    const q = load();
    for (const item of q) if (item.state !== "closed") item.state = "closed";
    save(q);
  }

  function renewCsrf() {
    const input = document.querySelector('input[name="csrfmiddlewaretoken"]');
    if (!input) return;
    const q = load();
    for (const item of q) setField(item.fields, "csrfmiddlewaretoken", input.value);
    save(q);
  }

  // What to do after one answer: "next" hand, "retry" later, or "stop" for the scorer's decision.
  async function handle(item, res, csrfRenewed) {
    const type = res.headers.get("Content-Type") || "";
    if (res.status >= 500 || type.includes("json")) {
      problem = "server";
      return "retry"; // not stored by the server: send again
    }
    const html = await res.text();
    const doc = new DOMParser().parseFromString(html, "text/html");
    const answered = doc.getElementById("offline-entry");
    if (!res.ok && answered && answered.dataset.closed) {
      // the table as it is now; the panel of the phone's hands says why it takes no more (not the answer's
      // own message about the refused form)
      doc.querySelectorAll("main [data-errors]").forEach((n) => n.remove());
      swapPage(doc);
      closeQueue();
      return "stop";
    }
    if (res.ok) {
      if (new URL(res.url).pathname !== PAGE) {
        update(item.key, { state: "refused", error: T.refusedUnknown });
        return "stop";
      }
      const q = load();
      save(q.filter((i) => i.key !== item.key));
      const box = doc.getElementById("entry-fragments");
      if (box) await swapFragments(box);
      else swapPage(doc); // with the server's "Hand n saved."
      if (q.length === 1) focusNextHand();
      return "next";
    }
    if (res.status === 409) {
      update(item.key, { state: "conflict" });
      await refresh();
      if (closedText()) closeQueue();
      return "stop";
    }
    if (res.status === 403 && /csrf/i.test(html) && !csrfRenewed) {
      await refresh();
      renewCsrf();
      return "again";
    }
    update(item.key, { state: "refused", error: errorsOf(doc) || T.refusedUnknown });
    return "stop";
  }

  async function flush() {
    if (flushing) return;
    flushing = true;
    stopped = false;
    render();
    let csrfRenewed = false;
    try {
      for (;;) {
        const item = load()[0];
        if (!item) break;
        if (closedText()) closeQueue();
        if (load()[0].state !== "waiting") {
          stopped = true;
          break;
        }
        let res;
        const abort = new AbortController();
        const stall = setTimeout(() => abort.abort(), TIMEOUT_MS);
        update(item.key, { tries: (item.tries || 0) + 1 });
        try {
          res = await fetch(PAGE, {
            method: "POST",
            body: new URLSearchParams(item.fields),
            credentials: "same-origin",
            cache: "no-store",
            // one request: the server stores the hand and answers the page's fragments that changed
            headers: { "X-Entry-Fragments": "1" },
            signal: abort.signal,
          });
        } catch (e) {
          // No network, no answer in time, or the answer was lost: the same request (the same key) is sent
          // again, so a hand the server did store is not stored twice.
          clearTimeout(stall);
          problem = abort.signal.aborted ? "timeout" : "offline";
          later();
          break;
        }
        clearTimeout(stall);
        problem = ""; // an answer came: the network works (the answer may still refuse the hand)
        const outcome = await handle(item, res, csrfRenewed);
        if (outcome === "again") {
          csrfRenewed = true;
          continue;
        }
        if (outcome === "retry") {
          later();
          break;
        }
        if (outcome === "stop") {
          stopped = true;
          break;
        }
        backoff = RETRY_FIRST_MS;
        problem = "";
      }
    } finally {
      flushing = false;
      render();
    }
  }

  // -- choices of the scorer -------------------------------------------------------------------------------
  function keepMine() {
    const q = load();
    const base = serverVersion();
    q.forEach((item, i) => rekey(item, base + i));
    save(q);
    backoff = RETRY_FIRST_MS;
    flush();
  }

  function discardMine() {
    if (!window.confirm(T.discardMineConfirm)) return;
    save([]);
    render();
  }

  function correct(key) {
    const q = load();
    const item = q.find((i) => i.key === key);
    const form = document.querySelector("form.hand-form");
    if (!item || !form) return;
    fill(form, item.fields);
    item.state = "editing";
    save(q);
    render();
    form.scrollIntoView({ block: "start" });
  }

  function discardOne(key) {
    if (!window.confirm(T.discardOneConfirm)) return;
    const q = load();
    const at = q.findIndex((i) => i.key === key);
    if (at < 0) return;
    const version = q[at].version;
    q.splice(at, 1);
    q.slice(at).forEach((item, i) => rekey(item, version + i)); // they came after it: one version earlier
    save(q);
    flush();
  }

  // -- showing the queue -------------------------------------------------------------------------------------
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    for (const child of children) node.append(child);
    return node;
  }

  function button(text, cls, onclick) {
    const b = el("button", { type: "button", class: cls }, text);
    b.addEventListener("click", onclick);
    return b;
  }

  function badgeOf(item) {
    if (item.state === "refused") return el("span", { class: "badge bad" }, T.badgeRefused);
    if (item.state === "conflict") return el("span", { class: "badge bad" }, T.badgeConflict);
    return el("span", { class: "badge warn" }, T.badgeWaiting);
  }

  function queueList(q) {
    const list = el("ol", { class: "queue", id: "offline-hands" });
    q.forEach((item, i) => {
      const li = el("li", { class: "queued " + item.state, "data-key": item.key });
      li.append(el("strong", {}, fmt(T.hand, nextHand() + i)), " · ", item.label || "", " ", badgeOf(item));
      if (item.state === "refused") {
        li.append(el("small", { class: "field-error", role: "alert" }, T.refused + " " + item.error));
        li.append(
          el(
            "div",
            { class: "actions" },
            button(T.correct, "small", () => correct(item.key)),
            button(T.discardOne, "small secondary outline", () => discardOne(item.key))
          )
        );
      } else if (item.state === "editing") {
        li.append(el("small", { class: "muted" }, fmt(T.editing, nextHand() + i)));
      }
      list.append(li);
    });
    return list;
  }

  function closedPanel(q) {
    // No "add my hands after these": the table takes none; the hands keep the numbers they were entered as.
    const panel = el("article", { class: "message error", id: "offline-closed", role: "alert" });
    panel.append(el("strong", {}, closedText() || T.closedTitle));
    const list = el("ol", { class: "queue", id: "offline-hands" });
    q.forEach((item, i) => {
      const li = el("li", { class: "queued closed", "data-key": item.key });
      li.append(el("strong", {}, fmt(T.hand, item.number || nextHand() + i)), " · ", item.label || "", " ");
      li.append(el("span", { class: "badge bad" }, T.badgeRefused));
      list.append(li);
    });
    panel.append(list, el("div", { class: "actions" }, button(T.discardMine, "secondary outline", discardMine)));
    return panel;
  }

  function conflictPanel(q) {
    const panel = el("article", { class: "message error", id: "offline-conflict", role: "alert" });
    panel.append(el("strong", {}, T.conflictTitle), el("p", {}, T.conflictText));
    const theirs = el("div", { class: "version", id: "conflict-server" }, el("h3", {}, T.serverVersion));
    const seats = document.querySelector("main > .seats");
    if (seats) theirs.append(seats.cloneNode(true));
    const table = document.querySelector("#hands .table-wrap");
    theirs.append(table ? table.cloneNode(true) : el("p", { class: "muted" }, T.noHands));
    theirs.querySelectorAll("a").forEach((a) => a.remove()); // a copy to compare, not to act on
    const mine = el("div", { class: "version", id: "conflict-phone" }, el("h3", {}, T.queueTitle), queueList(q));
    panel.append(
      el("div", { class: "conflict-grid" }, theirs, mine),
      el(
        "div",
        { class: "actions" },
        button(T.keepMine, "", keepMine),
        button(T.discardMine, "secondary outline", discardMine)
      )
    );
    return panel;
  }

  function renumber(n) {
    // The hand form counts the hands kept on the phone; while a hand is corrected, it names that hand.
    const next = String(nextHand());
    const line = document.querySelector("main > p.state-line[data-next]");
    if (line) {
      if (line.dataset.text === undefined) line.dataset.text = line.textContent;
      line.textContent = n ? fmt(T.nextAfterQueue, nextHand() + n) : line.dataset.text;
    }
    const editing = load().findIndex((i) => i.state === "editing");
    for (const node of document.querySelectorAll("#hand > h2, form.hand-form button[type=submit]")) {
      if (node.dataset.text === undefined) node.dataset.text = node.textContent;
      if (editing >= 0) {
        const label = node.tagName === "BUTTON" ? T.saveCorrected : T.hand;
        node.textContent = fmt(label, nextHand() + editing);
      } else {
        node.textContent = n ? node.dataset.text.replace(next, String(nextHand() + n)) : node.dataset.text;
      }
    }
  }

  function render() {
    const anchor = root();
    if (!anchor) return;
    const q = load();
    let box = document.getElementById("offline-queue");
    if (!box) {
      box = el("section", { id: "offline-queue", "aria-live": "polite" });
      anchor.after(box);
    }
    box.replaceChildren();
    const note = document.getElementById("pending-scores");
    if (note) note.remove();
    const closed = q.length > 0 && (closedText() !== "" || q.some((i) => i.state === "closed"));
    renumber(closed ? 0 : q.length);
    box.hidden = q.length === 0;
    if (!q.length) return;
    if (closed) {
      box.append(closedPanel(q));
      return;
    }
    // The first try of a hand on a working network is "sending"; the banner is for hands really waiting.
    const reallyWaiting = !navigator.onLine || stopped || problem || q.length > 1 || q.some((i) => (i.tries || 0) > 1);
    if (!reallyWaiting) {
      box.append(el("p", { class: "message", id: "entry-sending" }, fmt(T.sendingHand, nextHand())));
      return;
    }
    const banner = el("div", { class: "message warn", id: "offline-banner" });
    banner.append(el("strong", {}, waiting(q.length)));
    const state = !navigator.onLine || problem === "offline" ? T.offline : stopped ? T.stopped
      : problem === "timeout" ? T.noAnswer : problem === "server" ? T.serverError : flushing ? T.sending : "";
    if (state) banner.append(el("br"), el("small", {}, state));
    box.append(banner);
    if (q.some((i) => i.state === "conflict")) {
      box.append(conflictPanel(q));
    } else {
      box.append(el("h2", {}, T.queueTitle), queueList(q));
    }
    const seats = document.querySelector("main > .seats");
    if (seats) seats.after(el("p", { class: "muted pending-scores", id: "pending-scores" }, pendingScores(q.length)));
  }

  // -- when to send --------------------------------------------------------------------------------------------
  window.addEventListener("online", () => {
    backoff = RETRY_FIRST_MS;
    flush();
  });
  window.addEventListener("offline", render);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") flush();
  });
  setInterval(() => {
    const q = load();
    if (q.length && q[0].state === "waiting" && timer === null) flush();
  }, 15000);

  if ("serviceWorker" in navigator && first.dataset.sw) {
    navigator.serviceWorker.register(first.dataset.sw, { scope: "/" }).catch(() => {});
    // The private table page itself goes into the worker's cache on the first visit: a reload with no
    // network then gives the full page (its files are taken by the worker when it installs).
    // (A page served through the worker was put in its cache by the worker.)
    if (CACHE && window.caches && first.hasAttribute("data-precache") && !navigator.serviceWorker.controller) {
      navigator.serviceWorker.ready
        .then(() => caches.open(CACHE))
        .then((c) => c.add(new Request(PAGE, { credentials: "same-origin", cache: "no-store" })))
        .catch(() => {});
    }
  }
  render();
  flush();
})();
