"""Loaded into a test worker only (``celery worker -I tests.rankings.worker_hold``): the standings recompute
announces that it started (a marker file) and then holds, so that the test can kill the worker mid-task."""

import os
import time
from pathlib import Path

from celery.signals import task_prerun


@task_prerun.connect
def _hold(task=None, **kwargs):
    marker = os.environ.get("HOLD_MARKER")
    if marker and task is not None and task.name == "rankings.tasks.recompute_standings":
        Path(marker).write_text("started")
        time.sleep(float(os.environ.get("HOLD_SECONDS", "300")))
