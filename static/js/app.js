// Behaviour shared by every page, without inline handlers (the Content-Security-Policy allows none):
// - select[data-autosubmit]: submits its form when changed (the language menu);
// - input[data-filter="<selector>"]: hides the elements matching the selector whose text lacks the query;
// - button[data-print]: prints the page.
(function () {
  "use strict";
  document.addEventListener("change", function (event) {
    var select = event.target.closest("select[data-autosubmit]");
    if (select && select.form) select.form.submit();
  });
  document.addEventListener("input", function (event) {
    var input = event.target.closest("input[data-filter]");
    if (!input) return;
    var q = input.value.trim().toLowerCase();
    document.querySelectorAll(input.getAttribute("data-filter")).forEach(function (item) {
      item.hidden = q !== "" && item.textContent.toLowerCase().indexOf(q) === -1;
    });
  });
  document.addEventListener("click", function (event) {
    if (event.target.closest("button[data-print]")) window.print();
  });
})();
