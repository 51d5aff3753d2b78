"""Teams of a tournament: club or national teams whose members never share a table and whose table
points and scores add up to the team standings. ``services`` writes, ``selectors`` reads; ``views``,
``forms``, ``api`` and ``urls`` are the director's page and the REST API."""
