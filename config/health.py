"""/healthz: the state of the database, the cache and the broker, as JSON.

Anyone (a load balancer) sees whether each part is up; what went wrong (the exception and its message,
which may name hosts, users or paths) is shown to signed-in staff only."""

import time

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache


def _check(fn):
    start = time.monotonic()
    try:
        detail = fn()
    except Exception as exc:  # any failure of the dependency is the answer, not a crash
        return {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
    result = {"ok": True, "ms": round((time.monotonic() - start) * 1000, 1)}
    if detail:
        result.update(detail)
    return result


def _database():
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"vendor": connection.vendor}


def _cache():
    key = "healthz:probe"
    cache.set(key, "1", 10)
    if cache.get(key) != "1":
        raise RuntimeError("the cache did not return what was stored")
    return {"backend": settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]}


def broker_state() -> dict:
    if not settings.CELERY_BROKER_URL:
        return {"ok": True, "mode": "eager (no broker configured)"}

    def probe():
        from kombu import Connection

        with Connection(settings.CELERY_BROKER_URL, connect_timeout=2) as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
        return {"mode": "broker"}

    return _check(probe)


def _public(check: dict) -> dict:
    """A check as the public sees it: up or down, no error text."""
    if check.get("ok"):
        return check
    return {key: value for key, value in check.items() if key != "error"}


@never_cache
def healthz(request):
    checks = {"database": _check(_database), "cache": _check(_cache), "broker": broker_state()}
    user = getattr(request, "user", None)
    if not (user is not None and user.is_authenticated and user.is_staff):
        checks = {name: _public(check) for name, check in checks.items()}
    healthy = all(c["ok"] for c in checks.values())
    body = {"status": "ok" if healthy else ("down" if not checks["database"]["ok"] else "degraded"), **checks}
    return JsonResponse(body, status=200 if checks["database"]["ok"] else 503)
