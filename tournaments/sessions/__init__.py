"""Sessions: their schedule (start times, adding and removing the last one), seating them by the engine and
their life (planned → seated → playing → finished, and back one step). The lifecycle
(``tournaments.lifecycle``) is the one writer of a status; what keeps a session from a step that only the
results and penalties know (tables not confirmed, a player out whom nobody replaced, results or penalties
in a session going back) is answered by ``tournaments.sessions.guards``, which the lifecycle asks through
the guards registered when the apps are ready. The console's pages, the API and the demo call them."""
