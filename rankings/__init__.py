"""Rankings: what is computed from results. standings/ (a tournament's standings), ema/ (the EMA ranking),
exports/ (files and export jobs), archive/ (the tournament archive format)."""
