"""A table calling a referee: the call, the referee on the way, the resolution.

Modules (scoring/calls/): a table's call of a referee (RefereeCall in scoring/models.py): services (call, on
my way, resolve with a note, a penalty or a hand; the archive's import), selectors (the table's call, a
session's queue, the waits for the observer's report), views (the table page's call section, a referee's page
of one call, the queue that static/js/referee-queue.js asks for again), api, urls; templatetags/calls.py puts
the queue first on every "Needs a referee" list
"""
