// A player's page: "this is me", kept in this phone's storage for the standings.
(function () {
  var button = document.getElementById("this-is-me");
  if (!button) return;
  var storeKey = "mahjong:me:" + button.getAttribute("data-slug");
  var key = button.getAttribute("data-key");
  var gettext = window.gettext || function (text) { return text; };  // the catalogue (/i18n/js/<language>.js)
  var label = gettext("This is me");
  function show() {
    var mine = ""; try { mine = localStorage.getItem(storeKey) || ""; } catch (e) {}
    button.setAttribute("aria-pressed", mine === key ? "true" : "false");
    button.textContent = mine === key ? "★ " + label : "☆ " + label;
  }
  button.addEventListener("click", function () {
    try { if (localStorage.getItem(storeKey) === key) { localStorage.removeItem(storeKey); } else { localStorage.setItem(storeKey, key); } } catch (e) {}
    show();
  });
  show();
})();
