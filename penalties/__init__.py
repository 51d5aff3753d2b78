"""Penalties: fouls and their amounts under the ruleset, the foul ladder, substitutions, disqualifications,
cancellations and appeals, and what penalties do to a table's result."""
