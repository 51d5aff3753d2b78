// The venue screen: cycles its panels and fetches seating, standings and announcements again.
(function () {
  "use strict";
  var screen = document.getElementById("screen"), index = 0;
  var seconds = parseFloat(screen.getAttribute("data-panel-seconds")) || 12;
  function panels() { return Array.prototype.slice.call(screen.querySelectorAll(".panel")); }
  function show(i) {
    var all = panels();
    if (!all.length) return;
    index = ((i % all.length) + all.length) % all.length;
    all.forEach(function (p, n) { p.classList.toggle("active", n === index); });
    var dots = document.getElementById("screen-dots");
    dots.innerHTML = all.map(function (p, n) { return n === index ? '<span class="on"></span>' : "<span></span>"; }).join("");
    screen.setAttribute("data-showing", all[index].getAttribute("data-panel"));
    document.getElementById("clock").setAttribute("data-showing", all[index].getAttribute("data-panel"));
  }
  window.venueScreen = {show: show, next: function () { show(index + 1); }};
  setInterval(function () { show(index + 1); }, seconds * 1000);
  show(0);
  // Seating, standings and announcements are fetched again every half minute; a failed fetch keeps
  // what is on screen (the clock goes on counting by itself).
  function refresh() {
    fetch(screen.getAttribute("data-panels-url"), {cache: "no-store"})
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) {
        var showing = screen.getAttribute("data-showing");
        document.getElementById("panels").innerHTML = html;
        var all = panels(), again = 0;
        all.forEach(function (p, n) { if (p.getAttribute("data-panel") === showing) again = n; });
        show(again);
      })
      .catch(function () {});
  }
  setInterval(refresh, 30000);
  window.addEventListener("online", refresh);
  document.getElementById("fullscreen").addEventListener("click", function () {
    var el = document.documentElement;
    (el.requestFullscreen || el.webkitRequestFullscreen || function () {}).call(el);
  });
})();
