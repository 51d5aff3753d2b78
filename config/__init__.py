"""The project's configuration and plumbing: settings, URLs, the API's errors and parsers, middleware,
Celery and the in-process scheduler, the file cache, and the wiring of the domain event's listeners.

Modules (config/): settings.py (one module, environment variables), urls.py (pages of every app), api_urls.py
(one DRF router), api.py (API errors: rule errors → 400 naming the field, stale writes → 409; JSON
400/403/404/500 handlers under /api/), parsers.py (the bounded parsers), middleware.py (NUL in queries,
bounded bodies, a private tournament's refused pages as 404), clientip.py (the caller's address behind the
proxies, for the sign-in lock-out), receivers.py (the domain event's listeners, connected in one place),
celery.py, scheduler.py (the beat schedule run by the server's own processes when there is no broker),
filecache.py (the cache shared by those processes when there is no Redis), health.py (/healthz), dbcheck.py
(persistent connections checked after they sat idle, not per request), wsgi/asgi

- **Errors** (`config/api.py`): rule and validation errors → 400 naming the field; deleting what is still
  used, a stale version or a duplicate → 409 naming what holds it; `limit`/`offset` bounded; a NUL in a
  query refused by `config.middleware.RefuseNulMiddleware`; anything else becomes a JSON 500 with an
  incident id and no internals (`handler500` answers JSON under `/api/` too). `config/schema.py` documents
  400/403/404/409 on every operation where they can happen.

Celery (`config/celery.py`) reads `CELERY_*` settings. With no `CELERY_BROKER_URL`, tasks run eagerly
in-process, so the embedded default needs no Redis. The worker reconnects to a broker that went away for as
long as it takes, and `config/celery.py` keeps kombu's Redis transport from exiting when Redis goes away
while a message is unacknowledged (the message comes back after the visibility timeout);
`tests/rankings/test_broker_outage.py` stops its own Redis under writes and checks the standings catch up. And beat's schedule (`CELERY_BEAT_SCHEDULE`) is run by
`config/scheduler.py`: a thread started once per server process (`config/wsgi.py`, `asgi.py`) that, under an
exclusive lock on a schedule file shared by the processes, runs each task once per period; page views never
run periodic work. Without `REDIS_URL` the cache is a file cache (`CACHE_DIR`, `config/filecache.py`: its
`add` is atomic across processes) that every process of the server shares, and the public pages check the
shared publication stamp on every read, so every process serves the same clock and standings after a change
(`tests/test_processes.py` runs two gunicorn processes to check it). Each task is named as the service it runs
(`tests/test_task_names.py`). Tasks take ids only, are queued with
`transaction.on_commit`, use `acks_late` and retries, and are safe to run twice (the tasks and jobs: the
rankings package's docstring).

- Every request body is bounded before anything reads it. `config.middleware.BoundedBodyMiddleware` (before
  the CSRF check and the idempotency middleware) refuses a body whose announced length is over the limit of
  the parser that would read it (413), and a path and query over `URI_MAX_BYTES` (414). Every API view reads
  through the project's parsers (`config/parsers.py`; `tests/trust/test_bodies.py` lists every parser in use
  and fails on DRF's own): JSON at most `JSON_MAX_BYTES` and 32 levels of nesting (checked on the bytes by
  `scoring/rules/jsontext.py` before parsing; a NUL in any text of the body is a 400 naming its JSON path),
  forms at most `FORM_MAX_BYTES`, uploads at most `UPLOAD_MAX_BYTES`, archives (`RawJSONParser`) at most
  `ARCHIVE_MAX_BYTES`. Archives are checked the same way before the streaming parser sees them, and the
  archive API checks the caller's right to import before it reads the body. Hands refuse unknown fields in
  every ruleset. Pages are bounded before anything parses their body (the CSRF check reads forms): a form
  at most `FORM_MAX_BYTES`, a signed-in caller's upload (multipart) at most `UPLOAD_MAX_BYTES`, an
  anonymous one the form's limit (413 naming `body`).
- Every answer under `/api/` is JSON naming the field and the rule, whatever the failure: 413 and 414 from
  the bounds, parse errors (`body`), unsupported types (`Content-Type`), Django's own 400 (a bad host, a
  form with too many fields: `handler400`), 403 (CSRF: `CSRF_FAILURE_VIEW`), 404 and 500 handlers. A 404 is
  always `{"detail": "Not found."}`, and a refusal on a private tournament the caller may not see is that
  same 404 (`config.api.exception_handler`), so no answer tells a private tournament from a missing one
  (`tests/trust/test_private_answers.py`); pages do the same (`config.middleware.PrivateTournamentMiddleware`
  turns a page's 403 on a tournament the caller may not see into the 404 of a missing one;
  `tests/trust/test_private_tournaments.py` compares every page of both). The server in front must let lines up to 8190 bytes through
  (gunicorn `--limit-request-line 8190`) so that the 414 is the project's.

Server-rendered templates, phone first (every page works at 360 px), Pico CSS for styling and htmx for
partial updates (the riichi fu choices, standings polling, export progress, seat search).
Every response carries a Content-Security-Policy (django-csp, `config/settings.py`): scripts and styles
come from `static/` only (`static/js/app.js` holds the shared behaviours: the language menu, search filters
that fold names as the server does and say when nothing matches, the print button, and bringing the first
`[data-errors]` block into view with the focus), with no inline script, handler or eval; the print pages' `<style>` carries the request's
nonce; Swagger UI alone may style elements inline. English and
Spanish through Django's i18n (`locale/es`). What the engines name in English is marked for the catalogue in
the pure layer (`gettext_noop(…).template`: the MCR fan as PyMahjongGB names them, `FAN_NAMES`, translated with the
names of the Green Book's Spanish translation; the riichi yaku in romaji, `GLOSSED_NAMES`, with the Spanish
name of rulebook 002 after them; Salamanca's and the classical items, `NAME_TEXTS`) and shown through the
`words` template filters (`item_name`, `value_label`, `wind` for E/S/O/N, `history_reason`).
`tests/tournaments/test_spanish_pages.py` renders the pages of a tournament of each ruleset in Spanish and fails
on any English text of the catalogue, engine name or rule label left on them. A refused form shows `templates/_error_summary.html` at its top:
every message linked to its field, `role="alert"`. Acts that are hard to undo (finish the tournament, remove a
session, start a session, reopen a table) go through a confirmation step first: a GET of the action's URL (or
of the table page with `?confirm=reopen`) says what will happen in numbers, and its button posts.
"""

from .celery import app as celery_app

__all__ = ("celery_app",)
