// The seating page: pick two seats to swap them.
(function () {
  function clear() {
    document.querySelectorAll("button.seat-pick[aria-pressed=true]").forEach(function (b) { b.setAttribute("aria-pressed", "false"); });
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button.seat-pick");
    if (!button) return;
    var form = document.getElementById("swap-" + button.getAttribute("data-session"));
    if (!form) return;
    var first = form.querySelector("select[name=a]"), second = form.querySelector("select[name=b]");
    var picked = document.querySelector("button.seat-pick[aria-pressed=true]");
    if (picked === button) { clear(); first.value = ""; return; }
    if (!picked || picked.getAttribute("data-session") !== button.getAttribute("data-session")) {
      clear(); button.setAttribute("aria-pressed", "true"); first.value = button.getAttribute("data-key"); second.value = ""; return;
    }
    second.value = button.getAttribute("data-key");
    clear();
    form.requestSubmit();
  });
})();
