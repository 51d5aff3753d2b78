"""The completeness check itself finds what it must: a small fake catalogue with each fault."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.i18n.catalogues import catalogue_faults, compiled_faults, parse_po

HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Plural-Forms: {plural}\\n"\n\n'
SOURCE = (
    HEADER.format(plural="nplurals=2; plural=(n != 1);")
    + 'msgid "Hello %(name)s"\nmsgstr "Hola %(name)s"\n\n'
    + 'msgctxt "wind letter"\nmsgid "W"\nmsgstr "O"\n\n'
    + 'msgid "one table"\nmsgid_plural "%(n)d tables"\nmsgstr[0] "una mesa"\nmsgstr[1] "%(n)d mesas"\n\n'
    + 'msgid "Saved."\nmsgstr "Guardado."\n'
)
POLISH = "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<12 || n%100>14) ? 1 : 2);"
GOOD_PL = (
    HEADER.format(plural=POLISH)
    + 'msgid "Hello %(name)s"\nmsgstr "Cześć %(name)s"\n\n'
    + 'msgctxt "wind letter"\nmsgid "W"\nmsgstr "Z"\n\n'
    + 'msgid "one table"\nmsgid_plural "%(n)d tables"\nmsgstr[0] "jeden stół"\n'
    + 'msgstr[1] "%(n)d stoły"\nmsgstr[2] "%(n)d stołów"\n\n'
    + 'msgid "Saved."\nmsgstr "Zapisano."\n'
)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def faults(tmp_path: Path, language: str, text: str) -> list[str]:
    return catalogue_faults(language, write(tmp_path, "source.po", SOURCE), write(tmp_path, "l.po", text))


def test_a_complete_catalogue_passes(tmp_path):
    assert faults(tmp_path, "pl", GOOD_PL) == []


def test_a_missing_or_empty_translation_fails(tmp_path):
    missing = GOOD_PL.replace('msgid "Saved."\nmsgstr "Zapisano."\n', "")
    assert faults(tmp_path, "pl", missing) == ["pl: 'Saved.': not translated"]
    empty = GOOD_PL.replace('msgstr "Zapisano."', 'msgstr ""')
    assert faults(tmp_path, "pl", empty) == ["pl: 'Saved.': not translated"]
    no_context = GOOD_PL.replace('msgctxt "wind letter"\n', "")
    assert faults(tmp_path, "pl", no_context) == ["pl: 'W' (context 'wind letter'): not translated"]
    assert "is missing" in catalogue_faults("pl", write(tmp_path, "s.po", SOURCE), tmp_path / "none.po")[0]


def test_a_placeholder_changed_fails(tmp_path):
    wrong = GOOD_PL.replace("Cześć %(name)s", "Cześć %(imie)s")
    assert faults(tmp_path, "pl", wrong) == [
        "pl: 'Hello %(name)s': placeholders ['%(imie)s'] instead of ['%(name)s']"
    ]
    lost = GOOD_PL.replace('"%(n)d stołów"', '"stołów"').replace('"%(n)d stoły"', '"stoły"')
    assert faults(tmp_path, "pl", lost) == ["pl: 'one table': plural forms [1, 2] lack the count ['%(n)d']"]


def test_wrong_plural_forms_fail(tmp_path):
    two_forms = GOOD_PL.replace('msgstr[2] "%(n)d stołów"\n', "")
    assert faults(tmp_path, "pl", two_forms) == ["pl: 'one table': 2 plural forms, the language has 3"]
    english_rule = GOOD_PL.replace(POLISH, "nplurals=2; plural=(n != 1);")
    found = faults(tmp_path, "pl", english_rule)
    assert any("is not the plural rule of this language" in f for f in found)
    # French says "1,5 table" and "0 table": n > 1, not n != 1
    french = SOURCE.replace("Hola", "Bonjour").replace('"O"', '"O"').replace("una mesa", "une table")
    assert (
        faults(
            tmp_path,
            "fr",
            french.replace(
                "Plural-Forms: nplurals=2; plural=(n != 1);", "Plural-Forms: nplurals=2; plural=(n > 1);"
            ),
        )
        == []
    )
    assert any("plural rule" in f for f in faults(tmp_path, "fr", french))


def test_a_fuzzy_entry_fails(tmp_path):
    fuzzy = GOOD_PL.replace('msgid "Saved."', '#, fuzzy\nmsgid "Saved."')
    assert faults(tmp_path, "pl", fuzzy) == ["pl: 'Saved.' marked fuzzy (line 20)"]
    assert parse_po(fuzzy)[1][-1].fuzzy


@pytest.mark.skipif(subprocess.run(["which", "msgfmt"], capture_output=True).returncode, reason="msgfmt")
def test_a_stale_compiled_catalogue_fails(tmp_path):
    po = write(tmp_path, "django.po", GOOD_PL)
    assert compiled_faults(po) == [f"{po.with_suffix('.mo')} is missing: run manage.py compilemessages"]
    subprocess.run(["msgfmt", "-o", str(po.with_suffix(".mo")), str(po)], check=True)
    assert compiled_faults(po) == []
    write(tmp_path, "django.po", GOOD_PL.replace("Zapisano.", "Zapisane."))
    assert "is out of date" in compiled_faults(po)[0]
