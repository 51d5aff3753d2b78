"""Standings: ``engine`` ranks players from per-session rows (pure); ``models`` holds the snapshot
(``StandingsState``), which the services keep fresh, one per tournament, through a background task; selectors, views and API serve the pages and documents."""
