"""Tournaments: players, tournaments, staff roles, registrations, sessions, tables and seats (the core every
other app builds on), the domain signals, shared page text, and the public tournament pages; seating/ seats them."""
