"""The EMA ranking: imported results of tournaments held elsewhere, the ranking over local and imported
results, each player's history."""
