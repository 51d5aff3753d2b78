"""Background tasks of the standings: thin wrappers over services, taking ids only, each named as the
service it runs."""

from celery import Task, shared_task

from rankings.standings import services, sweep


class StandingsTask(Task):
    def on_failure(self, exc, task_id, args, kwargs, einfo):
        """Out of retries: say on the pages and the dashboard that the standings are late, and why."""
        tournament_id = (list(args) or [kwargs.get("tournament_id")])[0]
        if tournament_id is not None:
            services.standings_failed(tournament_id=tournament_id, error=f"{type(exc).__name__}: {exc}")


@shared_task(
    bind=True,
    base=StandingsTask,
    acks_late=True,  # a worker that dies mid-run leaves the message for another worker
    ignore_result=True,
    autoretry_for=(Exception,),
    retry_backoff=2,
    retry_jitter=True,
    max_retries=5,
)
def standings_recompute(self, tournament_id: int) -> int | None:
    """Recompute a tournament's standings; safe to run twice or concurrently."""
    state = services.standings_recompute(tournament_id=tournament_id)
    return None if state is None else state.computed_version


@shared_task(ignore_result=True)
def standings_sweep() -> list[int]:
    """Re-queue the recompute of every tournament whose snapshot is older than its input (beat)."""
    return sweep.standings_sweep()
