// Public pages that keep themselves current (standings, a player's results and seat, a session, the
// tournament's front page with its seat search): every few
// seconds the page asks the server whether its tournaments' pages changed (an answer of 204 means no);
// when they did it fetches itself again and swaps in its [data-live-region] parts (by id), so the visitor
// keeps their place, search and marks. When the server cannot be reached the page says since when it is
// showing old data, and keeps asking; the notice goes once an answer comes back. That time is the server's
// (the Date of its last answer), shown in the tournament's time zone (data-live-zone) on a 24-hour clock
// with seconds, as the pages' own "Last updated at" times are: one clock, one format.
(function () {
  "use strict";
  var notice = document.getElementById("live-notice");
  if (!notice || !window.fetch || !window.DOMParser) return;
  var url = notice.getAttribute("data-live-url");
  var stamp = notice.getAttribute("data-live-stamp") || "";
  var seconds = parseFloat(notice.getAttribute("data-live-seconds")) || 20;
  var gettext = window.gettext || function (text) { return text; };  // the catalogue (/i18n/js/<language>.js)
  var staleText = gettext("No connection since %(time)s — showing what we had.");
  var zone = notice.getAttribute("data-live-zone") || undefined;
  var lastContact = new Date(), busy = false, timer = null;

  function two(n) { return String(n).padStart(2, "0"); }
  function clock(date) {
    try {
      var parts = {};
      new Intl.DateTimeFormat("en-GB", {timeZone: zone, hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23"})
        .formatToParts(date).forEach(function (p) { parts[p.type] = p.value; });
      return parts.hour + ":" + parts.minute + ":" + parts.second;
    } catch (e) {
      return two(date.getHours()) + ":" + two(date.getMinutes()) + ":" + two(date.getSeconds());
    }
  }
  function contact(response) {
    // the server's time of the answer; the phone's own clock only when the server gave none
    var date = response && Date.parse(response.headers.get("Date") || "");
    lastContact = date ? new Date(date) : new Date();
  }
  function stale() {
    notice.textContent = staleText.replace("%(time)s", clock(lastContact));
    notice.hidden = false;
    document.documentElement.setAttribute("data-live-stale", "1");
  }
  function fresh() {
    notice.hidden = true;
    notice.textContent = "";
    document.documentElement.removeAttribute("data-live-stale");
  }
  function swap(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    // the page changed shape (the hidden standings revealed at the prize-giving): load it whole
    var regions = document.querySelectorAll("[data-live-region]");
    for (var i = 0; i < regions.length; i++) {
      if (regions[i].id && !doc.getElementById(regions[i].id)) { window.location.reload(); return; }
    }
    var next = doc.getElementById("live-notice");
    if (next) stamp = next.getAttribute("data-live-stamp") || stamp;
    document.querySelectorAll("[data-live-region]").forEach(function (old) {
      var part = old.id && doc.getElementById(old.id);
      if (!part) return;
      var node = document.importNode(part, true);
      old.replaceWith(node);
      // clocks and other scripts start on new content as after an htmx swap
      node.dispatchEvent(new CustomEvent("htmx:load", {bubbles: true}));
      if (window.htmx && window.htmx.process) window.htmx.process(node);
    });
    // a seat search asked before the update is asked again (its answer is not part of the page)
    document.querySelectorAll("form[data-live-resubmit]").forEach(function (form) {
      var query = form.querySelector("input[type=search]");
      if (query && query.value.trim().length >= 2 && window.htmx) window.htmx.trigger(form, "submit");
    });
    // a search typed before the update filters the new lines too
    document.querySelectorAll("input[data-filter]").forEach(function (input) {
      if (input.value) input.dispatchEvent(new Event("input", {bubbles: true}));
    });
    document.dispatchEvent(new CustomEvent("live:swapped"));
  }
  function ask() {
    if (busy) return;
    busy = true;
    var query = url + (url.indexOf("?") === -1 ? "?" : "&") + "v=" + encodeURIComponent(stamp);
    fetch(query, {cache: "no-store", credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (r) {
        if (r.status === 204 || r.ok) contact(r);
        if (r.status === 204) return null;
        if (!r.ok) throw new Error(r.status);
        return r.json().then(function (body) {
          return fetch(window.location.href, {cache: "no-store", credentials: "same-origin"}).then(function (page) {
            if (!page.ok) throw new Error(page.status);
            return page.text();
          }).then(function (html) { swap(html); stamp = body.v || stamp; });
        });
      })
      .then(fresh, stale)
      .then(function () { busy = false; }, function () { busy = false; });
  }
  function again() { clearInterval(timer); timer = setInterval(ask, seconds * 1000); }
  window.addEventListener("offline", stale);
  window.addEventListener("online", function () { ask(); again(); });
  document.addEventListener("visibilitychange", function () { if (!document.hidden) ask(); });
  window.livePage = {ask: ask};
  again();
})();
