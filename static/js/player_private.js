// A player's private link: mark them as "me" on the standings of their tournaments.
(function () {
  // The owner of this link is marked as "me" on the standings of each of their tournaments.
  document.querySelectorAll(".player-tournament").forEach(function (section) {
    try { localStorage.setItem("mahjong:me:" + section.getAttribute("data-slug"), section.getAttribute("data-key")); } catch (e) {}
  });
})();
