"""The director's console: the pages and API where a tournament is run without the admin. It is an
audience, not a domain: its views call the services of the domains they change (``tournaments.organising``,
``tournaments.staff``, ``tournaments.registrations``, ``tournaments.sessions``, the seating, the clock) and
keep only what the pages need of their own: the reads (selectors), the rules form, the day plan and what a
confirmation will do.

`tournaments/console/` is where a tournament is run without the admin. An organiser (the permission
`tournaments.organise_tournaments`, granted in the admin or with `manage.py organiser add USERNAME [--create]`;
a new server with no account offers its first organiser on the home page, once: `tournaments/console/first_run.py`) creates a
tournament from `/new/` (or `POST /api/tournaments/`) and becomes its director; after signing in everyone
lands on `/my/`, their tournaments.

- Rules: `rules_form.RulesForm` builds one field per value of the ruleset's preset (`Config` dataclass of
  `scoring/rules/`), with its default and a one-line explanation; only the values that differ are stored in
  `Tournament.rules` and they pass the same key-by-key check (`Config.with_overrides`). Changing the rules
  of a tournament with confirmed tables rewrites their summary rows (`confirmed_tables_rewrite`).
- Staff: directors add referees and scorers by username or e-mail, or create a helper's account with a
  generated password shown once or a one-time sign-in link (Django's password-reset token: it stops working
  once the account signs in; `sign_in_link_use` consumes it with one conditional update of the account's
  last login, so of simultaneous requests with one link exactly one signs in); the helper then chooses a
  password.
- Players: by CSV (`player_import.py`), by hand (possible duplicates, same name ignoring case and accents or
  same EMA number, are pointed out before saving), or from the locally kept EMA player list (`EMAPlayer`,
  imported as CSV by any director or organiser, searched as you type). Withdraw, reinstate, substitute, and
  remove a registration that has no seat, result or penalty.
- Check-in (`Session.checked_in`, `Session.absent`; `registrations.checkin.checkin_apply`, page and API) tells two
  absences apart. "Absent this session: a substitute plays" (`substitute`): the player misses this session
  only (`Session.absent`), a substitute present (or named on the spot) is seated by the seating engine, and
  the player stays in the draw for the later sessions (`Registration.plays_in(session)`; the seating's
  chunks, engine players and publishing checks read it); he gets nothing for the session missed (MERS-R
  §4.3; riichi: the tournament's `replacement_points`) and is ranked with what he plays. "Withdrawn: leaves
  the tournament" (`withdraw`): `Registration.withdrawn_from`, out of this session and every later one, and
  listed apart from the ranking. Before the first session, check-in also records each substitute's answer to
  ERGMT §3.9, whether his results count: the same record as the EMA submission's `substitute_answers`
  (written by `rankings.submission.services`, one event for the whole check-in). See docs/rules-notes-ema.md,
  "Players who miss sessions, substitutes".
- Where people sit: a substitute who replaced a seated player (`replaced` penalty) is shown in that seat on
  the venue screen's "where you sit" (`tournaments.clock.room.seating_by_name`), the seating page, the
  session's tables, the table page and "find my seat" (the replaced player: "replaced by"; the pages read
  `penalties.selectors.replacements`).
- Session states (written by `tournaments/lifecycle.py` only): planned → seated (the seating is published) →
  playing (its clock starts) → finished (its clock ends), and back one step where it is safe
  (`session_advance`, `session_reopen`; a finished session is reopened with a reason, whatever the later
  sessions do, and until then its results are read-only); finishing names what blocks it: tables not confirmed, a
  player out of the session (late past the limit) whom no substitute replaced.
- Confirming a table refuses the same player-out case and, under rules with a full session's hand count
  (MCR: `max_hands`), asks why a table entered hand by hand played fewer hands (`TableResult.short_reason`,
  shown with the table's result on every page and in the API).
- Finishing the tournament (every session finished) makes it count for the EMA ranking, ends every clock and
  writes its last backup; it can be reopened with a reason (it leaves the ranking; its exports made before
  are marked out of date).
- `settings["hide_last_sessions"] = N` hides the standings of the last N sessions from the public (the
  standings page, `rankings.standings.views`, shows them and the teams as after session total − N; session pages hide those sessions' results) until
  the director makes them public (`settings["standings_revealed"]`); the reveal page shows the final places
  from the bottom up, one tap at a time, then the teams. Every channel asks one rule, `tournaments.selectors.
  visible_through` (directors and referees see everything): the standings API
  (`rankings.standings.selectors.standings_document_shown`), the venue screen, the table result API (403
  naming the rule), the statistics (API and page), player pages, the register of notable hands (an entry
  registered from a hidden session's hand, page and API), the penalties API (a hidden session's
  penalties), and the EMA ranking (a finished tournament counts once revealed). Scorers enter the hidden
  sessions' tables, so a table still being entered stays open to them; a confirmed one that someone else
  entered is hidden from them as from the public (`scoring.selectors.result_hidden_from`: the table
  page, its hand pages, the result and its history in the API, the session's list of tables).
  `tests/trust/test_hidden_sessions.py` sweeps every public page and API read, and the scorer's, for a
  hidden score.
- API: `/api/tournaments/<slug>/console/…` (sessions' check-in, seat, advance, reopen; finish, reopen,
  reveal; staff; players with a 409 for possible duplicates; EMA list search), documented in the schema.
- `tests/browser/test_director_journey.py` runs a whole MCR and a whole EMA riichi tournament this way on a
  390 px phone, from an empty database to the EMA results file; it saves a screenshot of every page and a
  `pages.txt` with the pages and taps under `test-artifacts/journey-<ruleset>/`.
- `tests/browser/test_tournament_day.py` is the rehearsal of a whole MCR day by its three kinds of users: the
  director from the first organiser to the EMA file, four table phones (tabs of one browser, one of them
  offline for two hands, one left open on a table the referee confirms) entering values and tiles, a
  correction followed by Back, a held hand the director resolves from the dashboard, a withdrawal before
  the last standings, a referee in Spanish recording penalties and confirming;
  the standings after every session are checked against figures the test computes from what it entered,
  axe-core runs once on every page and every visit is checked at 390 px (`test-artifacts/tournament-day/`).
  The phones, the axe-core check and the network cut are shared by the browser tests (`tests/browser/phone.py`,
  `chromium.py`, `netproxy.py`, fixtures in `conftest.py`).
"""
