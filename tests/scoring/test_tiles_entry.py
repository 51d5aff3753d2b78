"""Hands entered with their tiles: the computed value fills an unclaimed hand, a differing claim is held
until a referee resolves it, the tournament's setting, and the value preview of the tile picker."""

from __future__ import annotations

import pytest

from scoring.models import Hand
from scoring.tiles import services as tiles_services
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

KEYS = ("p1", "p2", "p3", "p4")
# Robbing the Kong 8 + Dragon Pung 2 + Short Straight 1 = 11 fan
MCR_TILES = {
    "hand": "234m567m99p",
    "melds": ["pung 7z", "chow 345s"],
    "winning_tile": "4m",
    "robbing_kong": True,
}


def seat(tournament, *tables, session=1):
    regs = {r.key: r for r in tournament.registrations.all()}
    return tournament_services.session_seat(
        session=tournament.sessions.get(number=session), tables=[[regs[k] for k in t] for t in tables]
    )


@pytest.fixture
def table(tournament):
    return seat(tournament, KEYS)[0]


def url(table, tail=""):
    return f"/api/tables/{table.pk}/{tail}"


def add(client, table, version, **hand):
    return client.post(url(table, "result/hands/"), {"version": version, **hand}, format="json")


def test_tiles_fill_an_unclaimed_hand(api_as, scorer, table):
    client = api_as(scorer)
    response = add(client, table, 1, result="win", winner="p1", discarder="p3", tiles=MCR_TILES)
    assert response.status_code == 201, response.content
    hand = response.json()["hands"][0]
    assert hand["hand"]["fan"] == 11
    assert hand["hand"]["tiles"] == MCR_TILES
    assert hand["valuation"]["status"] == "filled"
    items = {i["name"]: i["value"] for i in hand["valuation"]["wins"][0]["computed"]["items"]}
    assert items == {"Robbing The Kong": 8, "Dragon Pung": 2, "Short Straight": 1}
    # 11 fan on p3's discard: p1 +24+11, p3 -19, the others -8
    assert hand["after"]["scores"] == [35, -8, -19, -8]


def test_an_agreeing_claim_is_kept(api_as, scorer, table):
    response = add(
        api_as(scorer), table, 1, result="win", winner="p1", discarder="p3", fan=11, tiles=MCR_TILES
    )
    assert response.json()["hands"][0]["valuation"]["status"] == "agreed"


def test_a_differing_claim_is_held_until_a_referee_accepts_it_with_a_reason(api_as, scorer, referee, table):
    client = api_as(scorer)
    response = add(client, table, 1, result="win", winner="p1", discarder="p3", fan=16, tiles=MCR_TILES)
    assert response.status_code == 201
    body = response.json()
    check = body["hands"][0]["valuation"]
    assert check["status"] == "held"
    assert check["wins"][0]["claimed"] == {"fan": 16}
    assert check["wins"][0]["computed"]["claim"] == {"fan": 11}
    # the held hand blocks submission, naming the hand
    refused = client.post(url(table, "result/submit/"), {"version": body["version"]}, format="json")
    assert refused.status_code == 400
    assert "hand 1 is held" in refused.json()["detail"]
    # only a referee resolves it
    forbidden = client.post(
        url(table, "tiles/hands/1/resolve/"),
        {"version": body["version"], "decision": "claim", "reason": "x"},
        format="json",
    )
    assert forbidden.status_code == 403
    ref = api_as(referee)
    no_reason = ref.post(
        url(table, "tiles/hands/1/resolve/"), {"version": body["version"], "decision": "claim"}, format="json"
    )
    assert no_reason.status_code == 400 and "reason" in no_reason.json()
    accepted = ref.post(
        url(table, "tiles/hands/1/resolve/"),
        {"version": body["version"], "decision": "claim", "reason": "the table agreed on a flower"},
        format="json",
    )
    assert accepted.status_code == 200, accepted.content
    hand = accepted.json()["hands"][0]
    assert hand["valuation"]["status"] == "ruling"
    assert hand["hand"]["fan"] == 16 and hand["hand"]["ruling"] == "the table agreed on a flower"
    submitted = client.post(
        url(table, "result/submit/"), {"version": accepted.json()["version"]}, format="json"
    )
    assert submitted.status_code == 200, submitted.content


