"""The layers of docs/ARCHITECTURE.md hold: import-linter's contracts (.importlinter) pass on the project,
they fail as soon as a lower layer imports a higher one, even inside a function, and every module that is
not an entry point is the source of one of them."""

from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("config", "tournaments", "scoring", "penalties", "rankings", "idempotency", "notifications")
LINT = Path(sys.executable).with_name("lint-imports")


def lint(where: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(LINT), "--config", str(where / ".importlinter"), "--no-cache"],
        cwd=where,
        env={"PYTHONPATH": str(where), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture
def copy_of_project(tmp_path: Path) -> Path:
    for name in PACKAGES:
        shutil.copytree(
            ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "migrations")
        )
    shutil.copy(ROOT / ".importlinter", tmp_path / ".importlinter")
    return tmp_path


def test_the_project_keeps_its_layers():
    result = lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        # the standings touched from a results service inside a function: the old import cycle
        (
            "scoring/services.py",
            "def _sneak():\n    from rankings.standings.services import standings_touch\n",
            "Results import penalties, the tournaments core and the pure engines",
        ),
        (
            "tournaments/services.py",
            "def _sneak():\n    from scoring.models import TableResult\n",
            "The tournaments core imports no layer above it",
        ),
        (
            "penalties/services.py",
            "from scoring.services import summaries_refresh\n",
            "Penalties import only the tournaments core and the pure engines",
        ),
        (
            "rankings/standings/engine.py",
            "from django.db import models\n",
            "Pure engines import neither Django nor any other layer",
        ),
        (
            "rankings/standings/services.py",
            "from rankings.standings import views\n",
            "Rankings import every domain below them and no entry point",
        ),
        (
            "idempotency/services.py",
            "def _sneak():\n    from scoring.models import TableResult\n",
            "Repeatable writes know no domain and no entry point",
        ),
        (
            "idempotency/fingerprint.py",
            "from django.utils import timezone\n",
            "Request fingerprints import no Django",
        ),
        # a standings read that would store: the first visit of the page used to store a snapshot
        (
            "rankings/standings/selectors.py",
            "def _sneak():\n    from rankings.standings.services import standings_current\n",
            "Standings reads write nothing",
        ),
        (
            "tournaments/sessions/services.py",
            "def _sneak():\n    from tournaments.console import views\n",
            "The director's console and the tournament domains import no entry point",
        ),
        (
            "tournaments/staff/services.py",
            "from tournaments.sessions import services\n",
            "The tournaments core imports no layer above it",
        ),
        (
            "tournaments/teams/services.py",
            "from rankings.standings import selectors\n",
            "The tournaments core imports no layer above it",
        ),
        (
            "rankings/backups/services.py",
            "from rankings.backups import views\n",
            "Rankings import every domain below them and no entry point",
        ),
    ],
)
def test_a_lower_layer_importing_a_higher_one_breaks_a_contract(copy_of_project, module, line, contract):
    target = copy_of_project / module
    target.write_text(target.read_text() + "\n\n" + line)
    result = lint(copy_of_project)
    assert result.returncode != 0
    assert f"{contract}" in result.stdout and "BROKEN" in result.stdout


ENTRY_POINTS = {"views", "forms", "api", "urls", "admin", "apps", "tasks", "demo", "filters", "__init__"}
ENTRY_PACKAGES = {"management", "migrations", "templatetags"}


def test_every_module_but_the_entry_points_is_in_a_contract():
    config = configparser.ConfigParser()
    config.read(ROOT / ".importlinter")
    sources = {
        line.strip()
        for section in config.sections()
        if section.startswith("importlinter:contract:")
        for line in config[section].get("source_modules", "").splitlines()
        if line.strip()
    }
    outside = []
    for package in PACKAGES:
        if package == "config":  # settings, URLs, WSGI, the scheduler: entry points all
            continue
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] in ENTRY_POINTS or ENTRY_PACKAGES & set(parts):
                continue
            module = ".".join(parts)
            if not any(module == s or module.startswith(f"{s}.") for s in sources):
                outside.append(module)
    assert outside == []
