// Pages served from the public page cache are the same for everybody: their forms' CSRF token is
// filled in here from the CSRF cookie (set with the page when missing).
(function () {
  function token() {
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }
  function fill() {
    var t = token();
    if (!t) return;
    document.querySelectorAll('input[name="csrfmiddlewaretoken"]').forEach(function (input) {
      if (!input.value) input.value = t;
    });
    var headers = document.body.getAttribute("hx-headers");
    if (headers && headers.indexOf('""') !== -1) {
      document.body.setAttribute("hx-headers", JSON.stringify({"X-CSRFToken": t}));
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fill);
  else fill();
  document.addEventListener("submit", fill, true);
})();
