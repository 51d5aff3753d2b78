// The calls waiting for a referee on the referees' pages (the session's overview and tables, the console,
// the director's dashboard): every few seconds the list is asked for again and replaced when it changed,
// so a table's new call shows without a reload, on the list and on the session overview's table map.
(function () {
  "use strict";
  var SECONDS = 10;
  var first = document.getElementById("referee-calls-box");
  if (!first || !window.fetch || !window.DOMParser) return;
  var url = first.getAttribute("data-calls-url");
  var busy = false;
  function ask() {
    if (busy || document.hidden) return;
    busy = true;
    fetch(url, {cache: "no-store", credentials: "same-origin"})
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) {
        var next = new DOMParser().parseFromString(html, "text/html").getElementById("referee-calls-box");
        var old = document.getElementById("referee-calls-box");
        if (next && old && next.innerHTML !== old.innerHTML) {
          old.innerHTML = next.innerHTML;
          mapBadges(old);
        }
      }, function () {})
      .then(function () { busy = false; });
  }
  // the session overview's table map: each row's call badge follows the list (tr#table-N, its status cell)
  function mapBadges(box) {
    var rows = document.querySelectorAll("tr[id^='table-']");
    for (var i = 0; i < rows.length; i++) {
      var number = rows[i].id.slice(6);
      var cell = rows[i].querySelector("td.map-status");
      if (!cell) continue;
      var shown = cell.querySelector(".call-badge");
      if (shown) shown.parentNode.removeChild(shown);
      var badge = box.querySelector("template[data-map-badge='" + number + "']");
      if (badge) cell.appendChild(document.importNode(badge.content, true));
    }
  }
  document.addEventListener("visibilitychange", ask);
  setInterval(ask, SECONDS * 1000);
})();
