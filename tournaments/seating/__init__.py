"""Seating: who sits where in every session. ``engine/`` plans it in pure Python; the services write and
publish it, the views, forms and API serve the director's seating workflow and the print sheets.

Modules (tournaments/seating/): engine/ (pure: designs, invariant, groups, search, strategies, winds,
numbering, quality, predefined), services.py (generate, import, swap, publish), selectors.py (settings,
session states, seating and quality as pages show them), views, forms, api, urls

   - The seating engine plans whole schedules (finite-field designs where they exist, sessions fixed by a
     group's translations found by an exact cover, base sessions developed over a group, then local search),
     Swiss and random sessions, imports predefined schedules, balances winds and reports quality.
"""
