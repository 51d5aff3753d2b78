"""The worker's settings for a broker that goes away (the real outage is tests/rankings/test_broker_outage.py)."""

from __future__ import annotations

from types import SimpleNamespace

from django.conf import settings
from kombu.transport import redis as kombu_redis

from config.celery import app


def test_the_worker_reconnects_for_as_long_as_it_takes():
    assert app.conf.broker_connection_retry is True
    assert app.conf.broker_connection_retry_on_startup is True
    assert app.conf.broker_connection_max_retries is None  # never gives up (the default gives up after 100)
    assert settings.CELERY_TASK_ACKS_LATE and settings.CELERY_TASK_REJECT_ON_WORKER_LOST


def test_closing_a_channel_whose_broker_is_gone_leaves_the_unacknowledged_messages_to_the_broker():
    """Unpatched, this raises AttributeError ('NoneType' object has no attribute 'hostname') and the
    worker exits; patched, the messages stay in Redis's unacknowledged set for the visibility scan."""
    qos = kombu_redis.QoS.__new__(kombu_redis.QoS)
    asked = []

    def conn_or_acquire(client=None):
        asked.append(client)
        raise AttributeError("'NoneType' object has no attribute 'hostname'")

    qos.channel = SimpleNamespace(connection=SimpleNamespace(client=None), conn_or_acquire=conn_or_acquire)
    qos._delivered = {"tag": object()}
    assert qos.restore_unacked() is None
    assert asked == [] and "tag" in qos._delivered  # nothing tried through the dead connection
