"""Reading gettext catalogues (.po and .mo) and the faults that keep a language from being complete.

The source of the messages is the Spanish catalogue, complete by the house rule (every new string is
appended to it with its translation, and ``tests/tournaments/test_spanish_pages.py`` finds none left in
English): a language is complete when it translates every message of the Spanish catalogue, of
``django.po`` and of ``djangojs.po``. Reading them needs no gettext tool, so a fresh clone checks them as
they are.
"""

from __future__ import annotations

import ast
import gettext
import re
from dataclasses import dataclass, field
from pathlib import Path

# Named and positional printf placeholders (%(name)s, %s, %d, %0.1f; not %%) and brace fields ({name}, {0}).
PLACEHOLDER = re.compile(r"%\(\w+\)[-#0 +]*\d*(?:\.\d+)?[sdifr]|%[-#0 +]*\d*(?:\.\d+)?[sdifr]|\{\w*\}")
# The plural rules a language may use: gettext's traditional one, or CLDR's (as some tools write it).
PLURAL_RULES = {
    "en": ["n != 1"],
    "es": ["n != 1", "n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2"],
    "eu": ["n != 1"],
    "de": ["n != 1"],
    "nl": ["n != 1"],
    "it": ["n != 1", "n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2"],
    "pt": ["n != 1", "n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2"],
    "fr": ["n > 1", "(n == 0 || n == 1) ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2"],
    "pl": [
        "n == 1 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? 1 : 2",
        "n == 1 ? 0 : (n % 10 >= 2 && n % 10 <= 4) && (n % 100 < 12 || n % 100 > 14) ? 1 : "
        "n != 1 && (n % 10 >= 0 && n % 10 <= 1) || (n % 10 >= 5 && n % 10 <= 9) || "
        "(n % 100 >= 12 && n % 100 <= 14) ? 2 : 3",
    ],
}
SAMPLES = [*range(1001), 1000000, 2000000]


@dataclass
class Entry:
    msgid: str
    msgctxt: str | None = None
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)  # index 0 alone for a message without plural
    fuzzy: bool = False
    line: int = 0

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.msgctxt, self.msgid)

    @property
    def translated(self) -> bool:
        return bool(self.msgstr) and all(text.strip() for text in self.msgstr.values())


def _unquote(text: str) -> str:
    return ast.literal_eval(text)  # a C string literal as gettext writes it: the same escapes as Python's


def parse_po(text: str) -> tuple[dict[str, str], list[Entry]]:
    """The header's fields and the entries of a .po file (obsolete ``#~`` entries left out)."""
    entries: list[Entry] = []
    current: Entry | None = None
    target: tuple[str, int] | None = None
    flags: set[str] = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("#,"):
            flags |= {flag.strip() for flag in line[2:].split(",")}
            continue
        if not line or line.startswith("#"):
            continue
        match = re.match(r"^(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])?\s+(\".*\")$", line)
        if match:
            keyword, index, value = match[1], int(match[2] or 0), _unquote(match[3])
            if keyword in ("msgctxt", "msgid") and (current is None or current.msgstr):
                current = Entry(msgid="", fuzzy="fuzzy" in flags, line=number)
                entries.append(current)
                flags = set()
            if keyword == "msgstr":
                current.msgstr[index] = value
            else:
                setattr(current, keyword, value)
            target = (keyword, index)
        elif line.startswith('"') and current is not None and target is not None:
            keyword, index = target
            if keyword == "msgstr":
                current.msgstr[index] += _unquote(line)
            else:
                setattr(current, keyword, (getattr(current, keyword) or "") + _unquote(line))
    header: dict[str, str] = {}
    if entries and entries[0].msgid == "" and entries[0].msgctxt is None:
        for row in entries.pop(0).msgstr.get(0, "").splitlines():
            name, _sep, value = row.partition(":")
            header[name.strip()] = value.strip()
    return header, entries


def read_po(path: Path) -> tuple[dict[str, str], list[Entry]]:
    return parse_po(path.read_text(encoding="utf-8"))


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text.replace("%%", "")))


def plural_function(expression: str):
    """The function of a Plural-Forms expression (gettext's own compiler)."""
    return gettext.c2py(expression.strip().rstrip(";"))


def plural_faults(language: str, header: dict[str, str]) -> tuple[int | None, list[str]]:
    """(nplurals, faults) of a catalogue's Plural-Forms header for ``language``: its rule must be one of
    the language's (``PLURAL_RULES``), checked on the numbers 0 to 1000 and millions."""
    value = header.get("Plural-Forms", "")
    match = re.match(r"^\s*nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*(.+?)\s*;?\s*$", value)
    if not match:
        return None, [f"{language}: no valid Plural-Forms header ({value!r})"]
    nplurals, expression = int(match[1]), match[2]
    try:
        found = plural_function(expression)
    except (ValueError, SyntaxError):
        return nplurals, [f"{language}: Plural-Forms expression {expression!r} does not compile"]
    for rule in PLURAL_RULES.get(language, []):
        expected = plural_function(rule)
        forms = {expected(n) for n in SAMPLES}
        if len(forms) == nplurals and all(found(n) == expected(n) for n in SAMPLES):
            return nplurals, []
    return nplurals, [f"{language}: Plural-Forms {value!r} is not the plural rule of this language"]


