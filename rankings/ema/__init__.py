"""The EMA ranking: ``engine`` holds the base-rank, weight, ageing and ranking arithmetic (pure); the
services store each finished tournament's results and recompute the ranking, signals keep it current."""
