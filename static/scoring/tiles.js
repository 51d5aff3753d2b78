/* The tile picker of the hand form: builds the notation in the form's tile fields from taps on drawn
   tiles, and redraws the hand when the notation is typed. The value is computed by the server (htmx);
   nothing here knows the rules. */
(function () {
  "use strict";
  if (window.mahjongTilePicker) return; // loaded once per page, whatever the partial updates bring
  window.mahjongTilePicker = true;
  var SUITS = "mpsz";
  var MELD_SIZE = { chow: 3, pung: 3, kong: 4, concealed_kong: 4 };
  var gettext = window.gettext || function (text) { return text; };  // the catalogue (/i18n/js/<language>.js)

  function parse(text) {
    var out = [], digits = "", chars = (text || "").replace(/\s+/g, "");
    for (var i = 0; i < chars.length; i++) {
      var ch = chars[i];
      if (ch >= "0" && ch <= "9") { digits += ch; continue; }
      if (SUITS.indexOf(ch) < 0) return null;
      for (var j = 0; j < digits.length; j++) out.push(digits[j] + ch);
      digits = "";
    }
    return digits ? null : out;
  }
  function order(code) { return SUITS.indexOf(code[1]) * 10 + Number(code[0]); }
  function sorted(codes) { return codes.slice().sort(function (a, b) { return order(a) - order(b); }); }
  function notation(codes) {
    var out = "", list = sorted(codes);
    for (var s = 0; s < SUITS.length; s++) {
      var digits = list.filter(function (c) { return c[1] === SUITS[s]; }).map(function (c) { return c[0]; }).join("");
      if (digits) out += digits + SUITS[s];
    }
    return out;
  }
  function parseMelds(text) {
    var melds = [];
    (text || "").split(",").forEach(function (part) {
      var bits = part.trim().split(/\s+/);
      if (bits.length !== 2 || !(bits[0] in MELD_SIZE)) return;
      var codes = parse(bits[1]);
      if (!codes || !codes.length) return;
      if (codes.length === 1 && bits[0] !== "chow") {
        while (codes.length < MELD_SIZE[bits[0]]) codes.push(codes[0]);
      }
      melds.push({ kind: bits[0], codes: codes });
    });
    return melds;
  }

  function Picker(root) {
    var form = root.closest("form");
    this.root = root;
    this.hand = form.querySelector("[name=tiles_hand]");
    this.melds = form.querySelector("[name=tiles_melds]");
    this.winning = form.querySelector("[name=tiles_winning]");
    this.area = root.querySelector("[data-tp-hand]");
    this.mode = "tile";
    this.faces = {};
    var self = this;
    root.querySelectorAll(".tp-tile").forEach(function (button) {
      self.faces[button.dataset.tile] = button.innerHTML;
      button.addEventListener("click", function () { self.tap(button.dataset.tile); });
    });
    root.querySelectorAll(".tp-mode").forEach(function (button) {
      button.addEventListener("click", function () { self.setMode(button.dataset.mode); });
    });
    [this.hand, this.melds, this.winning].forEach(function (input) {
      input.addEventListener("input", function () { self.read(); self.render(); self.changed(); });
    });
    // A reset form (the hand was queued) starts the next hand with an empty picker.
    form.addEventListener("reset", function () {
      setTimeout(function () { self.read(); self.setMode("tile"); self.render(); self.changed(); }, 0);
    });
    this.read();
    this.render();
  }
  Picker.prototype.read = function () {
    this.concealed = parse(this.hand.value) || [];
    this.meldList = parseMelds(this.melds.value);
    this.win = (this.winning.value || "").trim();
  };
  Picker.prototype.write = function () {
    this.hand.value = notation(this.concealed);
    this.melds.value = this.meldList.map(function (m) { return m.kind + " " + notation(m.codes); }).join(", ");
    this.winning.value = this.win;
    this.render();
    this.changed();
  };
  Picker.prototype.changed = function () {
    document.body.dispatchEvent(new CustomEvent("tiles-changed", { bubbles: true }));
  };
  Picker.prototype.setMode = function (mode) {
    this.mode = mode;
    this.root.querySelectorAll(".tp-mode").forEach(function (b) {
      b.setAttribute("aria-pressed", b.dataset.mode === mode ? "true" : "false");
    });
  };
  Picker.prototype.count = function (code) {
    var n = this.concealed.filter(function (c) { return c === code; }).length;
    this.meldList.forEach(function (m) { n += m.codes.filter(function (c) { return c === code; }).length; });
    return n;
  };
  Picker.prototype.size = function () { return this.concealed.length + 3 * this.meldList.length; };
  Picker.prototype.refuse = function (code) {
    var button = this.root.querySelector('.tp-tile[data-tile="' + code + '"]');
    if (!button) return;
    button.classList.add("tp-refused");
    setTimeout(function () { button.classList.remove("tp-refused"); }, 400);
  };
  Picker.prototype.tap = function (code) {
    var mode = this.mode;
    if (mode === "winning") { this.refuse(code); return; }
    if (mode === "tile") {
      if (this.size() >= 14 || this.count(code) >= 4) { this.refuse(code); return; }
      this.concealed.push(code);
      this.win = code;
      this.write();
      return;
    }
    var codes;
    if (mode === "chow") {
      if (code[1] === "z" || Number(code[0]) > 7) { this.refuse(code); return; }
      codes = [code, (Number(code[0]) + 1) + code[1], (Number(code[0]) + 2) + code[1]];
    } else {
      codes = [];
      for (var i = 0; i < MELD_SIZE[mode]; i++) codes.push(code);
    }
    var self = this, fits = this.size() + 3 <= 14 && this.meldList.length < 4 && codes.every(function (c) {
      return self.count(c) + codes.filter(function (d) { return d === c; }).length <= 4;
    });
    if (!fits) { this.refuse(code); return; }
    this.meldList.push({ kind: mode, codes: codes });
    this.setMode("tile");
    this.write();
  };
  Picker.prototype.tile = function (code, extra) {
    var span = document.createElement("button");
    span.type = "button";
    span.className = "tp-in " + (extra || "");
    span.dataset.tile = code;
    span.innerHTML = this.faces[code] || code;
    return span;
  };
  Picker.prototype.render = function () {
    var self = this, area = this.area;
    area.querySelectorAll(".tp-group, .tp-in").forEach(function (el) { el.remove(); });
    var empty = area.querySelector("[data-tp-empty]");
    if (empty) empty.hidden = this.concealed.length + this.meldList.length > 0;
    this.meldList.forEach(function (meld, index) {
      var group = document.createElement("span");
      group.className = "tp-group " + meld.kind;
      group.title = meld.kind.replace("_", " ");
      sorted(meld.codes).forEach(function (code) {
        var t = self.tile(code, "meld");
        t.addEventListener("click", function () { self.meldList.splice(index, 1); self.write(); });
        group.appendChild(t);
      });
      area.appendChild(group);
    });
    var marked = false;
    var group = document.createElement("span");
    group.className = "tp-group concealed";
    sorted(this.concealed).forEach(function (code) {
      var isWin = !marked && code === self.win;
      if (isWin) marked = true;
      var t = self.tile(code, isWin ? "win" : "");
      t.addEventListener("click", function () {
        if (self.mode === "winning") { self.win = code; self.setMode("tile"); self.write(); return; }
        var at = self.concealed.indexOf(code);
        if (at >= 0) self.concealed.splice(at, 1);
        if (self.win === code && self.concealed.indexOf(code) < 0) {
          self.win = self.concealed.length ? self.concealed[self.concealed.length - 1] : "";
        }
        self.write();
      });
      group.appendChild(t);
    });
    area.appendChild(group);
  };

  // Every picker starts once: at page load and in any content a partial update brings (htmx:load).
  function start(scope) {
    var roots = Array.prototype.slice.call((scope || document).querySelectorAll("[data-tile-picker]"));
    if (scope && scope.matches && scope.matches("[data-tile-picker]")) roots.push(scope);
    roots.forEach(function (root) {
      if (!root.dataset.ready) { root.dataset.ready = "1"; new Picker(root); }
    });
  }
  document.addEventListener("htmx:load", function (event) { start(event.target); });
  // The value preview answers 422 when the tiles are malformed or no winning hand: it still says why.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (target && target.id === "tile-value" && event.detail.xhr.status === 422) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
  // With no network the preview cannot be asked for: it says that the server values the hand once it is
  // sent, and asks again when the network is back.
  function offline(target) {
    if (!target || target.id !== "tile-value") return false;
    var p = document.createElement("p");
    p.className = "muted tp-offline";
    p.textContent = gettext(
      "No network: the value is worked out by the server when the hand is sent, once the phone is back online. The hand is kept on this phone meanwhile."
    );
    target.replaceChildren(p);
    return true;
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (navigator.onLine === false && offline(event.detail.elt)) event.preventDefault();
  });
  document.addEventListener("htmx:sendError", function (event) { offline(event.detail.elt); });
  document.addEventListener("htmx:responseError", function (event) {
    if (event.detail.xhr.status >= 500 || event.detail.xhr.status === 0) offline(event.detail.elt);
  });
  window.addEventListener("online", function () {
    if (document.getElementById("tile-value")) {
      document.body.dispatchEvent(new CustomEvent("tiles-changed", { bubbles: true }));
    }
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { start(); });
  else start();
})();
