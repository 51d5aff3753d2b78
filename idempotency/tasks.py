"""Background work of the repeatable writes: forgetting old keys (hourly with Celery beat)."""

from celery import shared_task

from idempotency.services import idempotency_purge


@shared_task(acks_late=True)
def purge_idempotency_keys() -> int:
    return idempotency_purge()
