"""Staff and accounts: who may organise tournaments, a tournament's directors, referees and scorers, the
accounts made for helpers on the spot and their one-time sign-in links. Its services sit in the tournaments
core (they know players, roles and accounts, nothing of results); the console's pages and the API call them."""
