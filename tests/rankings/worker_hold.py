"""Loaded into a test worker only (``celery worker -I tests.rankings.worker_hold``): the standings recompute
announces that it started (a marker file) and then holds, so that the test can kill the worker mid-task."""

import os
import time
from pathlib import Path

from celery.signals import task_prerun

from rankings.standings.tasks import standings_recompute as standings_recompute_task

recompute_name = standings_recompute_task.name


@task_prerun.connect
def _hold(task=None, **kwargs):
    marker = os.environ.get("HOLD_MARKER")
    if marker and task is not None and task.name == recompute_name:
        Path(marker).write_text("started")
        time.sleep(float(os.environ.get("HOLD_SECONDS", "300")))
