"""Background work of the repeatable writes: forgetting old keys (hourly with Celery beat)."""

from celery import shared_task

from idempotency import services


@shared_task(acks_late=True)
def idempotency_purge() -> int:
    return services.idempotency_purge()
