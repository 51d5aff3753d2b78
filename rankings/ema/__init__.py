"""The EMA ranking: ``models`` holds each tournament's stored results, the ranking's entries and the
results of tournaments held elsewhere; ``engine`` holds the base-rank, weight, ageing and ranking
arithmetic (pure); the services store each finished tournament's results and recompute the ranking, signals keep it current.
``results_file`` (pure) reads the results files of tournaments held elsewhere and ``imports`` imports,
corrects and removes them; ``ranking`` computes the ranking over local and imported results; ``history``
(pure) gives each player's ranking over time and its chart.

Modules (rankings/ema/): engine.py (pure: base ranks, weights, ageing, the ranking), services (stored results
and ranking), selectors, receivers (keep the ranking current); results_file.py (pure: reading results files),
imports.py (services: import, correct, remove results of tournaments held elsewhere), ranking.py (selectors:
the ranking over local and imported results), history.py (pure: ranking over time, SVG chart), views (ranking,
player, import pages), forms, api, urls

- `rankings/ema/results_file.py` (pure) reads a tournament's results file: the product's own `ema-results`
  CSV/XLSX or MTS's EMA report (the same eight columns, found by header in any order). Input is bounded
  (2 MB, 2,000 players, 40 columns, cell length, number magnitudes, XLSX unpacked size); every faulty line
  and field is collected; any fault refuses the file.
- `rankings/ema/imports.py` (services) checks a file with the tournament's facts (name, dates, days, city,
  country, rules, championship qualifier), refuses a file imported twice (same content whatever the format,
  same rules + start date + name, or a finished local tournament of that name and date), matches players by
  EMA number (unknown numbers become players, named by the stored EMA player list when it has them; players
  without one stay lines of the file, counted in N,
  never ranked), and stores an `ImportedTournament` with one `ImportedResult` per line (place, base rank).
  Corrections (facts, or a whole new file) and removals touch the ranking like any other change.
- `rankings/ema/ranking.py` (selectors) computes the ranking from two queries — finished local results
  (`TournamentResult`) and imported ones — limited to the two years and a day that can still count, so the
  recompute reads the same rows whatever the length of the history; the full recompute uses whole-number
  arithmetic equal to the engine's (checked against it by a test). A player's page computes the per-result
  details and the ranking history (`rankings/ema/history.py`, pure, with the server-rendered SVG chart) from
  that player's results only.
- The stored ranking (`EmaRankingEntry`) keeps each player's country (the country filter) and the position
  and ranking of the previous computation (the change column); the name search uses the players' folded
  names (`Player.search_name`), the same on SQLite and PostgreSQL. Rows are written with one `executemany`.
- Imported tournaments are not part of the archive format (ARCHIVE.md covers tournaments run here); their
  lines are the results file itself, which can be imported again anywhere.
- Listed players: at least `LISTING_RESULTS` (2) results that still count in the rule set (the MERS ranking
  document §3; `rankings/ema/engine.py`); a player with fewer is in no list or export but keeps a page (and an
  API detail) saying what is missing.
- Why it moved (`rankings.ema.history.ranking_moves`, pure): on the player's page (the last 52 weeks) and in
  the player's API answer (`moves`, every week), week by week, latest first, the ranking before and after
  and what moved it: a new result, a result a year old (counts half) or two (no longer counts), a result
  leaving or coming back into Part A, an imported tournament corrected that week (the day it was changed;
  the figures are the corrected ones, earlier ones are not kept).
- A player across the tournaments of this server: `/players/` (search by folded name, as
  `tournaments/names.py` folds it, or by EMA number; 50 at most) and `/players/<id>/` (every tournament
  played here, latest first, with the place and the base rank once finished, links to the player's page in
  each, his EMA ranking and its what-if); API `/api/player-records/` (`?q=`) and `/api/player-records/<id>/`
  (`rankings.ema.selectors.players_found`, `player_across`). Only tournaments the visitor may see count:
  a player of private tournaments only is unknown (404) to anybody without a role in one of them.
- What if (`rankings/ema/whatif.py`, pure): a player's ranking with up to three hypothetical results
  (players, place, days, countries, or the weight itself; the tournaments' last day from the ranking's
  date to two years on), computed by `rankings.ema.engine.ema_ranking` from the player's results and
  these: the ranking, Parts A and B, the position among the other players' stored rankings, and each
  result's part and ageing before and after; a public tournament of this server still playing is offered
  with the player's place in the standings the public sees (`rankings.ema.selectors.playing_now`). Page `/ranking/<family>/<EMA number>/what-if/` (linked from
  the player's page), API `/api/ema-ranking/<family>/<EMA number>/what-if/`; public and read-only, from
  the same results as the player's page (no private tournament's).
- Pages: `/ranking/<family>/` (country filter, name search, change), `/ranking/<family>/<EMA number>/`,
  `/ranking/imports/…` (list, import with "check only", correct, remove). API: `/api/ranking-imports/`,
  `/api/ema-ranking/<family>/` (`rankings/ema/views.py`, `api.py`, `urls.py`, `forms.py`). Command:
  `manage.py import_results FILE …`. Imports, corrections and removals need staff or the
  `rankings.add/change/delete_importedtournament` permissions. Benchmark: `bench/ema`.
"""
