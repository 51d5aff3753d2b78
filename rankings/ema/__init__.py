"""The EMA ranking: ``models`` holds each tournament's stored results, the ranking's entries and the
results of tournaments held elsewhere; ``engine`` holds the base-rank, weight, ageing and ranking
arithmetic (pure); the services store each finished tournament's results and recompute the ranking, signals keep it current.
``results_file`` (pure) reads the results files of tournaments held elsewhere and ``imports`` imports,
corrects and removes them; ``ranking`` computes the ranking over local and imported results; ``history``
(pure) gives each player's ranking over time and its chart.
"""
