"""Rankings: what is computed from results, one package per subdomain, each with its own models, services,
selectors and tasks: standings/ (a tournament's standings), ema/ (the EMA ranking and imported results),
exports/ (files and export jobs), archive/ (the tournament archive format and its import jobs), backups/
(the running tournaments' archives), submission/ (the EMA submission pack, an app of its own) and jobs/
(the background job every kind of job extends, its leases and its one runner). ``rankings/models.py``
gathers the subdomains' models where Django looks for them (app label ``rankings``).


rankings/sweep.py: the jobs sweep, a job whose message was lost is queued again; rankings/player_jobs.py:
long CSV files of players imported in the background (PlayerImportJob, task in rankings/tasks.py).

- `rankings.standings.tasks.standings_recompute(tournament_id)`;
- `rankings.exports.tasks.export_job_run(job_id)`: an `ExportJob` records exporter, format, progress and the file
  (under `MEDIA_ROOT/exports/`); the director's page polls its progress;
- `rankings.tasks.player_import_job_run(job_id)`: a `PlayerImportJob` holds a long CSV file of players, its
  progress and the summary or the faults;
- archive imports, exports and player imports are leased (`rankings/jobs/leases.py`): the running worker holds a cache key that a
  heartbeat thread renews; a redelivered message finds a live lease and retries a lease later
  (`JobBusy`), or finds it lapsed (the worker died) and takes the job over; only the run that holds the
  job records its outcome;
- `rankings.tasks.jobs_sweep` (beat, every `JOBS_SWEEP_SECONDS`; `rankings/sweep.py`): a job still
  queued after `JOBS_SWEEP_STALE_SECONDS`, or running under a lapsed lease, is queued again (a message the
  broker lost, as a Redis restarted without persistence loses its queue), like the standings sweep;
- `rankings.exports.tasks.ema_ranking_recompute`: stores each finished tournament's places and base ranks and
  recomputes the EMA ranking (MCR and riichi separately). It is touched by `rankings/ema/receivers.py` (a
  listener of the domain event) when a finished tournament, or one that counted until now, or one of its
  results, penalties, registrations, players or its status changes, imports and restores included.

- A director's CSV file of more than `PLAYER_IMPORT_INLINE_ROWS` players (200) is checked in the request
  (every fault named at once, nothing stored), then stored and imported by a task
  (`rankings/player_jobs.py`, `PlayerImportJob`, leased like the other jobs) in one transaction, all or
  nothing; its progress goes through the cache, since a row written inside that transaction would not be
  seen. The page (`/t/<slug>/director/players/import/<pk>/`) follows the job with htmx; the API answers 202
  with the job's URL (`GET /api/tournaments/<slug>/player-imports/<pk>/`: status, progress, summary or
  faults, for the tournament's directors). Smaller files are imported in the request.
"""
