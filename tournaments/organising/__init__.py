"""Organising a tournament: opening it (its director, its sessions), its details and rule overrides (a
change of the rules rewrites the confirmed tables' rows), finishing and reopening it through the lifecycle,
and revealing the hidden last sessions' standings. It reads the results, so it sits above them; the
console's pages, the API, the demo and the commands call it."""
