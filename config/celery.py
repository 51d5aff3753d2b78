"""The Celery application. With no broker configured, tasks run eagerly in-process.

The worker outlives its broker. When Redis goes away while a task taken with ``acks_late`` is unacknowledged,
the consumer closes its channel to reconnect, and kombu's Redis transport (5.7.0, the newest release) tries
to put the unacknowledged messages back through a connection that is already gone: ``AttributeError:
'NoneType' object has no attribute 'hostname'`` escapes as an "Unrecoverable error" and the worker exits for
good. :func:`_restore_unacked_when_connected` skips that restore when the channel has lost its connection:
the messages stay in Redis's set of unacknowledged messages, and the workers' scan gives them back after the
visibility timeout (``CELERY_VISIBILITY_TIMEOUT``), as for a worker that died. The consumer then reconnects
(``CELERY_BROKER_CONNECTION_MAX_RETRIES = None``: for as long as it takes). Proven by
``tests/rankings/test_broker_outage.py``; run the worker under a supervisor anyway (README).
"""

import functools
import os

from celery import Celery
from kombu.transport import redis as kombu_redis

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def _restore_unacked_when_connected(restore):
    @functools.wraps(restore)
    def restore_unacked(self, client=None):
        transport = getattr(self.channel, "connection", None)
        if client is None and (transport is None or getattr(transport, "client", None) is None):
            return None  # the broker is gone: the messages come back after the visibility timeout
        return restore(self, client)

    restore_unacked.__wrapped_for_outages__ = True
    return restore_unacked


def _disconnected(qos) -> bool:
    transport = getattr(qos.channel, "connection", None)
    return transport is None or getattr(transport, "client", None) is None


def _ack_when_connected(ack):
    """The same for the acknowledgement of a task that finished while Redis was away (``'NoneType' object
    has no attribute 'client'``): the message is forgotten by this worker but stays in Redis's set of
    unacknowledged messages, so it comes back after the visibility timeout and runs again (every task is
    safe to run twice)."""

    @functools.wraps(ack)
    def ack_or_leave(self, delivery_tag):
        if _disconnected(self):
            return super(kombu_redis.QoS, self).ack(delivery_tag)
        return ack(self, delivery_tag)

    ack_or_leave.__wrapped_for_outages__ = True
    return ack_or_leave


if not getattr(kombu_redis.QoS.restore_unacked, "__wrapped_for_outages__", False):
    kombu_redis.QoS.restore_unacked = _restore_unacked_when_connected(kombu_redis.QoS.restore_unacked)
if not getattr(kombu_redis.QoS.ack, "__wrapped_for_outages__", False):
    kombu_redis.QoS.ack = _ack_when_connected(kombu_redis.QoS.ack)

app = Celery("mahjong")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
