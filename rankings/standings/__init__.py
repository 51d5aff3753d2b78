"""Standings: ``engine`` ranks players from per-session rows (pure); ``models`` holds the snapshot
(``StandingsState``), which the services keep fresh, one per tournament, through a background task; selectors, views and API serve the pages and documents.

tournament fresh through a background task; selectors, views and API serve the pages and documents.

Modules (rankings/standings/): engine.py (pure ranking), teams.py (pure: team sums and ranks), services
(snapshot, touch, recompute), selectors (inputs, `standings_view`, freshness, a player's sessions, seat
search), sweep.py, receivers.py, tasks, views (the live, hidden and polled standings; what each player needs,
its CSV), api, urls; needs.py (pure: what each player needs in a session for a place, from the ruleset's range
of a table's session) and needs_selectors.py (docs/what-i-need.md)

   - The standings engine ranks players from per-session rows (withdrawn players listed apart, below the
     ranking: `Standings.withdrawn`, the document's `withdrawn`; a substitute only when his results count);
     the EMA engine computes base ranks, tournament weights, ageing and the ranking.

3. The confirmation sends the domain event (`results`); in its transaction the standings' listener bumps
   the tournament's standings input version (`standings_bump`), and after the commit another queues
   `rankings.standings.tasks.standings_recompute`. Recording, changing or cancelling a penalty sends it
   with the confirmed tables it touches (`rewrite`), whose rows are rewritten in the same transaction; new
   registrations, withdrawals, renames and tie-break changes send it too (`roster`, `settings`).
4. The task reads the newest input version, computes the standings from the summary rows and the penalties
   outside any row (a fixed number of queries), and stores the snapshot only if no newer one was stored
   meanwhile (`computed_version < version`). A burst of touches coalesces: while a recompute is queued and
   not started no other is queued (a short-lived cache key), and an already fresh snapshot is not
   recomputed. With the broker down, results are still saved; the state records the failure, pages say
   "updating delayed", and the director can recompute by hand.
5. Pages only read: `rankings.standings.selectors.standings_view(tournament=…, upto_session=…)` is the one
   computation of standings (with teams) behind the stored snapshot, the page while the last sessions are
   hidden, the reveal, the EMA results and the exports; a page with no snapshot yet shows it computed
   and stores nothing (the recompute and the sweep store). The standings page is rendered once per
   snapshot and language and cached (Redis when configured, else files shared by the server's processes) under
   the tournament's publication stamp, which every change of the standings' state renews
   (`tournaments/pagecache.py`); anonymous visitors get it gzipped with no database query. The pages a player keeps open — the
   standings, a player's page (results and next seat), the private link's page, a session's page and the
   tournament's front page (whose "Find my seat" search is asked again) — keep
   themselves current with one shared script, `static/js/live-page.js`, put in by `{% live_page tournament %}`
   (`tournaments/templatetags/live.py`): every `STANDINGS_POLL_SECONDS` it asks `/live/?t=<slug>…&v=<value>`
   (`tournaments.views.live_stamp`: the tournaments' publication stamps, "-" for one the visitor may not
   see; one query), which answers 204 until something those pages show changed; then the page fetches
   itself again (from the page cache) and swaps in its `[data-live-region]` parts by id, keeping the
   visitor's place, search and marks. When the server cannot be reached the page says so at its top,
   "No connection since 04:06 — showing what we had.", until an answer comes back. The standings' rows
   partial (`standings/rows/`, 204 until the snapshot changes) is still answered for other clients. The EMA ranking pages (`/ranking/…`) go through the
   same cache, keyed also by the parameters they read (`q`, `country`, `page`), under one stamp that each
   stored computation of the ranking renews (`rankings.ema.services.ema_ranking_recompute`).

- `rankings/standings/sweep.py`: beat (or `config/scheduler.py`) re-queues the recompute of every tournament whose snapshot is older
  than its input; a dead worker's message comes back after the broker's visibility timeout (45 s).
"""
