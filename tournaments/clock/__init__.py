"""The session clock: the countdown of a session, the room's pages (clock, venue screen, referees'
overview) and the printouts for the tables. Pure arithmetic in ``engine``; the server's time in
``servertime``."""
