"""Results: hands, game totals, submission and confirmation of a table, and the per-seat summary rows the
standings read; rules/ holds the pure rule engines of every ruleset.

Modules (scoring/): rules/ (pure rule engines); results: models (TableResult, Hand, SeatSummary), policy.py
(pure: what may be done at a table, for the pages, the API and the services' guards), lifecycle.py (the one
writer of a table result's status), services (entry, versions, confirmation, summary rows), selectors (a
table's state with the visitor's actions, a session's tables for the public and the referees, history),
presenters (a hand in one line, round labels), receivers.py, handshape.py (player keys ⇄ seats), views, forms,
api, urls; offline/ (the table pages' service worker and web app manifest)

- **The lifecycles** are the only code that writes a status (`tests/tournaments/test_lifecycle.py` scans
  the product's code for any other write of a session's, a tournament's or a table result's status).
  A table's result has its own (`scoring/lifecycle.py`): `RESULT_STEPS` (draft → submitted → confirmed,
  a draft confirmed directly, confirmed → submitted when a referee reopens it), `result_move` (the step
  and who and when: the result services call it after the table policy's guards, then save the result
  with its version, history and event) and `result_loaded` (the results an imported or restored archive
  records); the API's and the admin's `status` of a result are read-only.
- **Seats corrected after the fact** (`scoring.services.seats_correct`; API `POST
  /api/tables/<id>/result/seats/` with `order`, the four player keys in the seats they really took, E S W N,
  `reason` and `version`; the referee's table page, "Seats were wrong"). Referees and directors only, under
  the table policy's action `seats` (not on a confirmed table: reopen it first; not in a finished session or
  tournament), with the result's version (409 when stale). The table's four `Seat` rows are written again
  with the real winds, every stored hand's seat numbers follow their players (`handshape.reseat`), totals
  follow them too, hands with tiles are valued again (the seat wind may change their value), and the game is
  replayed under the corrected dealer order before anything is saved; the result's history names who, the
  old and the new seating and the reason, and the result keeps each correction
  (`TableResult.seat_corrections`: when, the seating before and after) so that the history, on the page and
  in the API, reads the hands written before a correction with the seating of their time. One event (the
  result's, with `schedule`) after commit. The archive has one seating per table (`seats`, as really sat),
  so an export after a correction holds the corrected seats and hands naming the same players, and imports
  again to the same standings (`tests/archive/test_seats_corrected_round_trip.py`); the planned seating
  stays only in the history.

Data:

- Integrity is in the database: one seat per registration per session (`Seat.session` repeats the table's
  session for this), four distinct winds per table, table numbers unique in a session, session numbers
  unique in a tournament, 8-digit EMA numbers unique when present, one summary row per seat and per
  registration and session, a referee decision needs a reason, a cancellation needs a reason.
- Exact numbers: table points share in halves, thirds and quarters, riichi sticks split three ways, so
  summary values use `tournaments.fields.FractionField` (stored as text, read as `Fraction`).
- History: `TableResult`, `Hand` and `Penalty` keep every change (django-simple-history: who, when, the
  record before and after, and the reason). Penalties are cancelled with a reason, never deleted.
- Concurrency: every `TableResult` write locks the row, compares the version the writer saw and bumps it; a
  stale write raises `StaleWrite`, which pages and API turn into 409 with the current state.

**One table state.** `scoring.selectors.table_state(table=, actor=)` is everything the table page and the
API show of a table, with the actions the visitor may take, computed by the pure `scoring.policy`
(`allowed_actions`); the services' guards ask the same policy (`policy.refusal`) after checking the table
link and the version. The state is built once per request and only when a page or an answer renders it,
from one read each of the seats, the penalties of the session, the result (read with the table) and its
hands; the game is replayed once. The table page and the API (`scoring.api.result_body`) render the same
state: after a write the API builds it from the result, hands and game the service just read, and from the
seats and penalties it read to take the hand's player keys. A write through the page reads only what its
form needs (the seats' names, read with the table) and redirects, or, when the page's script sent it
(`X-Entry-Fragments: 1`), answers the fragments at once from the state the write read (one request, one
replay). A GET of the table page carries a weak ETag (the tournament's publication stamp, the visitor, the
language): a reload of a current copy gets a 304 (by key, without a query). `tests/scoring/test_request_costs.py` counts replays and SQL statements per request
(hand add, correction, confirmation, the table page by key and signed in) for 2 and 12 hands;
`bench/requests` measures them on the demo in PostgreSQL.

1. A scorer or referee posts a hand (page or API). The view builds an `Actor` (role or table link) and calls
   `scoring.services.hand_add`, which locks the result, checks the version, replays the whole game with the
   rule engine (a fault raises `RuleError`: nothing saved), stores the hand, bumps the version. A hand with
   `tiles` first goes through `scoring.tiles.services.hand_tiles_prepare` (the archive import calls it
   too): the value is computed in the state the earlier hands make, fills the hand when nothing was
   claimed, and a differing claim is stored but marked held in `Hand.valuation`; `result_submit` and
   `result_confirm` refuse a table with a held hand until a referee resolves it (`hand_tiles_resolve`:
   accept the claim with a reason, kept as the hand's `ruling`, or take the computed value). The held
   hands are listed, each with a link to resolve it, wherever a referee or the director watches a session
   (`scoring.presenters.needs_referee`: the session's tables, the clock's tables, the director's
   dashboard, the console's session page).
2. A referee confirms the table (`result_confirm`). `summaries_write` computes the table's session result:
   the game from hands or totals, then the penalties that belong to it (`penalties.services.
   table_penalty_effects`: false Hu transfers, offender-only deductions, totals-mode chombos, substitutions
   and MERS §4 exclusions), and writes one `SeatSummary` row per seat, credited to the substitute where a
   player was replaced.
"""
