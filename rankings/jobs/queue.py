"""Background tasks by name: a service queues a task without importing the module that defines it (that
module imports the service), so the two never import each other."""

from __future__ import annotations

from celery import current_app


def task_named(name: str):
    """The registered Celery task called ``name``. Task modules are imported by ``RankingsConfig.ready``
    (and by a worker's autodiscovery), so every task of the project is registered once Django is set up."""
    return current_app.tasks[name]
