// The venue screen: shows its panels in turn, pages through the long lists (as many lines as fit the
// screen, "page 2 of 5"), and fetches seating, standings and announcements again. (The clock's digits are
// sized to the longest time of the session by session-clock.js: [data-fit].)
(function () {
  "use strict";
  var screen = document.getElementById("screen"), clock = document.getElementById("clock");
  var index = 0, page = 0, timer = null;
  var seconds = parseFloat(screen.getAttribute("data-panel-seconds")) || 12;
  var gettext = window.gettext || function (text) { return text; };  // the catalogue (/i18n/js/<language>.js)
  var interpolate = window.interpolate || function (text, values) {
    return text.replace(/%\((\w+)\)s/g, function (all, name) { return String(values[name]); });
  };
  var pageText = gettext("page %(n)s of %(total)s");

  function panels() { return Array.prototype.slice.call(screen.querySelectorAll(".panel")); }

  // -- the long lists, paged ------------------------------------------------------------------------
  // The lines are kept aside once; each page is built as columns of whole lines that fit the panel.
  function lines(panel) {
    if (!panel.pagedLines) {
      var list = panel.querySelector(".pages > ul, .pages > ol");
      panel.pagedList = {tag: list.tagName, className: list.className};
      panel.pagedLines = Array.prototype.slice.call(list.children);
    }
    return panel.pagedLines;
  }
  function column(panel) {
    var list = document.createElement(panel.pagedList.tag);
    list.className = panel.pagedList.className;
    return list;
  }
  function split(all, heights, room, cols) {
    var pages = [], current = [], col = [], used = 0;
    all.forEach(function (li, i) {
      if (col.length && used + heights[i] > room) {
        current.push(col); col = []; used = 0;
        if (current.length === cols) { pages.push(current); current = []; }
      }
      col.push(li); used += heights[i];
    });
    if (col.length) current.push(col);
    if (current.length) pages.push(current);
    return pages;
  }
  function layout(panel) {
    var all = lines(panel), box = panel.querySelector(".pages"), pager = panel.querySelector(".pager");
    var cols = parseInt(getComputedStyle(panel).getPropertyValue("--cols"), 10) || 1;
    box.innerHTML = "";
    var probeList = column(panel);
    box.appendChild(probeList);
    all.forEach(function (li) { probeList.appendChild(li); });
    var heights = all.map(function (li) {
      var s = getComputedStyle(li);
      return li.getBoundingClientRect().height + parseFloat(s.marginTop) + parseFloat(s.marginBottom);
    });
    // The room is measured with the pager as it will read: on a phone "page 1 of 3" wraps under the
    // heading and takes a line from the list.
    if (pager) pager.textContent = "";
    var pages = split(all, heights, box.clientHeight, cols);
    if (pager && pages.length > 1) {
      pager.textContent = interpolate(pageText, {n: pages.length, total: pages.length}, true);
      pages = split(all, heights, box.clientHeight, cols);
    }
    box.innerHTML = "";
    panel.pages = pages.length ? pages : [[[]]];
  }
  function render(panel, n) {
    var box = panel.querySelector(".pages"), total = panel.pages.length;
    page = Math.max(0, Math.min(n, total - 1));
    box.innerHTML = "";
    panel.pages[page].forEach(function (col) {
      var list = column(panel);
      col.forEach(function (li) { list.appendChild(li); });
      box.appendChild(list);
    });
    var pager = panel.querySelector(".pager");
    if (pager) pager.textContent = total > 1 ? interpolate(pageText, {n: page + 1, total: total}, true) : "";
    panel.setAttribute("data-page", String(page + 1));
    panel.setAttribute("data-pages", String(total));
  }

  function show(i, n) {
    var all = panels();
    if (!all.length) return;
    index = ((i % all.length) + all.length) % all.length;
    all.forEach(function (p, k) { p.classList.toggle("active", k === index); });
    var panel = all[index];
    if (panel.hasAttribute("data-paged")) { layout(panel); render(panel, n || 0); } else { page = 0; }
    var dots = document.getElementById("screen-dots");
    dots.innerHTML = all.map(function (p, k) { return k === index ? '<span class="on"></span>' : "<span></span>"; }).join("");
    screen.setAttribute("data-showing", panel.getAttribute("data-panel"));
    clock.setAttribute("data-showing", panel.getAttribute("data-panel"));
    screen.setAttribute("data-laid-out", window.innerWidth + "x" + window.innerHeight);
    if (window.mahjongClockRefresh) window.mahjongClockRefresh();
  }
  function next() {
    var panel = panels()[index];
    if (panel && panel.pages && page + 1 < panel.pages.length) render(panel, page + 1);
    else show(index + 1);
  }
  function restart() { clearInterval(timer); timer = setInterval(next, seconds * 1000); }
  window.venueScreen = {
    show: function (i, n) { show(i, n); restart(); },
    next: function () { next(); restart(); },
    panels: function () { return panels().map(function (p) { return p.getAttribute("data-panel"); }); },
  };
  show(0);
  restart();
  var resizing = null;
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(function () { show(index, page); }, 150);
  });

  // Seating, standings and announcements are fetched again every half minute; a failed fetch keeps
  // what is on screen (the clock goes on counting by itself).
  function refresh() {
    fetch(screen.getAttribute("data-panels-url"), {cache: "no-store"})
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) {
        var showing = screen.getAttribute("data-showing"), at = page;
        document.getElementById("panels").innerHTML = html;
        var all = panels(), again = 0;
        all.forEach(function (p, k) { if (p.getAttribute("data-panel") === showing) again = k; });
        show(again, again === index ? at : 0);
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
