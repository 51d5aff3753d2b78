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


if not getattr(kombu_redis.QoS.restore_unacked, "__wrapped_for_outages__", False):
    kombu_redis.QoS.restore_unacked = _restore_unacked_when_connected(kombu_redis.QoS.restore_unacked)

app = Celery("mahjong")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
