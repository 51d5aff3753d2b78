// The results reveal page: one more place, from the bottom up, at each tap.
(function () {
  const items = [...document.querySelectorAll('#reveal li')];
  const button = document.getElementById('next-place');
  let shown = 0;
  function step() {
    if (shown >= items.length) return;
    const item = items[shown++];
    item.hidden = false;
    document.getElementById('reveal').prepend(item);
    if (shown >= items.length) { button.hidden = true; document.getElementById('reveal-done').hidden = false; }
  }
  button.addEventListener('click', step);
  if (!items.length) { button.hidden = true; document.getElementById('reveal-done').hidden = false; }
})();
