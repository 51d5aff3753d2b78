// Behaviour shared by every page, without inline handlers (the Content-Security-Policy allows none):
// - select[data-autosubmit]: submits its form when changed (the language menu);
// - input[data-filter="<selector>"]: hides the elements matching the selector whose text lacks a word of the
//   query, folded as the server folds names (tournaments/names.py: "soren" finds Søren, "nunez" Ñúñez); with
//   data-filter-empty="text" a line says so when nothing matches;
// - button[data-print]: prints the page;
// - [data-errors] (the summary of a refused form, an error message): the page scrolls to the first and focuses it;
// - .table-wrap wider than the screen: reachable by the keyboard (tabindex 0), so that it scrolls without a finger;
// - input[name=idempotency_key] (a form's key, one per rendering): the data sent with each key are remembered
//   for the tab; a form sent again with the same data keeps its key (one write), with other data (Back, then
//   a change) it takes a fresh key (a new write, not a refusal);
// - meta[name="offline-account"]: told to the table pages' service worker, which forgets other accounts' copies.
(function () {
  "use strict";
  // The letters Unicode does not decompose; the same table as tournaments/names.py LETTERS.
  var LETTERS = {"ø": "o", "ł": "l", "æ": "ae", "ß": "ss", "ẞ": "ss", "đ": "d", "ð": "d", "œ": "oe", "þ": "th", "ħ": "h", "ı": "i", "ŀ": "l", "ŧ": "t", "ŋ": "n", "ĳ": "ij", "ſ": "s", "ƒ": "f", "ɨ": "i", "ʉ": "u", "ƀ": "b", "ɍ": "r", "ȼ": "c", "ɇ": "e", "ɉ": "j", "ƶ": "z", "ⱥ": "a", "ȿ": "s"};
  var PUNCTUATION = {"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'", "\u00b4": "'", "\u2010": "-", "\u2011": "-", "\u2013": "-"};
  function spell(text) {
    var out = "";
    for (var i = 0; i < text.length; i++) {
      var c = text.charAt(i);
      out += Object.prototype.hasOwnProperty.call(LETTERS, c) ? LETTERS[c] : (PUNCTUATION[c] || c);
    }
    return out;
  }
  function foldName(text) {
    var s = spell(String(text || "").toLowerCase());
    s = s.normalize("NFKD").replace(/[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g, "");
    return spell(s).split(/\s+/).filter(Boolean).join(" ");
  }
  function matches(text, words) {
    var folded = foldName(text);
    for (var i = 0; i < words.length; i++) if (folded.indexOf(words[i]) === -1) return false;
    return true;
  }
  window.foldName = foldName;
  window.nameMatches = function (text, query) { return matches(text, foldName(query).split(" ").filter(Boolean)); };

  function freshKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID().replace(/-/g, "");
    var bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var field = form instanceof HTMLFormElement && form.querySelector("input[name=idempotency_key]");
    if (!field) return;
    var data;
    try {
      data = new URLSearchParams(new FormData(form, event.submitter || undefined));
    } catch (e) {
      data = new URLSearchParams(new FormData(form));
    }
    data.delete("idempotency_key");
    data.delete("csrfmiddlewaretoken");
    var sent = data.toString();
    try {
      var before = sessionStorage.getItem("idempotency:" + field.value);
      if (before !== null && before !== sent) field.value = freshKey();
      sessionStorage.setItem("idempotency:" + field.value, sent);
    } catch (e) { /* no storage (private mode): the server's refusal still says what to do */ }
  }, true);
  document.addEventListener("change", function (event) {
    var select = event.target.closest("select[data-autosubmit]");
    if (select && select.form) select.form.submit();
  });
  document.addEventListener("input", function (event) {
    var input = event.target.closest("input[data-filter]");
    if (!input) return;
    var words = foldName(input.value).split(" ").filter(Boolean);
    var shown = 0;
    document.querySelectorAll(input.getAttribute("data-filter")).forEach(function (item) {
      item.hidden = words.length > 0 && !matches(item.textContent, words);
      if (!item.hidden) shown += 1;
    });
    var emptyText = input.getAttribute("data-filter-empty");
    if (!emptyText) return;
    var line = input.nextElementSibling;
    if (!line || !line.classList.contains("filter-empty")) {
      line = document.createElement("p");
      line.className = "filter-empty muted";
      line.setAttribute("role", "status");
      input.insertAdjacentElement("afterend", line);
    }
    line.textContent = words.length > 0 && shown === 0 ? emptyText : "";
    line.hidden = !(words.length > 0 && shown === 0);
  });
  document.addEventListener("click", function (event) {
    if (event.target.closest("button[data-print]")) window.print();
  });
  function showErrors() {
    var summary = document.querySelector("[data-errors]");
    if (!summary) return;
    summary.scrollIntoView({block: "start"});
    summary.focus({preventScroll: true});
  }
  function scrollables() {
    document.querySelectorAll(".table-wrap").forEach(function (wrap) {
      if (wrap.scrollWidth > wrap.clientWidth + 1) {
        if (!wrap.hasAttribute("tabindex")) wrap.setAttribute("tabindex", "0");
      } else if (wrap.getAttribute("tabindex") === "0") {
        wrap.removeAttribute("tabindex");
      }
    });
  }
  function tellAccount() {
    var account = document.querySelector('meta[name="offline-account"]');
    if (account && "serviceWorker" in navigator && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage({
        type: "account", account: account.content, language: document.documentElement.lang || ""
      });
    }
  }
  function ready() {
    tellAccount();
    showErrors();
    scrollables();
    window.addEventListener("resize", scrollables);
    document.addEventListener("htmx:afterSettle", scrollables);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();

  // The table pages' offline copies (the service worker's) belong to one account: tell the worker which
  // account this page was shown to ("" for nobody), so that it forgets the copies taken for any other (a
  // session that ended, another account signed in by any door).
})();
