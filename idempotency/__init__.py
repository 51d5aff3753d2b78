"""Repeatable writes: plumbing under every entry point that knows no domain.

Modules (idempotency/): repeatable writes: the middleware that does each write carrying an Idempotency-Key
once per actor and key and replays its stored answer; models (IdempotencyRecord), services, fingerprint.py
(pure), schema.py (the header in the OpenAPI schema), tasks

- Every unsafe request (API or page) may carry a key: the `Idempotency-Key` header, or the
  `idempotency_key` hidden field that `{% idempotency_field %}` puts in every write form of the entry and
  penalty pages (a new key each time a form is rendered; an htmx request posting a whole form, such as the
  tile value preview, is not that form's write, so its field is not read: htmx writes send the header). `idempotency.middleware.IdempotencyMiddleware`
  (last in `MIDDLEWARE`, after the CSRF check and the login) runs the view itself inside one transaction
  that first inserts an `IdempotencyRecord` (actor scope, key, fingerprint of method, path, query and body)
  and then stores the view's answer (status, headers, body) in it. A repeat with the same key and
  fingerprint gets the stored answer with `Idempotent-Replayed: true` and does nothing (an answer stored
  gzipped, because the first request accepted it, is decompressed for a repeat that does not accept gzip);
  another fingerprint
  gets 422 naming the header (to an API client; a page says in words that the form was already sent with
  other data and links back to the form's page, never naming the header, the path or the status:
  `templates/idempotency/refused.html`). A page's form sent again with other data (Back, then a change)
  does not meet that refusal: `static/js/app.js` remembers for the tab the data sent with each key and gives
  the form a fresh key when its data differ. Two requests with one key at the same moment: the second blocks on the
  record's unique constraint until the first commits, then replays its answer (PostgreSQL; SQLite
  serialises writers). A view that raises rolls its record back with everything else, and 5xx answers are
  not kept, so such a request may be sent again. Refusals store nothing either (every 4xx: the input,
  the caller, a stale version, nothing found; a page's redirect to the sign-in page): nothing was written,
  so the same request sent again runs again and gets the same refusal, and refused writes, anonymous ones
  included, leave no row. Before anything else, for an API view, the middleware runs the view's
  authentication and permission classes: a caller the view refuses gets its refusal with no body read and
  no key stored; this look changes nobody (DRF writes the user it settles on back to the request, and
  settles on nobody when a session's CSRF check cannot parse the body: the middleware puts the caller
  back, so an over-deep body answers the 400 naming `body` it gets without a key): the view then
  authenticates as DRF does, an API token with no CSRF check, a session cookie with one. The
  body it hashes is bounded before (`BoundedBodyMiddleware`); a JSON body is put in canonical form only
  within the JSON parser's bounds (size and depth), otherwise its raw bytes are hashed. The actor is the
  user, however authenticated (a session cookie or an API token: one user's keys are one set), else the
  API credential (`Authorization`), else the table's (and player's) private link, else the browser
  session; keys are kept `IDEMPOTENCY_KEEP_HOURS` (48, never
  under 24) and purged hourly by `idempotency.tasks.idempotency_purge` (Celery beat) or
  `manage.py purge_idempotency_keys`. The records are transport state, not tournament data: not archived.
  The OpenAPI schema gets the header and the 422 on every write from `idempotency.schema`.
"""
