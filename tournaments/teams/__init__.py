"""Teams of a tournament: club or national teams whose members never share a table and whose table
points and scores add up to the team standings. ``services`` writes, ``selectors`` reads; ``views``,
``forms``, ``api`` and ``urls`` are the director's page and the REST API.

Modules (tournaments/teams/): teams of a team event (Team model in tournaments/models.py, Registration.team,
Tournament.team_size): services (size, create, change, delete, assign by name for the CSV import and the
archive), selectors, views, forms, api, urls; seating keeps teammates apart (SeatingConfig.teams), the
standings rank the teams
"""
