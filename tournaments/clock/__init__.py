"""The session clock: the countdown of a session, the room's pages (clock, venue screen, referees'
overview) and the printouts for the tables. Pure arithmetic in ``engine``; the server's time in
``servertime``.

Modules (tournaments/clock/): engine.py (pure: clock states, time left, per-table extra, signal, red zone,
last hand), servertime.py (the server's time, overridable in tests), services, selectors, room.py (seating by
name, schedules, score sheets), receivers.py, views (clock, venue screen, referees' overview, printouts), api,
urls; see docs/clock.md
"""
