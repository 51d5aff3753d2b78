// The session clock on any page: every element with data-clock-api counts down by itself.
//
// The server sends its own time with the clock (server_time); the page keeps the offset between the
// server and this device, so a device whose clock is wrong still shows the right time, and a phone that
// slept shows it the moment it wakes (the page asks again on wake, focus and when the network returns).
// Between answers the page counts down from ends_at; a failed request keeps the countdown going and is
// retried, so a network blip changes nothing on screen but a small "offline" mark.
(function () {
  "use strict";
  if (window.mahjongSessionClock) return; // loaded once per page, whatever the partial updates bring
  window.mahjongSessionClock = true;
  var gettext = window.gettext || function (text) { return text; };  // the catalogue (/i18n/js/<language>.js)
  var interpolate = window.interpolate || function (text, values) {
    return text.replace(/%\((\w+)\)s/g, function (all, name) { return String(values[name]); });
  };

  function fmt(seconds) {
    if (seconds === null || seconds === undefined) return "–";
    var total = Math.max(0, Math.ceil(seconds));
    var h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
    var mm = h ? String(m).padStart(2, "0") : String(m);
    return (h ? h + ":" : "") + mm + ":" + String(s).padStart(2, "0");
  }

  function phaseOf(left, data, started) {
    if (left === null || !started) return "waiting";
    if (left <= 0) return "over";
    if (left <= data.red_zone_seconds) return "red";
    if (left <= data.signal_seconds) return "signal";
    return "normal";
  }

  function Beeper() {
    var ctx = null;
    this.enabled = false;
    this.enable = function () {
      try {
        ctx = ctx || new (window.AudioContext || window.webkitAudioContext)();
        if (ctx.state === "suspended") ctx.resume();
        this.enabled = true;
      } catch (e) { this.enabled = false; }
    };
    this.beep = function (times, pitch) {
      if (!this.enabled || !ctx) return;
      for (var i = 0; i < times; i++) {
        var osc = ctx.createOscillator(), gain = ctx.createGain();
        var start = ctx.currentTime + i * 0.7;
        osc.frequency.value = pitch;
        gain.gain.setValueAtTime(0.0001, start);
        gain.gain.exponentialRampToValueAtTime(0.6, start + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.6);
        osc.connect(gain).connect(ctx.destination);
        osc.start(start);
        osc.stop(start + 0.62);
      }
    };
  }

  function Clock(root) {
    this.root = root;
    this.api = root.getAttribute("data-clock-api");
    this.table = root.hasAttribute("data-clock-table") ? parseInt(root.getAttribute("data-clock-table"), 10) : null;
    // A table's clock belongs to its session: once the room's clock is about a later session, this one is
    // over; while it is about an earlier one, this one has not started.
    this.own = root.hasAttribute("data-clock-own") ? parseInt(root.getAttribute("data-clock-own"), 10) : null;
    this.ownLeft = parseFloat(root.getAttribute("data-clock-left"));
    this.poll = (parseFloat(root.getAttribute("data-clock-poll")) || 15) * 1000;
    this.data = null;
    this.offset = 0; // server time minus this device's time, in ms
    this.store = "mahjong-clock:" + this.api;
    this.lastPhase = null;
    this.beeper = new Beeper();
    this.timer = null;
    var self = this;
    var sound = root.querySelector("[data-clock-sound]");
    if (sound) {
      sound.addEventListener("click", function () {
        if (self.beeper.enabled) { self.beeper.enabled = false; sound.setAttribute("aria-pressed", "false"); }
        else { self.beeper.enable(); self.beeper.beep(1, 660); sound.setAttribute("aria-pressed", "true"); }
      });
    }
    this.wake = function () { if (!document.hidden) self.fetch(); };
    ["visibilitychange", "focus", "online", "pageshow"].forEach(function (name) {
      (name === "visibilitychange" ? document : window).addEventListener(name, self.wake);
    });
    this.fetch();
    this.ticker = setInterval(function () { self.tick(); }, 250);
  }

  // A clock whose element left the page (a partial update replaced it) stops; the new element has its own.
  Clock.prototype.gone = function () {
    if (this.root.isConnected) return false;
    clearInterval(this.ticker);
    clearTimeout(this.timer);
    var wake = this.wake;
    ["visibilitychange", "focus", "online", "pageshow"].forEach(function (name) {
      (name === "visibilitychange" ? document : window).removeEventListener(name, wake);
    });
    return true;
  };

  Clock.prototype.schedule = function (ms) {
    var self = this;
    clearTimeout(this.timer);
    this.timer = setTimeout(function () { self.fetch(); }, ms);
  };

  Clock.prototype.fetch = function () {
    if (this.gone()) return;
    var self = this, sent = Date.now();
    fetch(this.api, {headers: {"Accept": "application/json"}, cache: "no-store", credentials: "same-origin"})
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (data) {
        var received = Date.now();
        self.offset = Date.parse(data.server_time) - (sent + received) / 2;
        self.data = data;
        self.root.removeAttribute("data-offline");
        try { localStorage.setItem(self.store, JSON.stringify({data: data, offset: self.offset})); } catch (e) { /* full */ }
        self.tick();
        self.schedule(self.poll);
      })
      .catch(function () {
        if (!self.data) {
          // A page opened with no network counts down from the last answer this phone had.
          try {
            var kept = JSON.parse(localStorage.getItem(self.store) || "null");
            if (kept) { self.data = kept.data; self.offset = kept.offset; }
          } catch (e) { /* nothing kept */ }
        }
        self.root.setAttribute("data-offline", "1");
        self.tick();
        self.schedule(Math.min(self.poll, 5000));
      });
  };

  Clock.prototype.view = function () {
    var d = this.data, now = Date.now() + this.offset;
    if (this.own !== null && d.session !== null && d.session !== this.own) {
      if (d.session > this.own) return {state: "closed", left: 0, extra: 0, phase: "closed"};
      var left = isNaN(this.ownLeft) ? d.length_seconds : this.ownLeft;
      return {state: "stopped", left: left, extra: 0, phase: phaseOf(left, d, false)};
    }
    var source = d, extra = 0;
    if (this.table !== null) {
      source = null;
      for (var i = 0; i < d.tables.length; i++) if (d.tables[i].table === this.table) source = d.tables[i];
      if (!source) source = {ends_at: d.ends_at, remaining_seconds: d.remaining_seconds, extra_seconds: 0};
      extra = source.extra_seconds || 0;
    }
    var state = d.state, left;
    var counting = (d.state === "running" || (d.state === "ended" && source.ends_at)) && source.ends_at;
    if (counting) {
      left = (Date.parse(source.ends_at) - now) / 1000;
      state = left <= 0 ? "ended" : "running";
    } else {
      left = source.remaining_seconds;
      if (d.state === "ended") left = 0;
    }
    if (d.closed) return {state: "closed", left: 0, extra: extra, phase: "closed"};
    return {state: state, left: left, extra: extra, phase: phaseOf(left, d, d.state !== "stopped")};
  };

  Clock.prototype.tick = function () {
    if (this.gone() || !this.data) return;
    var d = this.data, v = this.view(), root = this.root;
    root.setAttribute("data-state", v.state);
    root.setAttribute("data-phase", v.phase);
    root.setAttribute("data-session", d.session === null ? "" : d.session);
    root.setAttribute("data-end-rule", d.end_of_time);
    // The longest time this clock will show (the session's length with its extra time): the digits are
    // sized to it once, so they fit from the start and do not jump when the hours go.
    var longest = fmt(Math.max(v.left || 0, (d.length_seconds || 0) + Math.max(0, d.extra_seconds || 0) + Math.max(0, v.extra || 0)));
    root.setAttribute("data-clock-longest", longest);
    fitDigits(root, longest);
    root.querySelectorAll("[data-clock-text]").forEach(function (el) { el.textContent = fmt(v.left); });
    root.querySelectorAll("[data-clock-session]").forEach(function (el) { el.textContent = d.session || "–"; });
    root.querySelectorAll("[data-clock-extra]").forEach(function (el) {
      var s = v.extra;
      el.textContent = s ? interpolate(gettext("this table: %(time)s"), {time: (s > 0 ? "+" : "−") + fmt(Math.abs(s))}, true) : "";
    });
    root.querySelectorAll("[data-clock-show]").forEach(function (el) {
      var wanted = el.getAttribute("data-clock-show").split(" ");
      el.hidden = wanted.indexOf(v.state) === -1 && wanted.indexOf(v.phase) === -1 &&
        wanted.indexOf(v.phase + ":" + d.end_of_time) === -1;
    });
    root.querySelectorAll("[data-clock-table-left]").forEach(function (el) {
      var n = parseInt(el.getAttribute("data-clock-table-left"), 10), row = null;
      for (var i = 0; i < d.tables.length; i++) if (d.tables[i].table === n) row = d.tables[i];
      if (!row) return;
      var left = row.remaining_seconds;
      if (d.state === "running" || (d.state === "ended" && row.ends_at)) {
        left = row.ends_at ? (Date.parse(row.ends_at) - (Date.now() + this.offset)) / 1000 : 0;
      }
      el.textContent = fmt(left) + (row.extra_seconds ? " (" + (row.extra_seconds > 0 ? "+" : "−") + fmt(Math.abs(row.extra_seconds)) + ")" : "");
      el.setAttribute("data-phase", phaseOf(left, d, d.state !== "stopped"));
    }, this);
    if (this.lastPhase && this.lastPhase !== v.phase) {
      if (v.phase === "signal") this.beeper.beep(2, 880);
      // no sound at the end where the last hands count from the signal (riichi 2025 §7.4)
      if (v.phase === "over" && d.end_of_time !== "after_signal") this.beeper.beep(3, 440);
    }
    this.lastPhase = v.phase;
  };

  // [data-fit] digits: as large as their CSS font size allows, but no wider than their share
  // (--fit-share, 1 by default) of their parent's width for the longest text; sized again when that text,
  // the window or their visibility changes.
  var probe = null;
  function fitDigits(root, longest) {
    var fits = root.querySelectorAll("[data-fit]");
    if (!fits.length) return;
    var pattern = longest.replace(/\d/g, "0");
    Array.prototype.forEach.call(fits, function (el) {
      var shown = el.getClientRects().length > 0;
      var key = pattern + "|" + window.innerWidth + "x" + window.innerHeight + "|" + shown;
      if (el.fitKey === key) return;
      el.fitKey = key;
      if (!shown) return;
      if (!probe) {
        probe = document.createElement("span");
        probe.setAttribute("aria-hidden", "true");
        probe.style.cssText = "position:absolute;left:-9999px;top:0;visibility:hidden;white-space:nowrap;";
        document.body.appendChild(probe);
      }
      el.style.fontSize = "";
      var style = getComputedStyle(el), size = parseFloat(style.fontSize);
      var box = el.parentElement, boxStyle = getComputedStyle(box);
      var share = parseFloat(style.getPropertyValue("--fit-share")) || 1;
      var room = (box.clientWidth - parseFloat(boxStyle.paddingLeft) - parseFloat(boxStyle.paddingRight)) * share;
      probe.style.fontFamily = style.fontFamily;
      probe.style.fontWeight = style.fontWeight;
      probe.style.letterSpacing = style.letterSpacing;
      probe.style.fontSize = size + "px";
      probe.textContent = pattern;
      var width = probe.getBoundingClientRect().width;
      if (width > room * 0.97) el.style.fontSize = Math.floor(size * room * 0.97 / width) + "px";
    });
  }

  // Every clock element starts once: at page load and in any content a partial update brings (htmx:load).
  function start(scope) {
    var roots = Array.prototype.slice.call((scope || document).querySelectorAll("[data-clock-api]"));
    if (scope && scope.matches && scope.matches("[data-clock-api]")) roots.push(scope);
    roots.forEach(function (root) { if (!root.sessionClock) root.sessionClock = new Clock(root); });
  }
  document.addEventListener("htmx:load", function (event) { start(event.target); });
  // A page that just showed or moved clock digits (the venue screen's panels) has them sized now.
  window.mahjongClockRefresh = function () {
    document.querySelectorAll("[data-clock-api]").forEach(function (root) {
      if (root.sessionClock) root.sessionClock.tick();
    });
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { start(); });
  else start();
})();
