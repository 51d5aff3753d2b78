"""Standings: ``engine`` ranks players from per-session rows (pure); the services keep one snapshot per
tournament fresh through a background task; selectors, views and API serve the pages and documents."""
