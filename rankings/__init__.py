"""Rankings: what is computed from results, one package per subdomain, each with its own models, services,
selectors and tasks: standings/ (a tournament's standings), ema/ (the EMA ranking and imported results),
exports/ (files and export jobs), archive/ (the tournament archive format and its import jobs), backups/
(the running tournaments' archives), submission/ (the EMA submission pack, an app of its own) and jobs/
(the background job every kind of job extends, its leases and its one runner). ``rankings/models.py``
gathers the subdomains' models where Django looks for them (app label ``rankings``)."""
