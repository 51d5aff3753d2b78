"""Tournaments: players, tournaments, staff roles, registrations, sessions, tables and seats (the core every
other app builds on), the domain signals, shared page text, and the public tournament pages; seating/ seats them.

Modules (tournaments/): players, tournaments, roles, registrations, sessions, tables, seats: models, services,
selectors, views (public tournament pages, director dashboard), api, urls; permissions.py (roles, Actor: who
writes), signals.py (the domain event), lifecycle.py (the one writer of a session's and a tournament's
status), presenters.py (numbers, signs, short names, winds as pages show them; SeatLine and TableView: a seat
and a table as every page lists them; the rules as sentences — late-arrival scale, substitutes, the end of a
session, short table, table points — read from the rule engine itself, so the rules, standings and player
pages cannot disagree with the results), templatetags/words.py (values kept in English shown in the reader's
language: seat wind letters, fan and yaku names, hand values, history notes), fields.py (FractionField: exact
numbers stored as text), player_import.py, demo.py, names.py (pure: the one folding of names for every search,
ø → o, ł → l, æ → ae, ß → ss, and the one order of names for every list, printout, venue screen and export:
folded surname, then first name, particles where written; static/js/app.js folds alike; control and
text-direction characters in names)

Modules (tournaments/pagecache.py): public pages rendered once per publication stamp, served in Brotli or gzip
with no query, 304 to a current copy (ETag)

- **The tournaments' lifecycle** (`tournaments/lifecycle.py`) is the only code that writes `Session.status` and
  `Tournament.status`: `session_move`, `tournament_move` (transition tables `SESSION_STEPS`,
  `TOURNAMENT_STEPS`, with their guards; the console passes the guards it reads from results and penalties
  as `blockers`) and `statuses_load` (an imported or restored archive's statuses, all at once). The console,
  the seating's publish and unpublish, the clock's start, the archive import and the backup restore call it;
  the API's `status` fields are read-only (a body naming another status gets a 400 on `status` that names
  the actions), and so is the admin's.
- **Finished means read-only.** `lifecycle.results_open_check` refuses (400 on `status`) every change of hands,
  totals, confirmations and penalties in a finished session or a finished tournament, and
  `lifecycle.tournament_open_check` (`TournamentFinished`, 400 on `status`) every change of a finished
  tournament's registrations, teams, rules, sessions and tables: the services of those writes call it
  (registrations, console, CSV import, teams, seating, deletion, session and table creation), and so does
  the API's `TournamentScopedViewSet` for the model writes it makes itself; a page that does not show the
  refusal in its form answers 400 with it (`config.middleware.FinishedTournamentMiddleware`). Its name,
  place, staff, exports, announcements and EMA submission still change; an archive or a backup replaces it
  whole. The rules have one path: the API's `PATCH` of a tournament and the console's forms both go
  through `organising.services.tournament_edit`, which rewrites the confirmed tables' rows under new rules.
  The director reopens
  one with a reason (console page or API, `reason`): the reopening is kept in
  `Tournament.settings["reopened"]`. An export keeps the tournament's stamp when it is made
  (`ExportJob.stamp`, `rankings.submission.selectors.stamp`: results, penalties, roster, sessions,
  statuses, the EMA submission's facts); it is "Out of date" on the exports page, in the API (`out_of_date`)
  and on the EMA submission page (the pack) as soon as the stamp is another, until it is made again.
- **Private players stay private.** `tournaments.selectors.players_visible(user=…)` is who a caller may
  see (players of a public tournament or of one of his tournaments; a director also those registered
  nowhere); every door that finds or reuses a player — the API's registrations, the console's form and
  API (`same_player`, `ema_id`, names), the CSV import (`user`, the background job's requester), the
  archive import and the EMA player list — looks among them only (`services.players_hidden`): another
  organiser's private player is refused, naming the field, and left as he was.

Permissions are per tournament (`tournaments/permissions.py`): directors manage everything of their
tournament, referees enter results and penalties and confirm tables, scorers enter results. A table's
private link (`Table.private_key`) lets its scorer enter results without an account, for that table only and
until it is confirmed. `Actor` (a role, or the table link) is who writes. Public pages and the read-only API
need no login; every write is checked on the server.

- **Objects never move.** A registration's tournament, a session's tournament, a table's session and a
  seat's table are fixed at creation (`tournaments.models.FixedParent` refuses a change on save, the
  serializers refuse it by name with a 400); every create checks the role in the tournament it lands in.
- **Shared players.** A player belongs to no tournament. A director may change or remove a player only
  while the player plays in no tournament that director does not direct; otherwise a 403 says so and only
  the staff can. What one tournament shows differently (`Registration.nickname`) is the registration's. A registration
  names only a player the caller may see (`tournaments.api.visible_players`): another tournament's private
  player is refused as an unknown id (400 naming `player`), so neither the name nor the existence shows.
- **Private tournaments** (`is_public=False`) show nothing to anyone without a role in them: pages 404,
  API lists leave them out (tournaments, players, registrations, sessions, tables, seats, penalties,
  standings, seating, exports), and they do not count in the public EMA ranking.

- **History** names the account that wrote, or the table link ("table link of table N").
- **Proof in the suite** (`tests/trust/`): a matrix of every API write (from the OpenAPI schema) and every
  page form (from the URL resolver) × seven kinds of caller, asserting the status and that nothing changed
  on a refusal (a new endpoint fails the test until it has its row); a sweep of every page and API read of
  a private tournament as outsiders; and schemathesis fuzzing every operation against the live test server,
  anonymously and as a director (`FUZZ_EXAMPLES`, default 8 per operation; `FUZZ_MALFORMED=1` adds
  malformed requests), failing on any 5xx and any answer the schema does not describe.

- Names (players, nicknames, teams, tournaments, clubs, the EMA player list) never keep control or
  text-direction characters (`tournaments/names.py`, applied by the models' `save`); archives refuse them
  in every text, naming the path. Director CSV imports (`tournaments/player_import.py`, the EMA player list
  in `tournaments/registrations/`) bound every cell and the number of lines (2,000 players, 2 MB;
  50,000 list lines, 5 MB), refuse NUL, control and text-direction characters naming the line and the
  column, take EMA numbers of digits 0-9 only (also in the model's validator, so the API answers 400, not
  a 409 from the database's check), and name a line the CSV reader cannot read. Every CSV and XLSX export
  neutralises cells that begin like a formula (`rankings/exports/base.py`).

- Sessions, tables, seats and registrations held by results or penalties are not deleted
  (`tournaments/deletion.py`, 409 naming what holds them); allowed deletions recompute the standings.
"""
