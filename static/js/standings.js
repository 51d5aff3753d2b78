// The standings page: search, "this is me" (kept in this phone's storage), show me.
(function () {
  "use strict";
  var table = document.getElementById("standings");
  if (!table) return;
  var storeKey = "mahjong:me:" + table.getAttribute("data-slug");
  var search = document.getElementById("standings-search");
  var jump = document.getElementById("standings-jump");
  var gettext = window.gettext || function (text) { return text; };  // the catalogue (/i18n/js/<language>.js)
  var label = gettext("This is me");
  function me() { try { return localStorage.getItem(storeKey) || ""; } catch (e) { return ""; } }
  function setMe(key) { try { if (key) { localStorage.setItem(storeKey, key); } else { localStorage.removeItem(storeKey); } } catch (e) {} }
  function apply() {
    var mine = me();
    var q = search ? search.value.trim() : "";
    var rows = table.tBodies[0] ? table.tBodies[0].rows : [];
    for (var i = 0; i < rows.length; i++) {
      var row = rows[i];
      var key = row.getAttribute("data-player");
      var isMe = !!key && key === mine;
      row.classList.toggle("me", isMe);
      var button = row.querySelector(".me-toggle");
      if (!button && key) {  // the star of each row is added here: it works with this phone's storage only
        var td = row.insertCell(-1);
        td.className = "me-cell";
        button = document.createElement("button");
        button.type = "button";
        button.className = "me-toggle";
        button.setAttribute("data-me", key);
        button.title = label;
        td.appendChild(button);
      }
      if (button) { button.textContent = isMe ? "★" : "☆"; button.setAttribute("aria-pressed", isMe ? "true" : "false"); }
      row.hidden = q !== "" && !window.nameMatches(row.textContent, q);  // app.js: names folded as the server folds them
    }
    if (jump) { jump.hidden = !mine || !table.querySelector("tr.me"); }
  }
  table.addEventListener("click", function (event) {
    var button = event.target.closest(".me-toggle");
    if (!button) return;
    var key = button.getAttribute("data-me");
    setMe(me() === key ? "" : key);
    apply();
  });
  if (search) search.addEventListener("input", apply);
  if (jump) jump.addEventListener("click", function (event) {
    event.preventDefault();
    var row = table.querySelector("tr.me");
    if (row) row.scrollIntoView({block: "center"});
  });
  document.body.addEventListener("htmx:afterSwap", apply);
  document.body.addEventListener("htmx:oobAfterSwap", apply);
  document.addEventListener("live:swapped", apply);  // live-page.js brought new rows
  apply();
})();
