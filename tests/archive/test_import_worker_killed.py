"""An archive import whose worker is killed mid-import (``kill -9``) is finished by another worker, with no
hand on it: the job's message comes back after the visibility timeout, the dead worker's lease has lapsed,
and the next worker takes the job over. Real workers, the test's own Redis (broker and cache, where the
lease lives) and PostgreSQL; skipped without them (see tests/rankings/test_broker_outage.py)."""

from __future__ import annotations

import io
import json
import os
import signal
import time

import pytest

from rankings.archive import jobs
from tests.archive.conftest import load
from tests.rankings.test_broker_outage import _process, _stop, broker_is, own_redis  # noqa: F401
from tournaments.models import Tournament

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_an_import_killed_with_its_worker_is_taken_over_and_finished(
    broker_is,  # noqa: F811
    make_user,
    tmp_path,
    settings,
):
    redis = broker_is
    admin = make_user("importer", is_staff=True)
    settings.MEDIA_ROOT = tmp_path / "media"  # where the upload is kept, for this test and its workers
    env = {
        "MEDIA_ROOT": str(settings.MEDIA_ROOT),
        "REDIS_URL": redis.url.replace("/0", "/1"),  # the workers' cache: where the lease lives
        "JOB_LEASE_SECONDS": "3",
        "CELERY_VISIBILITY_TIMEOUT": "5",
    }
    marker = tmp_path / "import-started"
    doomed, doomed_log = _process(
        tmp_path,
        "doomed",
        [
            "worker",
            "--loglevel=INFO",
            "--pool=solo",
            "-n",
            "doomed@%h",
            "-I",
            "tests.archive.worker_hold_import",
        ],
        redis.url,
        HOLD_MARKER=str(marker),
        HOLD_SECONDS="600",
        **env,
    )
    survivor = None
    try:
        job = jobs.archive_import_job_create(
            upload=io.BytesIO(json.dumps(load("mcr")).encode()), replace=False, user=admin
        )  # queued once this (autocommitted) write is done
        deadline = time.monotonic() + 60
        while not marker.exists() and time.monotonic() < deadline and doomed.poll() is None:
            time.sleep(0.2)
        assert marker.exists(), "the worker never started the import"
        job.refresh_from_db()
        assert job.status == "running"
        os.kill(doomed.pid, signal.SIGKILL)  # mid-import: the job stays "running", its message unacknowledged
        doomed.wait(timeout=10)

        survivor, survivor_log = _process(
            tmp_path,
            "survivor",
            ["worker", "--loglevel=INFO", "--pool=solo", "-n", "survivor@%h"],
            redis.url,
            **env,
        )
        killed_at = time.monotonic()
        while time.monotonic() - killed_at < 90:
            job.refresh_from_db()
            if job.status != "running":
                break
            time.sleep(0.5)
        print(f"the import was finished {time.monotonic() - killed_at:.1f} s after its worker was killed")
        assert job.status == "done", (job.status, job.error)
        assert Tournament.objects.filter(slug=load("mcr")["tournament"]["slug"]).count() == 1
        assert "was left running by a worker that is gone: taken over" in survivor_log.read_text()
    finally:
        _stop(doomed, doomed_log)
        if survivor is not None:
            _stop(survivor, survivor_log)
