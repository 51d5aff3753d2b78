"""An export job's file goes with its row (also when the admin or a cascade deletes it)."""

from __future__ import annotations

from rankings.exports.models import ExportJob


def export_file_delete(sender, instance: ExportJob, **kwargs) -> None:
    if instance.file:
        instance.file.delete(save=False)
