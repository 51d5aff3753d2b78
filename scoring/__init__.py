"""Results: hands, game totals, submission and confirmation of a table, and the per-seat summary rows the
standings read; rules/ holds the pure rule engines of every ruleset."""
