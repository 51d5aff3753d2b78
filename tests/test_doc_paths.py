"""The docs point at files that exist: every project file and module the README, docs/ and the benchmarks'
READMEs name in backquotes is where they say."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("config", "tournaments", "scoring", "penalties", "rankings", "idempotency")
FILE = re.compile(r"`([\w./-]+\.(?:py|md|html|js|css))`")
MODULE = re.compile(rf"`((?:{'|'.join(PACKAGES)})(?:\.\w+)+)(?:\([^`]*\))?`")
DATA_FILE = re.compile(
    r"\.(?:csv|xlsx|pdf|zip|json|txt)$"
)  # `penalties.csv` names a file of a pack, not a module


def documents() -> list[Path]:
    return [
        ROOT / "README.md",
        *sorted((ROOT / "docs").glob("*.md")),
        *sorted((ROOT / "bench").glob("*/README.md")),
    ]


def file_exists(name: str) -> bool:
    return any((base / name).exists() for base in (ROOT, ROOT / "templates", ROOT / "static"))


def module_exists(name: str) -> bool:
    """``a.b.c`` names a module, or an attribute of one (``a.b`` a module and ``c`` defined in it)."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        path = ROOT.joinpath(*parts[:cut])
        source = path.with_suffix(".py")
        if (path / "__init__.py").exists() or source.exists():
            if cut == len(parts):
                return True
            text = source.read_text() if source.exists() else (path / "__init__.py").read_text()
            if cut == 1 and (path / "models.py").exists():  # ``app.codename``: a permission
                text += (path / "models.py").read_text()
            n = re.escape(parts[cut])
            defined = rf"^(?:def|class) {n}\b|^{n}\s*[:=]|^\s*(?:from \S+ )?import .*\b{n}\b|[\"']{n}[\"']"
            return re.search(defined, text, re.M) is not None
    return False


def test_every_file_and_module_the_docs_name_exists():
    missing = []
    for doc in documents():
        text = doc.read_text()
        for name in FILE.findall(text):
            if "/" in name and name[0].islower() and not file_exists(name):  # not URLs, not settings
                missing.append(f"{doc.relative_to(ROOT)}: {name}")
        for name in MODULE.findall(text):
            if not DATA_FILE.search(name) and not module_exists(name):
                missing.append(f"{doc.relative_to(ROOT)}: {name}")
    assert missing == []
