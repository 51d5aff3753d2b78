"""Registrations: a tournament's players and substitutes (registered by hand, edited, withdrawn and
reinstated, removed while they have nothing), the check-in before a session is seated, and the EMA player
list shared by every tournament. The services of players and check-in read results, penalties and the EMA
submission's answers, so they sit above those layers; the EMA list import knows only the tournaments core.
The console's pages and the API call them."""
