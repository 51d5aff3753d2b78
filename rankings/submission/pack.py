"""The EMA submission pack: one ZIP with what the EMA asks of a MERS tournament, made as an export job.

The ``ema-pack`` exporter (format ``zip``) writes:

- ``results.csv`` and ``results.xlsx``: the results file with the EMA's columns and EMA numbers
  (ERGMT §3.13), the ``ema-results`` export;
- ``observer-report.pdf``: the observer's report (ERGMT §3.11), in English;
- ``checks.csv``: every check with its article, outcome and messages;
- ``penalties.csv`` (and ``chombos.csv`` for riichi): every penalty with its reason, so that the EMA
  can see why a table does not sum to zero;
- ``manifest.json``: the tournament, when the pack was made, the stamp of what it was made from
  (:func:`rankings.submission.selectors.stamp`), the checks' outcome and each file's size and SHA-256.

A pack is out of date, as every export is, when the tournament's stamp is no longer the one its job
recorded when it was made (``ExportJob.out_of_date``; the manifest's for a pack made before jobs kept it;
:func:`pack_state`).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import zipfile
from dataclasses import dataclass

from django.utils import timezone, translation
from django.utils.translation import gettext_lazy

from rankings.exports.base import CSV, XLSX, ZIP, Exporter, ExportFile, render_csv
from rankings.exports.models import ExportJob
from rankings.exports.registry import exporter_get, register
from rankings.submission import engine, selectors
from rankings.submission.report import report_of, report_pdf
from tournaments.models import Tournament

IDENTIFIER = "ema-pack"
MANIFEST = "manifest.json"


def checks_rows(checks: list[engine.Check]) -> list[list[str]]:
    rows = [["Check", "Article", "Outcome", "Messages"]]
    for c in checks:
        rows.append([str(c.title), c.article, c.status, " | ".join(str(m) for m in c.messages)])
    return rows


@register
class EmaPackExporter(Exporter):
    identifier = IDENTIFIER
    name = gettext_lazy("EMA submission pack")
    description = gettext_lazy(
        "One ZIP for the EMA: the results file (CSV and XLSX), the observer's report (PDF), the checks "
        "with their outcome, the penalties list and a manifest."
    )
    formats = (ZIP,)

    @classmethod
    def available_for(cls, tournament) -> bool:
        return tournament.family in engine.RANKED

    def render(self, fmt: str) -> ExportFile:
        if fmt != ZIP:
            return super().render(fmt)
        tournament = self.tournament
        self._set_progress(0)
        stamp = selectors.stamp(tournament=tournament)
        files: dict[str, bytes] = {}
        results = exporter_get("ema-results")(tournament=tournament)
        files["results.csv"] = results.render(CSV).data
        self._set_progress(20)
        files["results.xlsx"] = exporter_get("ema-results")(tournament=tournament).render(XLSX).data
        self._set_progress(40)
        with translation.override("en"):
            checks = selectors.checks(tournament=tournament)
            files["checks.csv"] = render_csv(checks_rows(checks))
            self._set_progress(55)
            files["observer-report.pdf"] = report_pdf(report_of(tournament=tournament))
            self._set_progress(80)
            files["penalties.csv"] = exporter_get("penalties")(tournament=tournament).render(CSV).data
            if tournament.get_rules().has_chombo:
                files["chombos.csv"] = exporter_get("chombos")(tournament=tournament).render(CSV).data
        self._set_progress(90)
        manifest = {
            "tournament": {
                "name": tournament.name,
                "slug": tournament.slug,
                "starts_on": tournament.starts_on.isoformat(),
                "days": tournament.days,
                "ruleset": tournament.ruleset,
            },
            "made_at": timezone.now().isoformat(timespec="seconds"),
            "stamp": stamp,
            "checks": {c.key: c.status for c in checks},
            "files": [
                {"name": name, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
                for name, data in files.items()
            ],
        }
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(MANIFEST, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
            for name, data in files.items():
                archive.writestr(name, data)
        self._set_progress(100)
        return ExportFile(f"{self.filename_stem()}.zip", "application/zip", buffer.getvalue())


def read_manifest(job: ExportJob) -> dict | None:
    """The manifest of a finished pack (None when the file is gone or not a pack)."""
    if not job.ready:
        return None
    try:
        with job.file.open("rb") as handle, zipfile.ZipFile(handle) as archive:
            return json.loads(archive.read(MANIFEST))
    except (OSError, KeyError, ValueError, zipfile.BadZipFile):
        return None


@dataclass(frozen=True)
class PackState:
    job: ExportJob | None
    current: bool  # made from the tournament as it is now

    @property
    def stale(self) -> bool:
        return self.job is not None and self.job.ready and not self.current


def latest_pack(*, tournament: Tournament) -> ExportJob | None:
    return ExportJob.objects.filter(tournament=tournament, exporter=IDENTIFIER).first()


def pack_state(*, tournament: Tournament) -> PackState:
    """The newest pack and whether it is still current (its manifest's stamp is the tournament's)."""
    job = latest_pack(tournament=tournament)
    if job is None or not job.ready:
        return PackState(job=job, current=False)
    if job.stamp:  # one "out of date" for every export: the job's stamp
        return PackState(job=job, current=not job.out_of_date)
    manifest = read_manifest(job)
    current = manifest is not None and manifest.get("stamp") == selectors.stamp(tournament=tournament)
    return PackState(job=job, current=current)


def csv_rows(data: bytes) -> list[list[str]]:
    """A CSV file of the pack read back (tests and the check-only command)."""
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
