"""Every page in every language of the site but English (Spanish first: the others once their catalogue is
in locale/), for a tournament of each ruleset with results (the demo: MCR with tiles, riichi, Salamanca
with colours), and the CSV exports, show no English the catalogue or the engines hold: no msgid left
untranslated, no English text of the catalogue rendered as is, no fan or yaku name, rule label or raw
choice in English, no placeholder left unfilled, and one set of wind letters (the language's) per page."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import translation

from scoring.rules.tiles.mcr import FAN_NAMES
from scoring.rules.tiles.riichi import GLOSSED_NAMES
from tournaments.demo import DEMO_SLUG, MAYON_SLUG, RIICHI_SLUG, load_demo
from tournaments.models import Player, Table

pytestmark = pytest.mark.django_db

LOCALE = Path(__file__).resolve().parents[2] / "locale"
PO = LOCALE / "es" / "LC_MESSAGES" / "django.po"
# every language of the site but the source (English); a language whose catalogue is not in locale/ yet
# is skipped (tests/i18n/test_catalogues_complete.py lists it)
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != "en"]
PLACEHOLDER_LEFT = re.compile(r"%\(\w+\)[sdif]|(?<![\w%])%[sd](?!\w)|\{\{|\}\}|\{%|%\}")
WIND_CELL = re.compile(r"<td>([A-Z])</td>|<span title=\"[^\"]*\">([A-Z])</span>")


def po_of(language: str) -> Path:
    path = LOCALE / language / "LC_MESSAGES" / "django.po"
    if not path.exists():
        pytest.skip(f"no {language} catalogue in locale/ yet")
    return path


# English the issue found on Spanish pages, and values the engines keep in English
FOUND_ENGLISH = (
    "Session minutes",
    "End of time",
    "Signal minutes",
    "Red zone minutes",
    "last_hand",
    "one_more_hand",
    "double yakuman",
    "Motivo: submitted",
    "Motivo: totals entered",
    "Why: submitted",
    "Why: totals entered",
    "Classical Chinese",
)
PAGES = (
    "/t/{slug}/",
    "/t/{slug}/standings/",
    "/t/{slug}/standings/needs/",
    "/t/{slug}/players/",
    "/t/{slug}/s/1/",
    "/t/{slug}/s/1/tables/",
    "/t/{slug}/s/1/table/1/",
    "/t/{slug}/s/2/",
    "/t/{slug}/director/",
    "/t/{slug}/console/",
    "/t/{slug}/console/rules/",
    "/t/{slug}/console/staff/",
    "/t/{slug}/statistics/",
    "/t/{slug}/penalties/",
    "/t/{slug}/seating/",
    "/t/{slug}/teams/",
    "/t/{slug}/clock/",
    "/t/{slug}/exports/",
    "/t/{slug}/ema-submission/",
    "/t/{slug}/console/players/",
    "/t/{slug}/director/players/",
    "/t/{slug}/s/1/clock/",
    "/t/{slug}/screen/",
    "/t/{slug}/seating/settings/",
    "/t/{slug}/tiles/setting/",
)


def catalogue(po: Path = PO) -> list[tuple[str, str]]:
    """(msgid, msgstr) of every entry of a catalogue (plural forms: the singular), read simply."""
    entries, current, field = [], None, None
    for line in po.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        head = re.match(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[0\])?|msgstr\[\d\]) (".*")$', line)
        if head:
            field = head[1]
            if field in ("msgctxt", "msgid") and (current is None or "msgstr" in current):
                if current is not None:
                    entries.append(current)
                current = {}
            current[field] = current.get(field, "") + _unquote(head[2])
        elif line.startswith('"') and current is not None and field:
            current[field] += _unquote(line)
    if current is not None:
        entries.append(current)
    return [(e["msgid"], e.get("msgstr", e.get("msgstr[0]", ""))) for e in entries if e.get("msgid")]


def _unquote(text: str) -> str:
    return text[1:-1].replace('\\"', '"').replace("\\n", "\n").replace("\\\\", "\\")


def text_of(page: str) -> str:
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "\n", page))


def english_phrases(po: Path = PO) -> set[str]:
    """What must not appear on a page in another language: every catalogue text left untranslated, every
    English text of the catalogue long enough to be a phrase of its own (the translation differs), the fan
    and yaku names, and the English found by hand."""
    phrases = set(FOUND_ENGLISH) | set(FAN_NAMES) | set(GLOSSED_NAMES)
    for msgid, msgstr in catalogue(po):
        plain = re.sub(r"%\(\w+\)s|\{\{.*?\}\}", "", msgid).strip()
        if not msgstr.strip() or (
            msgstr != msgid and " " in plain and len(plain) >= 14 and "%" not in msgid and "<" not in msgid
        ):
            phrases.add(plain)
    return phrases


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalogue_has_no_empty_translation(language):
    assert [msgid for msgid, msgstr in catalogue(po_of(language)) if not msgstr.strip()] == []


def referee_call_pages() -> list[str]:
    """Two tables of a session being played call a referee: one has a referee on the way, the other's call
    is resolved. The pages that show them."""
    from scoring.calls import services as call_services
    from tournaments.models import Role
    from tournaments.permissions import Actor

    admin = Actor(user=get_user_model().objects.get(username="admin"), role=Role.DIRECTOR)
    tables = list(
        Table.objects.filter(session__tournament__slug=DEMO_SLUG)
        .exclude(session__status="finished")
        .order_by("session__number", "number")[:2]
    )
    urls = []
    for i, table in enumerate(tables):
        call, _ = call_services.call_create(
            table=table, actor=Actor(role="table", table_id=table.pk), reason="wrong_claim"
        )
        call_services.call_acknowledge(call=call, actor=admin)
        if i:
            call_services.call_resolve(call=call, actor=admin, note="Nota")
        s, n = table.session.number, table.number
        urls += [
            f"/t/{DEMO_SLUG}/calls/{call.pk}/",
            f"/table/{table.private_key}/",
            f"/t/{DEMO_SLUG}/s/{s}/clock/",
        ]
        urls += [
            f"/t/{DEMO_SLUG}/s/{s}/table/{n}/",
            f"/t/{DEMO_SLUG}/s/{s}/tables/",
            f"/t/{DEMO_SLUG}/director/",
        ]
    assert urls, "the demo has a session being played"
    return urls


def wind_faults(language: str, page: str) -> list[str]:
    """Wind letters of another language on a page in ``language`` (the English letters it does not use)."""
    with translation.override(language):
        own = {translation.pgettext("wind letter", letter) for letter in "ESWN"}
    shown = {a or b for a, b in WIND_CELL.findall(page)}
    return sorted(shown & (set("ESWN") - own)) if own != set("ESWN") else []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_in_every_language_shows_no_english_and_its_own_winds(client, language):
    phrases = english_phrases(po_of(language))
    load_demo()
    client.force_login(get_user_model().objects.get(username="admin"))
    with translation.override(language):  # a yaku's romaji stays, followed by its gloss
        glossed = {name: translation.gettext(name) for name in GLOSSED_NAMES}
    player = Player.objects.filter(registrations__tournament__slug=DEMO_SLUG).first()
    urls = [page.format(slug=slug) for slug in (DEMO_SLUG, RIICHI_SLUG, MAYON_SLUG) for page in PAGES]
    urls += [f"/table/{t.private_key}/" for t in Table.objects.filter(session__number=1, number=1)]
    urls += [
        f"/me/{player.private_key}/",
        f"/t/{DEMO_SLUG}/p/p1/",
        f"/t/{RIICHI_SLUG}/p/p1/",
        "/",
        "/ranking/",
    ]
    urls += [
        "/notable-hands/",
        "/ranking/imports/",
        f"/t/{DEMO_SLUG}/s/2/table/8/",
        f"/t/{MAYON_SLUG}/s/1/table/1/",
    ]
    urls += referee_call_pages()
    found: dict[str, list[str]] = {}
    for url in urls:
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
        if response.status_code == 404:
            continue
        assert response.status_code == 200, url
        page = response.content.decode()
        assert f'<html lang="{language}"' in page, url
        if winds := wind_faults(language, page):
            found.setdefault(url, []).append(f"wind letters of another language: {winds}")
        text = text_of(page)
        if left := PLACEHOLDER_LEFT.findall(text):
            found.setdefault(url, []).append(f"placeholders left: {left[:3]}")
        for line in filter(None, (line.strip() for line in text.splitlines())):
            hits = [p for p in phrases if p in line and re.search(rf"(?<!\w){re.escape(p)}(?!\w)", line)]
            hits = [p for p in hits if not (p in glossed and glossed[p] in line)]  # "Tanyao (todo simple)"
            if hits:
                found.setdefault(url, []).append(f"{line[:120]} ← {hits[:3]}")
    # the exports a director downloads, in Spanish (CSV: the tables' text; the EMA file keeps its English header)
    from rankings.exports import exporter_list
    from tournaments.models import Tournament

    with translation.override(language):
        for tournament in Tournament.objects.filter(slug__in=(DEMO_SLUG, RIICHI_SLUG, MAYON_SLUG)):
            for exporter in exporter_list(tournament=tournament):
                if "csv" not in exporter.formats or exporter.identifier == "ema-results":
                    continue
                data = exporter(tournament=tournament).render("csv").data.decode("utf-8-sig")
                for line in data.splitlines()[:200]:
                    hits = [
                        p for p in phrases if p in line and re.search(rf"(?<!\w){re.escape(p)}(?!\w)", line)
                    ]
                    if hits:
                        found.setdefault(f"{tournament.slug} {exporter.identifier}.csv", []).append(
                            line[:120]
                        )
    assert not found, "\n".join(f"{url}: {lines[:5]}" for url, lines in found.items())
    if language == "es":
        spanish_words(client)


def spanish_words(client):
    # the seat winds: E, S, O, N in Spanish (one demo load for both checks: it is the slow part)
    html_es = client.get(f"/t/{DEMO_SLUG}/s/1/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    html_en = client.get(f"/t/{DEMO_SLUG}/s/1/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<td>W</td>" in html_en and "<td>W</td>" not in html_es and "<td>O</td>" in html_es
    # one word, one meaning: the rank is "Puesto", the seat "Asiento"; the staff "Personal", the teams "Equipos"
    player = client.get(f"/t/{DEMO_SLUG}/p/p1/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "<dt>Puesto</dt>" in player and "<th>Asiento</th>" in player
    console = client.get(f"/t/{DEMO_SLUG}/console/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert ">Personal<" in console and ">Equipo<" not in console


def test_every_fan_yaku_and_item_name_has_its_spanish_name():
    """The names the engines give a hand's items, each with a Spanish name in the catalogue: the MCR fan
    as the Green Book's Spanish translation names them, Salamanca's as its rulebook does."""
    from scoring.rules.tiles import classical, salamanca

    with translation.override("es"):
        spanish = {name: translation.gettext(name) for name in (*FAN_NAMES, *GLOSSED_NAMES)}
        spanish |= {
            name: translation.gettext(name) for name in (*salamanca.NAME_TEXTS, *classical.NAME_TEXTS)
        }
    same = {n for n, es in spanish.items() if n == es} - {"Mah jong"}
    assert same == set()
    assert len(FAN_NAMES) == 81
    assert spanish["Pure Straight"] == "Escalera Pura" and spanish["Concealed Hand"] == "Mano Oculta"
    assert spanish["All Chows"] == "Todo Chow Sin Honores" and spanish["Robbing The Kong"] == "Robo de Kong"
    assert spanish["Concealed hand (mano secreta)"] == "Mano secreta"
    # every name the Salamanca table gives is marked
    assert set(salamanca.NAME_TEXTS) == {name for name, _fan in salamanca.NAMES.values()}


def test_every_classical_item_name_is_marked():
    """The names written in the classical adapter (items, limit hands, the sets' names) are all in its
    marked list, so none reaches a Spanish page in English."""
    from scoring.rules.tiles import classical

    source = Path(classical.__file__).read_text(encoding="utf-8")
    body = source[source.index("def _set_name") :]
    written = set(re.findall(r'Item\("([^"]+)"', body))
    written |= set(re.findall(r'return "([^"]+)"', body))
    written |= set(re.findall(r'\(\d+, \d+, "([^"]+)"\)', body))
    written |= set(re.findall(r'\("\w+", "([^"]+)"\)', body))
    written |= {
        f"{kind} of {what}, {state}"
        for kind in ("Pung", "Kong")
        for what in ("honours", "terminals", "simples")
        for state in ("concealed", "exposed")
    }
    assert len(written) > 40 and written - set(classical.NAME_TEXTS) == set()


def test_values_and_history_notes_in_spanish():
    from tournaments import presenters as words

    with translation.override("es"):
        assert words.value_label("double yakuman") == "doble yakuman"
        assert words.value_label("320 points (limit)") == "320 puntos (límite)"
        assert words.value_label("3 han 30 fu (mangan)") == "3 han 30 fu (mangan)"
        assert words.history_reason("submitted") == "entregada"
        assert words.history_reason("hand 3 added: late entry") == "mano 3 añadida: late entry"
        assert [words.wind_letter(w) for w in "ESWN"] == ["E", "S", "O", "N"]
    assert [words.wind_letter(w) for w in "ESWN"] == ["E", "S", "W", "N"]
