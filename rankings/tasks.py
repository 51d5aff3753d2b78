"""Background tasks of the rankings app: thin wrappers over services, taking ids only."""

from celery import shared_task

from rankings.services import standings_recompute


@shared_task(bind=True, acks_late=True, autoretry_for=(Exception,), retry_backoff=2, max_retries=5)
def recompute_standings(self, tournament_id: int) -> int:
    """Recompute a tournament's standings; safe to run twice or concurrently."""
    return standings_recompute(tournament_id=tournament_id).computed_version
