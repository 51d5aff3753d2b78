"""Loaded into a test worker only (``celery worker -I tests.archive.worker_hold_import``): an archive import
announces that it took its job and started (a marker file) and then holds, so that the test can kill the
worker mid-import, with the job marked running."""

import os
import time
from pathlib import Path

from rankings.archive import jobs

_run = jobs.ArchiveImport.run


def _held(self):
    marker = os.environ.get("HOLD_MARKER")
    if marker:
        Path(marker).write_text("started")
        time.sleep(float(os.environ.get("HOLD_SECONDS", "300")))
    return _run(self)


jobs.ArchiveImport.run = _held
