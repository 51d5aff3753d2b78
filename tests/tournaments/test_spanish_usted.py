"""The Spanish catalogue addresses the reader one way, as usted (the Django forms' own strings do): no
"tu", "puedes" or imperative in the tú form, in any translation."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

CATALOGUE = Path(settings.BASE_DIR) / "locale" / "es" / "LC_MESSAGES" / "django.po"

TU_WORDS = re.compile(r"\b(tu|tus|Tu|Tus|ti|contigo|puedes|tienes|quieres|debes|estás|eres|has)\b")
# An imperative in the tú form where a sentence starts: usted says Elija, Toque, Escriba…
TU_IMPERATIVE = re.compile(
    r"(^|[.:;!?—]\s+)(Elige|Toca|Pulsa|Escribe|Revisa|Indica|Pide|Pon|Guarda|Deja|Vuelve|Busca|Pega|Corrige"
    r"|Anota|Confirma|Restaura|Abre|Mira|Recarga|Introduce|Añade|Quita|Créalos|Espera y)\b"
)


def translations() -> list[tuple[int, str]]:
    lines = CATALOGUE.read_text(encoding="utf-8").split("\n")
    found, i = [], 0
    while i < len(lines):
        match = re.match(r'^msgstr(?:\[\d\])? "(.*)"$', lines[i])
        i += 1
        if not match:
            continue
        start, text = i, match.group(1)
        while i < len(lines) and lines[i].startswith('"'):
            text += lines[i][1:-1]
            i += 1
        found.append((start, text))
    return found


def test_the_spanish_catalogue_says_usted_throughout():
    tu = [(n, t) for n, t in translations() if TU_WORDS.search(t) or TU_IMPERATIVE.search(t)]
    assert tu == []
