"""One name per operation: each background task is named as the service it runs, and beat's schedule
(also run by the embedded scheduler) names only registered tasks."""

from __future__ import annotations

import importlib
import pkgutil

from django.conf import settings

from config.celery import app

ROOTS = ("config", "tournaments", "scoring", "penalties", "rankings", "idempotency", "notifications")
SERVICE_MODULES = ("services", "jobs", "player_jobs", "sweep")


def service_names() -> set[str]:
    """Every function name defined by a services-like module of the project."""
    names: set[str] = set()
    for root in ROOTS:
        package = importlib.import_module(root)
        for info in pkgutil.walk_packages(package.__path__, f"{root}."):
            if info.name.rsplit(".", 1)[-1] in SERVICE_MODULES:
                module = importlib.import_module(info.name)
                names |= {
                    n
                    for n, v in vars(module).items()
                    if callable(v) and getattr(v, "__module__", "") == module.__name__
                }
    return names


def project_tasks() -> dict[str, object]:
    app.loader.import_default_modules()
    return {name: task for name, task in app.tasks.items() if name.startswith(tuple(f"{r}." for r in ROOTS))}


def test_every_task_is_named_as_the_service_it_runs():
    tasks = project_tasks()
    assert len(tasks) >= 7  # standings (recompute, sweep), backups, exports, EMA ranking, archive, keys
    services = service_names()
    assert sorted(name for name in tasks if name.rsplit(".", 1)[-1] not in services) == []


def test_beat_runs_only_registered_tasks():
    tasks = project_tasks()
    scheduled = [entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()]
    assert scheduled and [name for name in scheduled if name not in tasks] == []
