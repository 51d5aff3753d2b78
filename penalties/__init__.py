"""Penalties: fouls and their amounts under the ruleset, the foul ladder, substitutions, disqualifications,
cancellations and appeals, and what penalties do to a table's result.

Modules (penalties/): models (Penalty), kinds (one class per kind in a registry: its fields and checks, its
amount under the ruleset, its effect on the table, its standings rows, export and archive cells, its
description), tables (what penalties read of a table's result, answered by scoring.selectors), services
(recording asks the kind; cancellation, appeals, what penalties do to a table), selectors (penalty queries,
free substitutes), presenters (PenaltyLine: one penalty as every page shows it), views, forms, api, urls

- A penalty's hand is checked by one function for live entry and import (`penalties.services.
  hand_number_check`): a recorded hand, the hand in play, or on a totals table any hand of the session.
"""
