"""The models of the rankings app, each defined in its subdomain's package and gathered here, where Django
looks for them: the standings snapshot (``rankings.standings.models``), the EMA ranking's stored results
and the imported results (``rankings.ema.models``), the export jobs (``rankings.exports.models``), the
archive import jobs (``rankings.archive.models``) and the player import jobs (``rankings.jobs.models``).
"""

from rankings.archive.models import ArchiveImportJob, import_upload_to
from rankings.ema.models import (
    EmaRankingEntry,
    EmaRankingState,
    EmaTournament,
    ImportedResult,
    ImportedTournament,
    TournamentResult,
)
from rankings.exports.models import ExportJob, export_upload_to
from rankings.jobs.models import PlayerImportJob
from rankings.standings.models import StandingsState

__all__ = [
    "ArchiveImportJob",
    "EmaRankingEntry",
    "EmaRankingState",
    "EmaTournament",
    "ExportJob",
    "ImportedResult",
    "ImportedTournament",
    "PlayerImportJob",
    "StandingsState",
    "TournamentResult",
    "export_upload_to",
    "import_upload_to",
]