def test_a_referee_takes_the_computed_value(api_as, scorer, referee, table):
    body = add(
        api_as(scorer), table, 1, result="win", winner="p1", discarder="p3", fan=16, tiles=MCR_TILES
    ).json()
    taken = api_as(referee).post(
        url(table, "tiles/hands/1/resolve/"),
        {"version": body["version"], "decision": "computed"},
        format="json",
    )
    assert taken.status_code == 200, taken.content
    hand = taken.json()["hands"][0]
    assert hand["hand"]["fan"] == 11 and hand["valuation"]["status"] == "computed"
    assert hand["after"]["scores"] == [35, -8, -19, -8]
    history = Hand.history.filter(number=1).order_by("-history_date").first()
    assert "value taken from the tiles" in history.history_change_reason


def test_bad_tiles_name_the_field(api_as, scorer, table):
    response = add(
        api_as(scorer),
        table,
        1,
        result="win",
        winner="p1",
        discarder="p3",
        tiles={"hand": "234m567m9p", "melds": ["pung 7z", "chow 345s"], "winning_tile": "4m"},
    )
    assert response.status_code == 400
    assert response.json()["tiles.hand"] == ["hand has 7 tiles, a win with 2 melds needs 8"]


def test_the_setting_off_refuses_tiles_and_required_demands_them(api_as, scorer, tournament, table):
    client = api_as(scorer)
    tiles_services.tiles_mode_set(tournament=tournament, mode="off")
    refused = add(client, table, 1, result="win", winner="p1", discarder="p3", tiles=MCR_TILES)
    assert refused.status_code == 400 and "setting 'tiles' is off" in refused.json()["tiles"][0]
    tiles_services.tiles_mode_set(tournament=tournament, mode="required")
    refused = add(client, table, 1, result="win", winner="p1", discarder="p3", fan=8)
    assert refused.status_code == 400 and "needs the tiles of every win" in refused.json()["tiles"][0]
    assert add(client, table, 1, result="draw").status_code == 201


def test_riichi_tiles_use_the_dealer_and_counters_of_the_game(api_as, make_tournament, make_user):
    tournament = make_tournament("riichi-tiles", ruleset="ema-riichi-2016")
    user = make_user("riichi-scorer")
    tournament_services.role_grant(tournament=tournament, user=user, role="scorer")
    table = seat(tournament, KEYS)[0]
    client = api_as(user)
    # hand 1: p2 (South) wins by tsumo: the deal passes to p2
    first = add(client, table, 1, result="tsumo", winner="p2", han=1, fu=30, riichi=[])
    assert first.status_code == 201, first.content
    # hand 2: p2 is now the dealer and wins a ron with pinfu + tanyao + riichi: 3 han 30 fu, dealer 5800
    tiles = {"hand": "234m567m234p678s55p", "winning_tile": "4p"}
    second = add(
        client, table, 2, result="ron", loser="p4", winners=[{"player": "p2", "tiles": tiles}], riichi=["p2"]
    )
    assert second.status_code == 201, second.content
    hand = second.json()["hands"][1]
    assert hand["hand"]["winners"][0] == {"player": "p2", "han": 3, "fu": 30, "tiles": tiles}
    computed = hand["valuation"]["wins"][0]["computed"]
    assert computed["payment"]["ron"] == 5800
    assert {i["name"] for i in computed["items"]} == {"Riichi", "Pinfu", "Tanyao"}