def entry_faults(language: str, source: Entry, entry: Entry | None, nplurals: int | None) -> list[str]:
    """What is wrong with ``language``'s translation ``entry`` of the source message ``source``."""
    where = f"{language}: {source.msgid[:70]!r}" + (
        f" (context {source.msgctxt!r})" if source.msgctxt else ""
    )
    if entry is None or not entry.translated:
        return [f"{where}: not translated"]
    faults: list[str] = []
    if source.msgid_plural is not None:
        if entry.msgid_plural is None:
            return [*faults, f"{where}: translated without its plural forms"]
        if nplurals is not None and sorted(entry.msgstr) != list(range(nplurals)):
            faults.append(f"{where}: {len(entry.msgstr)} plural forms, the language has {nplurals}")
        allowed = set(placeholders(source.msgid)) | set(placeholders(source.msgid_plural))
        used: set[str] = set()
        for text in entry.msgstr.values():
            used |= set(placeholders(text))
        if used - allowed:
            faults.append(f"{where}: placeholders {sorted(used - allowed)} not in the source")
        named = {p for p in allowed if p.startswith(("%(", "{"))} - _counts(source)
        if named - used:
            faults.append(f"{where}: placeholders {sorted(named - used)} missing")
        # only the form of "one" may spell the count out ("una mesa"); every other form shows it
        counted = [
            i for i, text in entry.msgstr.items() if i and not _counts(source) & set(placeholders(text))
        ]
        if _counts(source) and counted:
            faults.append(f"{where}: plural forms {counted} lack the count {sorted(_counts(source))}")
    elif signature(entry.msgstr.get(0, "")) != signature(source.msgid):
        faults.append(
            f"{where}: placeholders {placeholders(entry.msgstr.get(0, ''))} "
            f"instead of {placeholders(source.msgid)}"
        )
    return faults


def signature(text: str) -> tuple[list[str], list[str]]:
    """The named placeholders of ``text`` (each may be repeated or moved) and its positional ones (each
    counted: their order is the values' order)."""
    found = placeholders(text)
    named = sorted({p for p in found if p.startswith(("%(", "{")) and p != "{}"})
    return named, [p for p in found if not p.startswith(("%(", "{")) or p == "{}"]


def _counts(source: Entry) -> set[str]:
    """The placeholders of the count in a plural message (a form may spell it out: "one table")."""
    singular, plural = set(placeholders(source.msgid)), set(placeholders(source.msgid_plural or ""))
    return plural - singular if plural - singular else {p for p in plural if p.endswith("d")}


def catalogue_faults(language: str, source_po: Path, po: Path) -> list[str]:
    """Every fault of ``po`` (``language``) against the source catalogue ``source_po``."""
    if not po.exists():
        return [f"{language}: {po} is missing"]
    header, entries = read_po(po)
    nplurals, faults = plural_faults(language, header)
    by_key = {entry.key: entry for entry in entries}
    for source in read_po(source_po)[1]:
        faults += entry_faults(language, source, by_key.get(source.key), nplurals)
    faults += [f"{language}: {e.msgid[:70]!r} marked fuzzy (line {e.line})" for e in entries if e.fuzzy]
    return faults


def compiled_faults(po: Path) -> list[str]:
    """Where the compiled ``.mo`` beside ``po`` differs from it (or is missing): the server reads the .mo."""
    mo = po.with_suffix(".mo")
    if not mo.exists():
        return [f"{mo} is missing: run manage.py compilemessages"]
    with mo.open("rb") as f:
        compiled = gettext.GNUTranslations(f)._catalog
    expected: dict = {}
    for entry in read_po(po)[1]:
        if entry.fuzzy or not entry.translated:
            continue
        msgid = entry.msgid if entry.msgctxt is None else f"{entry.msgctxt}\x04{entry.msgid}"
        if entry.msgid_plural is None:
            expected[msgid] = entry.msgstr[0]
        else:
            expected |= {(msgid, index): text for index, text in entry.msgstr.items()}
    compiled = {k: v for k, v in compiled.items() if k != ""}
    stale = [str(k)[:70] for k in expected if compiled.get(k) != expected[k]]
    extra = [str(k)[:70] for k in compiled if k not in expected]
    if stale or extra:
        return [
            f"{mo} is out of date with {po.name} ({len(stale)} messages differ or are missing, "
            f"{len(extra)} no longer in it: {(stale + extra)[:3]}): run manage.py compilemessages"
        ]
    return []
