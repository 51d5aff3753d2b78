"""Table entry that keeps working through a venue's network outage: the installable web app (manifest and
service worker) and the strings of the device's queue of hands (``static/js/offline-entry.js``).

- The table page (private link and staff view) is an installable web app: `/entry.webmanifest` and the
  service worker `/entry-sw.js` (scope `/`; it caches the table pages, network first, and every static
  file they use, listed in `scoring/offline/assets.py` and taken when it installs; the cache's name
  changes with those files; nothing else). The copies belong to one account and end with its session, so
  what one account saw never opens offline for the next: a POST to any door of an account (the site's and
  the admin's sign-in and sign-out, a one-time `/welcome/` link, the first organiser's form), online or not,
  makes it forget every page copy; each copy keeps the account it was shown to (`X-Offline-Account`, a tag
  naming nobody) and its session's end (`X-Offline-Until`), every page states its account
  (`<meta name="offline-account">`, posted to the worker by `static/js/app.js`), and the worker forgets
  the copies of any other account (a session that ended shows pages to nobody) and, network or not, a copy
  past its session's end (`scoring/offline/views.py`). On the first visit of the private link the page puts itself in
  the worker's cache, so a reload with no network after one visit gives the full, styled page. `static/js/offline-entry.js` turns "Save hand" into a queue kept in the phone's
  localStorage: each hand with a new idempotency key and the version it was entered against (the page's
  version, plus one per hand before it); the queue is shown as "waiting to send" (the scores are marked as
  not counting them yet) with a banner, and is sent in order to the same page URL (the same view, services
  and checks as without a script) at once, when the browser comes online, on every load and on a timer. A
  lost answer is sent again with its key; a request with no answer is abandoned after a bounded time
  (15 s) and sent again with the same key, with backoff, and the banner says why ("no network", "the
  server did not answer", "the server could not take the hand"). The banner is for hands really waiting:
  the first send of a hand on a working network says "Sending hand n…" and the server's "Hand n saved."
  follows. Before a hand is queued the page checks what it can know (the winner, fu below 5 han). A 409 stops the queue and shows the server's table beside the
  phone's hands: the scorer adds them after the other device's hands (new keys on the current version) or
  discards them. A rule error stops the queue on its hand, which the scorer corrects in place or discards.
  A table that takes no more hands (confirmed, its session or tournament finished, submitted for a scorer:
  the page's `#offline-entry[data-closed]` is the sentence saying why and what to do,
  `TablePage.closed_sentence`) stops the queue for good: the hands stay on the phone, numbered as they
  were entered, with no "add my hands after these"; a refusal the page cannot name in words says to open
  the table page again, never a status line. The table's clock belongs to its session: once the room's
  clock is about a later session it reads "Session over". With no network, the tile value preview says
  that the server values the hand once it is sent.
  After a hand the script sent, the server answers the POST itself (header `X-Entry-Fragments: 1`, template
  `scoring/table_fragments.html`) with what changed: messages, totals, hands, next hand, clock, without the
  hand form, which the phone keeps and renumbers (about 3.4 KB gzipped; the table pages are gzipped). A
  hand added on top of what the phone shows draws its own rows only (`data-rows-kept`: the phone keeps the
  others) and names the hands entered after the table's time (`data-late`): a kept row marked "after time"
  before the director extended the table's time loses its mark, and a kept row named without its mark has
  the page drawn again (the clock moves a table's end back before a hand only in the cases docs/clock.md
  names). The
  page stores itself as it now is for the next offline load. The tile picker (`static/scoring/tiles.js`)
  and the clock (`static/js/session-clock.js`) start on every swapped content (`htmx:load`), once per
  element; the clock keeps its last answer on the phone to count down on a page opened with no network.
  The tile value preview answers 422 with the field named for malformed tiles or tiles that are no
  winning hand, and shows the claimed and the computed value side by side when they differ.
- The table phone with a thumb and a keyboard: every control of the table pages (the header, the hand
  form's radio and checkbox labels, the tile picker, the disclosures, the hands' "edit" and "resolve"
  links, the crumbs, the penalty kinds) and the standings' ☆ is at least 44 × 44 px; the only exception is
  a link inside a sentence (WCAG 2.5.8's inline case: the referee's copy of the table's private link). A
  "Skip to the hand form" link comes first, the focus shows on every control, and after a save it moves to
  the new hand's first field. Text keeps a contrast of 4.5:1 in every clock phase (the paused digits are
  greyed by their colour, not by transparency) in the light and the dark colour scheme; the hands' table
  has four equal columns, so it fits a 360 px screen. `tests/browser/test_phone_access_browser.py` runs
  axe-core (vendored in `tests/browser/vendor`; serious and critical violations fail), the target sizes,
  the focus and sideways scrolling at 390 and 360 px on each state of the entry page (empty, tiles, a value
  that differs from the tiles, a held hand, hands waiting offline, a conflict, each clock phase in both
  colour schemes), the referee's table page and every public page, in one browser, and saves
  `test-artifacts/phone-<state>-<width>.png`. A table wider than the screen (`.table-wrap`) becomes
  reachable by the keyboard (`static/js/app.js`).
"""