def test_the_value_preview_saves_nothing(api_as, scorer, table):
    response = api_as(scorer).post(
        url(table, "tiles/value/"),
        {"result": "win", "winner": "p1", "discarder": "p3", "fan": 8, "tiles": MCR_TILES},
        format="json",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["number"] == 1 and body["status"] == "held"
    win = body["wins"][0]
    assert win["winner"] == "p1" and win["claimed"] == {"fan": 8} and win["agrees"] is False
    assert win["computed"]["summary"] == "11 fan"
    assert not Hand.objects.exists()


def test_the_value_preview_refuses_below_the_minimum_with_the_fan_named(api_as, scorer, table):
    response = api_as(scorer).post(
        url(table, "tiles/value/"),
        {"result": "win", "winner": "p1", "discarder": None, "tiles": {**MCR_TILES, "robbing_kong": False}},
        format="json",
    )
    assert response.status_code == 400
    assert "below the MCR minimum of 8" in response.json()["tiles.hand"][0]
    assert "Dragon Pung 2" in response.json()["tiles.hand"][0]
    # in Spanish, the fan named as the Green Book's Spanish translation names them
    spanish = api_as(scorer).post(
        url(table, "tiles/value/"),
        {"result": "win", "winner": "p1", "discarder": None, "tiles": {**MCR_TILES, "robbing_kong": False}},
        format="json",
        HTTP_ACCEPT_LANGUAGE="es",
    )
    message = spanish.json()["tiles.hand"][0]
    assert "Pung de Dragón 2" in message and "Dragon Pung" not in message  # the Spanish Green Book, fan 59


def test_the_value_preview_needs_access(api, table):
    response = api.post(url(table, "tiles/value/"), {"result": "win", "tiles": MCR_TILES}, format="json")
    assert response.status_code in (403, 404)


def test_a_corrected_earlier_hand_values_the_later_tiles_again(api_as, referee, make_tournament):
    """Salamanca: the pung of the own wind counts only for the player whose wind it is, and the winds
    follow the dealer, which follows who won the earlier hands."""
    tournament = make_tournament("salamanca-tiles", ruleset="salamanca")
    tournament_services.role_grant(tournament=tournament, user=referee, role="referee")
    table = seat(tournament, KEYS)[0]
    client = api_as(referee)
    # hand 1: p2 wins: the deal passes to p2, so p3 sits South in hand 2
    assert add(client, table, 1, result="win", winner="p2", discarder="p1", fan=2).status_code == 201
    # hand 2: p3 wins with a pung of South (2z): own wind 1 + concealed 1 + two pungs of fives 1 + single wait 1
    tiles = {"hand": "555m555p234s222z99m", "winning_tile": "9m"}
    second = add(client, table, 2, result="win", winner="p3", discarder="p1", tiles=tiles)
    assert second.json()["hands"][1]["hand"]["fan"] == 4
    # hand 1 corrected: p1, the dealer, won it: the deal stays, p3 is West in hand 2 and the pung is worth nothing
    fixed = client.put(
        f"/api/tables/{table.pk}/result/hands/1/",
        {
            "version": 3,
            "reason": "wrong winner",
            "result": "win",
            "winner": "p1",
            "discarder": "p2",
            "fan": 2,
        },
        format="json",
    )
    assert fixed.status_code == 200, fixed.content
    hand = fixed.json()["hands"][1]
    assert hand["hand"]["fan"] == 3 and hand["valuation"]["status"] == "filled"


def test_the_picker_preview_scores_kong_upon_kong_from_the_kongs_in_a_row_field(
    client, make_tournament, referee
):
    """Classical §85 XVIII: the form's "kongs in a row" with the replacement-tile flag gives the limit."""
    tournament = make_tournament("classical-tiles", ruleset="classical")
    tournament_services.role_grant(tournament=tournament, user=referee, role="referee")
    table = seat(tournament, KEYS)[0]
    client.force_login(referee)
    preview = f"/t/{tournament.slug}/s/1/table/{table.number}/tiles/value/"
    fields = {
        "result": "win",
        "winner": "0",
        "tiles_hand": "234m567p99s",
        "tiles_melds": "kong 8m, concealed_kong 3s",
        "tiles_winning": "9s",
        "tiles_flags": ["replacement_tile"],
        "value1": "0",
        "value2": "0",
        "value3": "0",
        "version": "1",
    }
    one = client.post(preview, fields).content.decode()
    assert "Replacement tile" in one and "72" in one and "XVIII" not in one
    two = client.post(preview, {**fields, "tiles_kongs_in_a_row": "2"}).content.decode()
    assert "XVIII Kong upon kong" in two and "500" in two
    # more kongs in a row than the melds hold: the fragment names the problem, nothing is saved
    three = client.post(preview, {**fields, "tiles_kongs_in_a_row": "3"}).content.decode()
    assert "melds hold 2 kong" in three
    assert not Hand.objects.exists()
    # the hand form of the page offers the field
    page = client.get(f"/t/{tournament.slug}/s/1/table/{table.number}/")
    assert page.status_code == 200 and 'name="tiles_kongs_in_a_row"' in page.content.decode()


@pytest.mark.parametrize(
    ("ruleset", "shown"),
    [("ema-riichi-2008", ("Renhou (yakuman)", "32000")), ("ema-riichi-2025", ("Renhou", "8000"))],
)
def test_the_riichi_picker_offers_renhou_and_values_it(
    client, api_as, make_tournament, referee, ruleset, shown
):
    """Renhō, a win on a discard before one's first draw: the tile picker's "How the hand was won" has
    it; a yakuman under 2008 (002 §4.2.5), a mangan of five han under 2025 (§4.2.4). Saving the hand
    records the flag with the tiles and the value it gives."""
    tournament = make_tournament(f"renhou-{ruleset}", ruleset=ruleset)
    tournament_services.role_grant(tournament=tournament, user=referee, role="referee")
    table = seat(tournament, KEYS)[0]
    client.force_login(referee)
    page = client.get(f"/t/{tournament.slug}/s/1/table/{table.number}/").content.decode()
    assert 'value="first_turn_discard"' in page and "Won on a discard before the first draw (renhō)" in page
    fields = {
        "result": "ron",
        "loser": "2",
        "winner": "1",
        "tiles_hand": "123m456p789s24s99m3s",
        "tiles_winning": "3s",
        "tiles_flags": ["first_turn_discard"],
        "version": "1",
    }
    preview = client.post(f"/t/{tournament.slug}/s/1/table/{table.number}/tiles/value/", fields)
    text = preview.content.decode()
    assert all(part in text for part in shown), text
    assert not Hand.objects.exists()
    # without the flag the same tiles have no yaku
    bare = client.post(
        f"/t/{tournament.slug}/s/1/table/{table.number}/tiles/value/", {**fields, "tiles_flags": []}
    )
    assert "no yaku" in bare.content.decode()
    # saved, the hand keeps the flag with its tiles and the value they give
    tiles = {"hand": "123m456p789s24s99m3s", "winning_tile": "3s", "first_turn_discard": True}
    saved = add(
        api_as(referee),
        table,
        1,
        result="ron",
        loser="p3",
        winners=[{"player": "p2", "tiles": tiles}],
        riichi=[],
    )
    assert saved.status_code == 201, saved.content
    winner = saved.json()["hands"][0]["hand"]["winners"][0]
    assert winner == {"player": "p2", "han": 13 if ruleset == "ema-riichi-2008" else 5, "tiles": tiles}
    # in Spanish the flag keeps its name
    client.cookies["django_language"] = "es"
    page_es = client.get(f"/t/{tournament.slug}/s/1/table/{table.number}/", HTTP_ACCEPT_LANGUAGE="es")
    assert "Ganada con un descarte antes del primer robo (renhō)" in page_es.content.decode()


def test_two_yaku_from_five_counters_are_checked_on_the_tiles(api_as, make_tournament, make_user):
    """002 §3.4.11: "En caso de haber cinco o más contadores sobre la mesa, un mínimo de dos yakus son
    necesarios para declarar una victoria." After five draws (five counters) under ema-riichi-2008, a
    win whose tiles give riichi and one dora (2 han, one yaku) is refused, naming the rule; a win with
    riichi and pinfu is taken."""
    tournament = make_tournament("two-yaku-2008", ruleset="ema-riichi-2008")
    user = make_user("two-yaku-scorer")
    tournament_services.role_grant(tournament=tournament, user=user, role="scorer")
    table = seat(tournament, KEYS)[0]
    client = api_as(user)
    for number in range(1, 6):
        drawn = add(client, table, number, result="draw", tenpai=["p1"], riichi=[])
        assert drawn.status_code == 201, drawn.content
    one_yaku = {"hand": "123m456p789s24s99m3s", "winning_tile": "3s", "dora_indicators": ["1m"]}
    refused = add(
        client,
        table,
        6,
        result="ron",
        loser="p3",
        winners=[{"player": "p2", "tiles": one_yaku}],
        riichi=["p2"],
    )
    assert refused.status_code == 400, refused.content
    assert "§3.4.11" in str(refused.json()) and "5 counters" in str(refused.json())
    two_yaku = {"hand": "234m567m234p678s55p", "winning_tile": "4p"}  # riichi, pinfu, tanyao
    taken = add(
        client,
        table,
        6,
        result="ron",
        loser="p3",
        winners=[{"player": "p2", "tiles": two_yaku}],
        riichi=["p2"],
    )
    assert taken.status_code == 201, taken.content
    assert taken.json()["hands"][5]["hand"]["winners"][0]["han"] == 3


def resolve_page(client, table, lang="en") -> str:
    tournament = table.session.tournament
    path = f"/t/{tournament.slug}/s/{table.session.number}/table/{table.number}/hand/1/resolve/"
    response = client.get(path, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200, path
    return response.content.decode()


def test_the_resolve_page_states_the_claim_and_the_whole_hand(client, api_as, scorer, referee, table):
    """The claim in its own units (no yakuman that nobody claimed), the melds beside the concealed tiles,
    and the fan in the reader's language."""
    add(api_as(scorer), table, 1, result="win", winner="p1", discarder="p3", fan=16, tiles=MCR_TILES)
    client.force_login(referee)
    page = resolve_page(client, table)
    assert "<strong>16 fan</strong>" in page and "yakuman" not in page
    assert "234m567m99p [pung 7z] [chow 345s]" in page
    spanish = resolve_page(client, table, "es")
    assert "Robo de Kong" in spanish and "Robbing The Kong" not in spanish


def test_the_resolve_page_of_a_riichi_claim(client, api_as, make_tournament, make_user):
    tournament = make_tournament("riichi-resolve", ruleset="ema-riichi-2016")
    scorer, referee = make_user("r-scorer"), make_user("r-referee")
    tournament_services.role_grant(tournament=tournament, user=scorer, role="scorer")
    tournament_services.role_grant(tournament=tournament, user=referee, role="referee")
    table = seat(tournament, KEYS)[0]
    tiles = {"hand": "234m567m234p678s55p", "winning_tile": "4p"}
    winners = [{"player": "p1", "han": 2, "fu": 30, "tiles": tiles}]
    held = add(api_as(scorer), table, 1, result="ron", loser="p4", winners=winners, riichi=["p1"])
    assert held.json()["hands"][0]["valuation"]["status"] == "held", held.content
    client.force_login(referee)
    page = resolve_page(client, table)
    assert "<strong>2 han 30 fu</strong>" in page and "yakuman" not in page


# Green Book, Appendix 1, line 842: Seven Pairs "may combine with Fully Concealed if Self-Drawn"
SEVEN_PAIRS = {"hand": "1133m5577p2299s11z", "winning_tile": "1z"}


def test_a_self_drawn_seven_pairs_is_fully_concealed_on_the_api_and_the_table_page(
    api_as, client, scorer, tournament, table
):
    """Seven Pairs 24 + Fully Concealed 4 = 28 fan, not 25 (Self-Drawn 1): the API fills it, the table
    page's value preview shows it, and each other player pays 8 + 28."""
    api = api_as(scorer)
    response = add(api, table, 1, result="win", winner="p2", discarder=None, tiles=SEVEN_PAIRS)
    assert response.status_code == 201, response.content
    hand = response.json()["hands"][0]
    assert hand["hand"]["fan"] == 28
    items = {i["name"]: i["value"] for i in hand["valuation"]["wins"][0]["computed"]["items"]}
    assert items == {"Seven Pairs": 24, "Fully Concealed Hand": 4}
    assert hand["after"]["scores"] == [-36, 108, -36, -36]
    # a claim of 25, the Chinese rules' value, differs from the tiles: held for a referee
    held = add(api, table, 2, result="win", winner="p2", discarder=None, fan=25, tiles=SEVEN_PAIRS)
    assert held.json()["hands"][1]["valuation"]["status"] == "held"
    # the tile picker of the table page values it alike
    client.force_login(scorer)
    preview = client.post(
        f"/t/{tournament.slug}/s/1/table/{table.number}/tiles/value/",
        {
            "result": "win",
            "winner": "1",
            "discarder": "self",
            "tiles_hand": "1133m5577p2299s11z",
            "tiles_winning": "1z",
            "version": "1",
        },
    )
    text = preview.content.decode()
    assert preview.status_code == 200 and "28 fan" in text and "Fully Concealed" in text, text


def test_a_first_turn_win_on_a_discard_is_entered_as_renhou_under_2008(api_as, make_tournament, referee):
    """002 line 594: "Bendición del Hombre RENHO Ganar con un descarte el primer turno ininterrumpido". The
    table's first hand, p2 (South) wins on p3's discard with the "won on the first turn" flag: from the
    tiles, a yakuman (32,000) under the 2008 preset; entered by value, the 13 han ron pays the same; the
    table's scores, its hands and the archive say so."""
    from rankings.archive import archive_export

    tournament = make_tournament("renhou-first-turn", ruleset="ema-riichi-2008")
    tournament_services.role_grant(tournament=tournament, user=referee, role="referee")
    table = seat(tournament, KEYS)[0]
    client = api_as(referee)
    tiles = {"hand": "123m456p789s24s99m3s", "winning_tile": "3s", "first_turn": True}
    saved = add(
        client, table, 1, result="ron", loser="p3", winners=[{"player": "p2", "tiles": tiles}], riichi=[]
    )
    assert saved.status_code == 201, saved.content
    hand = saved.json()["hands"][0]
    assert hand["hand"]["winners"][0]["han"] == 13
    assert hand["after"]["scores"] == [30000, 62000, -2000, 30000]
    by_value = add(
        client, table, 2, result="ron", loser="p3", winners=[{"player": "p2", "han": 13}], riichi=[]
    )
    assert by_value.status_code == 201, by_value.content
    # p2 deals the second hand: a dealer's yakuman, 48,000
    assert by_value.json()["hands"][1]["after"]["scores"][1] == 62000 + 48000
    document = archive_export(tournament=tournament)
    first = document["sessions"][0]["tables"][0]["hands"][0]
    assert first["winners"][0]["tiles"] == tiles
