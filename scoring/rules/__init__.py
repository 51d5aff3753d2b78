"""The pure rule engines (no Django): one module per ruleset family, presets as data, one shared contract
in base.py; registry.py maps ruleset keys to presets.

   - Rule engines share one contract (`scoring/rules/base.py`): `Ruleset.play_game(hands)`,
     `game_from_totals(scores)`, `table_result(game, transfers, deductions, chombos, excluded, substitutes)` and the
     penalty amounts (`late_arrival`, `foul`, `forgot_winning_tile`, `false_hu`, `chombo_points`,
     `referee_bounds`), and what the rest of the product shows or allows differently per ruleset: starting
     scores (`start_scores`), whether a dealer is shown (`shows_dealer`, `numbered_rounds`,
     `counters_and_sticks`), raw points or gains (`raw_scores`), the session result's columns
     (`outcome_columns`), the hands of a full session (`usual_hands`), the score sheet (`score_sheet_rows`,
     `score_sheet_partial`), the hand form and its template (`hand_form`, `hand_partial`), the tile fields
     (`tile_flags`, `tile_extras`), liability and abortive draws in the hand form (`liable_yakuman`;
     which of them a win's tiles hold is `scoring.rules.tiles.liable_yakuman_of`; `abortive_draws`), the settings the rules form leaves out (`settings_not_offered`),
     the penalties (`table_points_deductions`, `false_hu_default`,
     `false_hu_variants`, `false_hu_by_dealer`, `late_arrival_scale`, `late_minutes_rounded_up`, `has_chombo`,
     `replacement_result`, `substitute_outside_uma`, the clock's `session_end`,
     `substitution_exclusions`, `foul_charges`), the standings' method (`ranks_by`), the range of a table's session for what each player needs
     (`session_places`, `session_outcomes`, `session_spread`) and the exports'
     session value (`session_value`). Code outside `scoring.rules` asks these and never tests the family by
     name: `tests/rules/test_contract.py` runs every part over every ruleset and fails on a family
     comparison anywhere else (the EMA's two rankings, MCR and riichi, keep their names). Seats are 0..3:
     East, South, West, North at the start of the session. Hands are the
     archive's hand objects with seat numbers in place of player keys. Numbers are `int` or `Fraction`,
     never `float`. `RuleError` is user-facing (message naming the value and the rule, `path` such as
     `hands[7].fan`); `EngineError` is internal. `registry.py` maps the ruleset keys to presets held as
     data; per-tournament overrides are checked key by key.

- Numbers people and documents give (forms, API bodies, archives) are read by one reader,
  `scoring/rules/numbers.py`: text of at most 20 characters, no exponent, magnitude bounded by what the
  number is (game scores, fan and han, hand values, penalty points, counts); the engines' own checks use the
  same limits, so live entry and archive import refuse the same values. Free text (reasons, appeals) is at
  most 500 characters in forms, API and services.
"""
