"""Every combination sentence and example of the Green Book's fan list, through the MCR adapter.

The text: the EMA's *Mahjong Competition Rules* (Green Book), Appendix 1, "The Various Fan and their Relevant
Points, With Examples" (English, mcr-competition-rules-en.txt, lines 705-1137, cited as "line N"). The
English text prints the example hands as pictures only; the Spanish Green Book (mcr-green-book-es.txt,
Appendix 1 from line 1343, cited as "ES N") prints them in a keyboard tile font, copied here as printed:
q-o are the 1-9 of characters, a-l the 1-9 of dots, z-. the 1-9 of bamboo, 1-4 the winds East, South, West,
North and 5, 6, 7 the white, green and red dragons.

Each case is one sentence or one example: the hand as the text shows it, how it was won where the text says
(or where a sentence needs it: a claimed set, a win from the wall), the fan the text names ("combined
with"), and the fan that only come from how the hand was won, which the text's lists leave out (Appendix 1,
note 2, line 708: the examples show "only the shown tile examples"): concealed pungs, Concealed Hand, the
waits, the winds of the seat and the round. The adapter's fan must be exactly the two together. Where the
text contradicts itself the case says which sentence the product follows (see
docs/rules-notes-mcr-salamanca-classical.md)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from scoring.rules.tiles import WinContext
from scoring.rules.tiles import mcr as mcr_tiles
from scoring.rules.tiles.notation import parse_tiles

# Appendix 1, the points of each fan as its heading gives them (line 713 on), named as the library names them
POINTS = {
    **dict.fromkeys(
        (
            "Big Four Winds",
            "Big Three Dragons",
            "All Green",
            "Nine Gates",
            "Four Kongs",
            "Seven Shifted Pairs",
            "Thirteen Orphans",
        ),
        88,
    ),
    **dict.fromkeys(
        (
            "All Terminals",
            "Little Four Winds",
            "Little Three Dragons",
            "All Honors",
            "Four Concealed Pungs",
            "Pure Terminal Chows",
        ),
        64,
    ),
    **dict.fromkeys(("Quadruple Chow", "Four Pure Shifted Pungs"), 48),
    **dict.fromkeys(("Four Pure Shifted Chows", "Three Kongs", "All Terminals and Honors"), 32),
    **dict.fromkeys(
        (
            "Seven Pairs",
            "Greater Honors and Knitted Tiles",
            "All Even Pungs",
            "Full Flush",
            "Pure Triple Chow",
            "Pure Shifted Pungs",
            "Upper Tiles",
            "Middle Tiles",
            "Lower Tiles",
        ),
        24,
    ),
    **dict.fromkeys(
        (
            "Pure Straight",
            "Three-Suited Terminal Chows",
            "Pure Shifted Chows",
            "All Five",
            "Triple Pung",
            "Three Concealed Pungs",
        ),
        16,
    ),
    **dict.fromkeys(
        (
            "Lesser Honors and Knitted Tiles",
            "Knitted Straight",
            "Upper Four",
            "Lower Four",
            "Big Three Winds",
        ),
        12,
    ),
    **dict.fromkeys(
        (
            "Mixed Straight",
            "Reversible Tiles",
            "Mixed Triple Chow",
            "Mixed Shifted Pungs",
            "Chicken Hand",
            "Last Tile Draw",
            "Last Tile Claim",
            "Out with Replacement Tile",
            "Robbing The Kong",
            "Two Concealed Kongs",
        ),
        8,
    ),
    **dict.fromkeys(
        ("All Pungs", "Half Flush", "Mixed Shifted Chows", "All Types", "Melded Hand", "Two Dragons Pungs"), 6
    ),
    **dict.fromkeys(("Outside Hand", "Fully Concealed Hand", "Two Melded Kongs", "Last Tile"), 4),
    **dict.fromkeys(
        (
            "Dragon Pung",
            "Prevalent Wind",
            "Seat Wind",
            "Concealed Hand",
            "All Chows",
            "Tile Hog",
            "Double Pung",
            "Two Concealed Pungs",
            "Concealed Kong",
            "All Simples",
        ),
        2,
    ),
    **dict.fromkeys(
        (
            "Pure Double Chow",
            "Mixed Double Chow",
            "Short Straight",
            "Two Terminal Chows",
            "Pung of Terminals or Honors",
            "Melded Kong",
            "One Voided Suit",
            "No Honors",
            "Edge Wait",
            "Closed Wait",
            "Single Wait",
            "Self-Drawn",
            "Flower Tiles",
        ),
        1,
    ),
}
# the fan that come from how a hand was won, not from its tiles: the text's lists of examples leave them out
HOW_WON = frozenset(
    {
        "Four Concealed Pungs",
        "Three Concealed Pungs",
        "Two Concealed Pungs",
        "Concealed Hand",
        "Fully Concealed Hand",
        "Self-Drawn",
        "Melded Hand",
        "Edge Wait",
        "Closed Wait",
        "Single Wait",
        "Prevalent Wind",
        "Seat Wind",
        "Melded Kong",
        "Concealed Kong",
    }
)
FONT = {
    **{c: f"{n}m" for n, c in enumerate("qwertyuio", 1)},
    **{c: f"{n}p" for n, c in enumerate("asdfghjkl", 1)},
    **{c: f"{n}s" for n, c in enumerate("zxcvbnm,.", 1)},
    **{str(n): f"{n}z" for n in range(1, 8)},
}


def fan(text: str) -> dict[str, int]:
    """ "Double Pung x2; All Simples" -> {"Double Pung": 4, "All Simples": 2}."""
    out: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        name, _, times = part.partition(" x")
        out[name] = POINTS[name] * int(times or 1)
    return out


@dataclass(frozen=True)
class Case:
    line: str  # the English text's line(s)
    es: int  # the Spanish text's line printing the hand
    says: str  # what the English text says
    printed: str  # the hand as the Spanish text prints it
    how: str  # how it was won: exposed=1,2 (sets claimed) win=x self seat=N round=N flags=a,b reading=...
    combined: str  # the fan the text names, with the example's own fan
    won: str = ""  # the fan of how it was won, which the text's lists leave out

    def tiles(self) -> tuple[dict, WinContext]:
        how = {item.partition("=")[0]: item.partition("=")[2] for item in self.how.split()}
        groups = [[FONT[c] for c in g] for g in how.get("reading", self.printed).replace("_", " ").split()]
        exposed = {int(i) - 1 for i in how.get("exposed", "").split(",") if i}
        hand: list[str] = []
        melds: list[str] = []
        for index, group in enumerate(groups):
            if len(group) == 4 and len(set(group)) == 1:
                melds.append(f"{'kong' if index in exposed else 'concealed_kong'} {group[0]}")
            elif index in exposed:
                melds.append(f"{'pung' if len(set(group)) == 1 else 'chow'} {''.join(group)}")
            else:
                hand.extend(group)
        tiles: dict = {"hand": "".join(hand), "melds": melds}
        tiles["winning_tile"] = FONT[how["win"]] if "win" in how else hand[-1]
        for flag in filter(None, how.get("flags", "").split(",")):
            tiles[flag] = True
        if "flowers" in how:
            tiles["flowers"] = int(how["flowers"])
        context = WinContext(
            self_drawn="self" in how, seat_wind=int(how.get("seat", 0)), round_wind=int(how.get("round", 0))
        )
        return tiles, context


def scored(case: Case) -> dict[str, int]:
    """The adapter's fan for the case (no minimum: an example shows fan, not always a legal win)."""
    tiles, context = case.tiles()
    return {i.name: i.value for i in mcr_tiles.value(parse_tiles(tiles), context, min_fan=0).items}


CASES = [
    # 1. Big Four Winds
    Case(
        "715-716",
        1366,
        "Does not combine with Big Three Winds, All Pungs, Prevalent Wind, Seat Wind, or Pung of Terminals or Honors",
        "111 222 333 444 77",
        "exposed=1,2,3,4",
        "Big Four Winds; All Honors",
        "Melded Hand",
    ),
    Case(
        "717-718",
        1366,
        "Example 1: Combined with All Honors",
        "111 222 333 444 77",
        "",
        "Big Four Winds; All Honors",
        "Four Concealed Pungs; Single Wait",
    ),
    Case(
        "719-720",
        1369,
        "Example 2: Combined with All Terminals and Honors, and Half Flush",
        "111 222 333 444 oo",
        "",
        "Big Four Winds; All Terminals and Honors; Half Flush",
        "Four Concealed Pungs; Single Wait",
    ),
    Case(
        "721-722",
        1372,
        "Example 3: Combined with Half Flush",
        "111 222 333 444 cc",
        "",
        "Big Four Winds; Half Flush",
        "Four Concealed Pungs; Single Wait",
    ),
    # 2. Big Three Dragons
    Case(
        "724-725",
        1380,
        "Does not combine with Two Dragons or Dragon Pung",
        "777 666 555 qqq ll",
        "exposed=1,2,3",
        "Big Three Dragons; All Terminals and Honors; One Voided Suit",
        "Single Wait",
    ),
    Case(
        "726-727",
        1380,
        "Example 1: Combined with All Terminals and Honors, and One Voided Suit",
        "777 666 555 qqq ll",
        "",
        "Big Three Dragons; All Terminals and Honors; One Voided Suit",
        "Four Concealed Pungs; Single Wait",
    ),
    Case(
        "728-729",
        1383,
        "Example 2: Combined with All Honors",
        "777 666 555 111 33",
        "seat=2 round=1",
        "Big Three Dragons; All Honors",
        "Four Concealed Pungs; Single Wait",
    ),
    Case(
        "730-731",
        1386,
        "Example 3: Combined with Half Flush",
        "777 666 555 vbn bb",
        "exposed=1,2,3 win=v",
        "Big Three Dragons; Half Flush",
    ),
    # 3. All Green
    Case(
        "733-734",
        1399,
        "Combines with Full Flush and Half Flush (Half Flush: with the green dragon)",
        "xcv xcv xcv 666 nn",
        "exposed=1,2,3",
        "All Green; Pure Triple Chow; Half Flush; Dragon Pung",
        "Single Wait",
    ),
    Case(
        "733-734",
        1402,
        "Combines with Full Flush and Half Flush (Full Flush: without the green dragon)",
        "xxx ccc vvv nnn ,,",
        "exposed=1,2,3",
        "All Green; Pure Shifted Pungs; Full Flush; All Pungs; All Simples",
    ),
    Case(
        "735-736",
        1395,
        "Example 1: Combined with Seven Pairs, and Half Flush (on a discard)",
        "xx cc vv nn ,, ,, 66",
        "",
        "All Green; Seven Pairs; Half Flush; Tile Hog",
    ),
    Case(
        "735-736",
        1395,
        "Example 1: (Combines with Fully Concealed if Self-Drawn.)",
        "xx cc vv nn ,, ,, 66",
        "self",
        "All Green; Seven Pairs; Half Flush; Tile Hog; Fully Concealed Hand",
    ),
    Case(
        "737-738",
        1399,
        "Example 2: Combined with Pure Triple Chow, Half Flush, and Dragon Pung",
        "xcv xcv xcv 666 nn",
        "exposed=1,2,4",
        "All Green; Pure Triple Chow; Half Flush; Dragon Pung",
        "Single Wait",
    ),
    Case(
        "739-740",
        1402,
        "Example 3: Combined with Pure Shifted Pungs, Full Flush, All Pungs, and All Simples",
        "xxx ccc vvv nnn ,,",
        "exposed=1,2,3,4",
        "All Green; Pure Shifted Pungs; Full Flush; All Pungs; All Simples",
        "Melded Hand",
    ),
    # 4. Nine Gates
    Case(
        "742-743",
        1412,
        "Does not combine with Full Flush, Concealed hand, and Pung of Terminals or Honors (won on the 5: 111 234 55 678 999)",
        "qqqwertyuiooo t",
        "",
        "Nine Gates",
        "Two Concealed Pungs",
    ),
    Case(
        "744",
        1412,
        "(Combines with Fully Concealed if Self-Drawn.)",
        "qqqwertyuiooo o",
        "self",
        "Nine Gates; Pure Straight; Tile Hog; Fully Concealed Hand",
    ),
    Case(
        "745-746",
        1412,
        "Example: Combined with Pure Straight, and Tile Hog",
        "qqqwertyuiooo o",
        "",
        "Nine Gates; Pure Straight; Tile Hog",
    ),
    # 5. Four Kongs
    Case(
        "748-749",
        1420,
        "Points for concealed pungs may be added. Does not combine with Single Wait",
        "xxxx tttt jjjj 1111 77",
        "seat=2 round=1",
        "Four Kongs; All Types; Pung of Terminals or Honors",
        "Four Concealed Pungs",
    ),
    Case(
        "750-751",
        1420,
        "Example 1: Combined with All Types, and Pung of Terminals or Honors",
        "xxxx tttt jjjj 1111 77",
        "exposed=1,2,3,4 seat=2 round=1",
        "Four Kongs; All Types; Pung of Terminals or Honors",
        "Melded Hand",
    ),
    Case(
        "752-754",
        1423,
        "Example 2: Combined with Lower Four, Mixed Shifted Pungs, Double Pung, and Pung of Terminals or Honors (times two)",
        "qqqq xxxx dddd zzzz rr",
        "exposed=1,2,3,4",
        "Four Kongs; Lower Four; Mixed Shifted Pungs; Double Pung; Pung of Terminals or Honors x2",
        "Melded Hand",
    ),
    Case(
        "755-756",
        1427,
        "Example 3: Combined with Big Three Dragons, and All Honors",
        "7777 6666 5555 4444 11",
        "exposed=1,2,3,4",
        "Four Kongs; Big Three Dragons; All Honors",
        "Melded Hand",
    ),
    # 6. Seven Shifted Pairs
    Case(
        "758-760",
        1438,
        "Does not combine with Full Flush, Concealed hand, or Single Wait",
        "ss dd ff gg hh jj kk",
        "",
        "Seven Shifted Pairs; All Simples",
    ),
    Case(
        "759-760",
        1438,
        "(Combines with Fully Concealed if Self-Drawn)",
        "ss dd ff gg hh jj kk",
        "self",
        "Seven Shifted Pairs; All Simples; Fully Concealed Hand",
    ),
    Case(
        "761-762",
        1438,
        "Example: Combined with All Simples",
        "ss dd ff gg hh jj kk",
        "",
        "Seven Shifted Pairs; All Simples",
    ),
    # 7. Thirteen Orphans
    Case(
        "765-766",
        1449,
        "Does not combine with All Types, Concealed Hand, or Single Wait",
        "al z. qo 765 1234 4",
        "",
        "Thirteen Orphans",
    ),
    Case(
        "765-766",
        1449,
        "(Combines with Fully Concealed if Self-Drawn)",
        "al z. qo 765 1234 4",
        "self",
        "Thirteen Orphans; Fully Concealed Hand",
    ),
    # 8. All Terminals
    Case(
        "770-772",
        1459,
        "Does not combine with All Pungs, Outside Hand, Pung of Terminals or Honors or No Honors. Can combine with Double Pung",
        "qqq zzz ooo ... aa",
        "exposed=1,2,3,4",
        "All Terminals; Double Pung x2",
        "Melded Hand",
    ),
    Case(
        "771-772",
        1761,
        "Can combine with ... Triple Pung",
        "qqq aaa zzz lll ..",
        "exposed=1,2,3,4",
        "All Terminals; Triple Pung",
        "Melded Hand",
    ),
    Case(
        "773-774",
        1459,
        "Example: Combined with Double Pung (times two)",
        "qqq zzz ooo ... aa",
        "",
        "All Terminals; Double Pung x2",
        "Four Concealed Pungs; Single Wait",
    ),
    # 9. Little Four Winds
    Case(
        "776-778",
        1468,
        "Combines with Prevalent Wind and Seat Wind, but does not combine with Big Three Winds, or Pung of Terminals or Honors",
        "111 333 444 22 zxc",
        "exposed=1,2,3 win=c",
        "Little Four Winds; Half Flush; Outside Hand; Prevalent Wind; Seat Wind",
        "Edge Wait",
    ),
    Case(
        "779-780",
        1468,
        "Example 1: Combined with Half Flush, and Outside Hand",
        "111 333 444 22 zxc",
        "exposed=1,2,3 win=c seat=1 round=1",
        "Little Four Winds; Half Flush; Outside Hand",
        "Edge Wait",
    ),
    Case(
        "781-782",
        1471,
        "Example 2: Combined with All Honors and Dragon Pung",
        "333 222 444 11 555",
        "exposed=1,2,3,5 win=1",
        "Little Four Winds; All Honors; Dragon Pung",
        "Melded Hand",
    ),
    # 10. Little Three Dragons
    Case(
        "784-785",
        1479,
        "Does not combine with Dragon Pung, or Two Dragons",
        "777 666 55 aaa lll",
        "exposed=1,2,4,5 win=5",
        "Little Three Dragons; All Terminals and Honors; Half Flush",
        "Melded Hand",
    ),
    Case(
        "786-787",
        1479,
        "Example 1: Combined with All Terminals And or Honors, and Half Flush",
        "777 666 55 aaa lll",
        "",
        "Little Three Dragons; All Terminals and Honors; Half Flush",
        "Three Concealed Pungs; Concealed Hand",
    ),
    Case(
        "788-789",
        1485,
        "Example 2: Combined with Outside Hand, Pung of Terminals or Honors, and One Voided Suit",
        "777 66 555 zxc aaa",
        "exposed=1,3,5 win=c",
        "Little Three Dragons; Outside Hand; Pung of Terminals or Honors; One Voided Suit",
        "Edge Wait",
    ),
    Case(
        "790-791",
        1489,
        "Example 3: Combined with All Honors",
        "77 666 555 111 444",
        "exposed=2,3,4,5 win=7 seat=2 round=1",
        "Little Three Dragons; All Honors",
        "Melded Hand",
    ),
    # 11. All Honors
    Case(
        "793-795",
        1498,
        "Can be formed with Pungs or Kongs, any of which may be concealed or melded. Does not combine with All Pungs, Outside Hand, and Pung of Terminals or Honors",
        "777 5555 111 222 44",
        "exposed=1,3,4 seat=2 round=2",
        "All Honors; Two Dragons Pungs",
        "Concealed Kong; Single Wait",
    ),
    Case(
        "796-797",
        1498,
        "Example: Combined with Two Dragon Pungs",
        "777 555 111 222 44",
        "exposed=1,2,3,4 seat=2 round=2",
        "All Honors; Two Dragons Pungs",
        "Melded Hand",
    ),
    # 12. Four Concealed Pungs
    Case(
        "799-800",
        1506,
        "Does not combine with All Pungs or Concealed",
        "xxx ddd rrr sss ee",
        "",
        "Four Concealed Pungs; Lower Four; Mixed Shifted Pungs; Double Pung; All Simples",
    ),
    Case(
        "800",
        1506,
        "Does combine with Fully Concealed if Self-Drawn",
        "xxx ddd rrr sss ee",
        "self",
        "Four Concealed Pungs; Lower Four; Mixed Shifted Pungs; Double Pung; All Simples; Fully Concealed Hand",
    ),
    Case(
        "801-802",
        1506,
        "Example: Combined with Lower Four, Mixed Shifted Pungs, Double Pung, and All Simples",
        "xxx ddd rrr sss ee",
        "",
        "Four Concealed Pungs; Lower Four; Mixed Shifted Pungs; Double Pung; All Simples",
    ),
    # 13. Pure Terminal Chows
    Case(
        "804-806",
        1516,
        "Does not combine with Seven Pairs, Full Flush, All Chows, Pure Double Chow, or Two Terminal Chows",
        "zxc zxc m,. m,. bb",
        "",
        "Pure Terminal Chows",
        "Concealed Hand; Single Wait",
    ),
    # 14. Quadruple Chow
    Case(
        "811-812",
        1525,
        "Does not combine with Pure Shifted Pungs, Tile Hog, or Pure Double Chow",
        "qwe qwe qwe qwe rr",
        "exposed=1",
        "Quadruple Chow; Full Flush; Lower Four; All Chows",
    ),
    Case(
        "813-814",
        1525,
        "Example: Combined with Full Flush, Lower Four, and All Chows",
        "qwe qwe qwe qwe rr",
        "",
        "Quadruple Chow; Full Flush; Lower Four; All Chows",
        "Concealed Hand",
    ),
    # 15. Four Pure Shifted Pungs
    Case(
        "816-817",
        1537,
        "Does not combine with Pure Triple Chow or All Pungs",
        "aaa sss ddd fff xx",
        "exposed=1,2,3,4",
        "Four Pure Shifted Pungs; Lower Four; Reversible Tiles; Pung of Terminals or Honors",
        "Melded Hand",
    ),
    Case(
        "818-819",
        1537,
        "Example: Combined with Lower Four, One Voided Suit, Reversible Tiles, and Pung of Terminals or Honors "
        "(One Voided Suit: against line 998, 'Reversible Tiles ... Does not combine with One Voided Suit', which the product follows)",
        "aaa sss ddd fff xx",
        "",
        "Four Pure Shifted Pungs; Lower Four; Reversible Tiles; Pung of Terminals or Honors",
        "Four Concealed Pungs; Single Wait",
    ),
    # 16. Four Shifted Chows
    Case(
        "822-823",
        1547,
        "Does not combine with Short Straight",
        "qwe wer ert rty qq",
        "exposed=1",
        "Four Pure Shifted Chows; Full Flush; All Chows",
    ),
    Case(
        "824-825",
        1547,
        "Example 1: Combined with Full Flush, and All Chows",
        "qwe wer ert rty qq",
        "",
        "Four Pure Shifted Chows; Full Flush; All Chows",
        "Concealed Hand",
    ),
    Case(
        "826-827",
        1550,
        "Example 2: Combined with All Chows and One Voided Suit",
        "zxc cvb bnm m,. gg",
        "",
        "Four Pure Shifted Chows; All Chows; One Voided Suit",
        "Concealed Hand; Single Wait",
    ),
    # 17. Three Kongs
    Case(
        "829-830",
        1557,
        "May combine with Three Concealed Pengs if the Kongs are all concealed",
        "wwww eeee rrrr xxx cc",
        "exposed=4",
        "Three Kongs; Pure Shifted Pungs; Lower Four; All Pungs; Double Pung; All Simples; One Voided Suit",
        "Three Concealed Pungs; Single Wait",
    ),
    Case(
        "831-833",
        1557,
        "Example: Combined with Pure Shifted Pungs, Lower Four, All Pungs, Double Pung, All Simples, and One Voided Suit",
        "wwww eeee rrrr xxx cc",
        "exposed=1,2,3,4",
        "Three Kongs; Pure Shifted Pungs; Lower Four; All Pungs; Double Pung; All Simples; One Voided Suit",
        "Melded Hand",
    ),
    # 18. All Terminals and Honors
    Case(
        "835-836",
        1566,
        "Does not combine with All Pungs or Pung of Terminals or Honors",
        "111 qqq ... lll 77",
        "exposed=1,2,3,4 seat=2 round=2",
        "All Terminals and Honors; All Types; Double Pung",
        "Melded Hand",
    ),
    Case(
        "837-838",
        1566,
        "Example: Combined with All Types and Double Pung",
        "111 qqq ... lll 77",
        "seat=2 round=2",
        "All Terminals and Honors; All Types; Double Pung",
        "Four Concealed Pungs; Single Wait",
    ),
    # 19. Seven Pairs
    Case(
        "841-842",
        1583,
        "Does not combine with Concealed Hand or Single Wait",
        "jj xx ee 77 55 11 44",
        "",
        "Seven Pairs; All Types",
    ),
    Case(
        "841-842",
        1583,
        "May combine with Fully Concealed if Self-Drawn",
        "jj xx ee 77 55 11 44",
        "self",
        "Seven Pairs; All Types; Fully Concealed Hand",
    ),
    Case(
        "843-844",
        1583,
        "Example 1: Combined with All Types",
        "jj xx ee 77 55 11 44",
        "",
        "Seven Pairs; All Types",
    ),
    Case(
        "845-846",
        1586,
        "Example 2: Combined with All Terminals (the Spanish text, ES 1587, adds Tile Hog)",
        "aa qq zz ll ll .. oo",
        "",
        "Seven Pairs; All Terminals; Tile Hog",
    ),
    Case(
        "847-848",
        1589,
        "Example 3: Combined with All Honors",
        "11 22 33 44 55 66 77",
        "",
        "Seven Pairs; All Honors",
    ),
    # 20. Greater Honors and Knitted Tiles
    Case(
        "852",
        1601,
        "Does not combine with All Types or Concealed Hand",
        "123457qusgcn. 6",
        "",
        "Greater Honors and Knitted Tiles",
    ),
    Case(
        "852-853",
        1601,
        "May be combined with Fully Concealed if Self-Drawn",
        "123457qusgcn. 6",
        "self",
        "Greater Honors and Knitted Tiles; Fully Concealed Hand",
    ),
    # 21. All Even Pungs
    Case(
        "857-858",
        1608,
        "Does not combine with All Pungs or All Simples",
        "www vvv hhh kkk ff",
        "exposed=1,2,3,4",
        "All Even Pungs",
        "Melded Hand",
    ),
    Case(
        "860-861",
        1610,
        "Example 2: Combined with Triple Pung and Lower Four",
        "www xxx sss rrr vv",
        "exposed=1,2,3,4",
        "All Even Pungs; Triple Pung; Lower Four",
        "Melded Hand",
    ),
    Case(
        "862-863",
        1613,
        "Example 3: Combined with Double Pung (times two), and One Voided Suit",
        "nnn yyy ,,, iii xx",
        "exposed=1,2,3,4",
        "All Even Pungs; Double Pung x2; One Voided Suit",
        "Melded Hand",
    ),
    # 22. Full Flush
    Case(
        "865",
        1703,
        "Does not combine with No Honors",
        "qwe rty uio qwe uu",
        "exposed=1",
        "Full Flush; Pure Straight; All Chows; Pure Double Chow",
    ),
    Case(
        "866-867",
        1627,
        "Example 1: Combined with Four Pure Shifted Pungs, and Pung of Terminals or Honors",
        "yyy uuu iii ooo tt",
        "exposed=1,2,3,4",
        "Full Flush; Four Pure Shifted Pungs; Pung of Terminals or Honors",
        "Melded Hand",
    ),
    Case(
        "868-869",
        1630,
        "Example 2: Combined with Seven Pairs",
        "zz xx vv bb nn ,, ..",
        "",
        "Full Flush; Seven Pairs",
    ),
    Case(
        "868-869",
        1630,
        "Example 2: (and Fully Concealed if Self-Drawn)",
        "zz xx vv bb nn ,, ..",
        "self",
        "Full Flush; Seven Pairs; Fully Concealed Hand",
    ),
    Case(
        "870-872",
        1634,
        "Example 3: Combined with All Chows, Pure Straight, Tile Hog, and either Pure Double Chow or Short Straight or Two Terminal Chows",
        "asd fgh jkl jkl ll",
        "",
        "Full Flush; All Chows; Pure Straight; Tile Hog; Pure Double Chow",
        "Concealed Hand",
    ),
    # 23. Pure Triple Chow
    Case(
        "874-877",
        1643,
        "Does not combine with Pure Shifted Pungs or Pure Double Chow. Example: Combined with Middle Tiles, All Fives, All Chows, Mixed Double Chow, and One Voided Suit",
        "rty rty rty fgh gg",
        "",
        "Pure Triple Chow; Middle Tiles; All Five; All Chows; Mixed Double Chow; One Voided Suit",
        "Concealed Hand; Closed Wait",
    ),
    # 24. Pure Shifted Pungs
    Case(
        "879-882",
        1652,
        "Does not combine with Pure Triple Chow. Example: Combined with Lower Four, All Pungs, All Simples, Double Pung, and One Voided Suit",
        "xxx ccc vvv ddd ss",
        "exposed=1,2,3,4",
        "Pure Shifted Pungs; Lower Four; All Pungs; All Simples; Double Pung; One Voided Suit",
        "Melded Hand",
    ),
    # 25. Upper Tiles
    Case(
        "884-887",
        1661,
        "Does not combine with No Honors. Example 1: Combined with Mixed Triple Chow, Outside Hand, Tile Hog, All Chows and either Pure Double Chow or Mixed Double Chow (not both)",
        "uio jkl m,. jkl ll",
        "",
        "Upper Tiles; Mixed Triple Chow; Outside Hand; Tile Hog; All Chows; Pure Double Chow",
        "Concealed Hand",
    ),
    Case(
        "888-889",
        1669,
        "Example 2: Combined with All Pungs, Double Pung, and Pung of Terminals or Honors",
        "mmm iii jjj ooo ,,",
        "exposed=1,2,3,4",
        "Upper Tiles; All Pungs; Double Pung; Pung of Terminals or Honors",
        "Melded Hand",
    ),
    Case(
        "890-891",
        1672,
        "Example 3: Combined with Double Pung, Tile Hog and Mixed Double Chow",
        "uio m,. ,,, kkk ii",
        "exposed=3,4 win=i",
        "Upper Tiles; Double Pung; Tile Hog; Mixed Double Chow",
        "Closed Wait",
    ),
    # 26. Middle Tiles
    Case(
        "893-895",
        1680,
        "Does not combine with No Honors or All Simples. Example 1: Combined with Pure Shifted Pungs, Tile Hog (times three), and One Voided Suit",
        "vbn vvv bbb nnn hh",
        "exposed=2,3,4",
        "Middle Tiles; Pure Shifted Pungs; Tile Hog x3; One Voided Suit",
        "Single Wait",
    ),
    Case(
        "896-897",
        1684,
        "Example 2: Combined with Seven Pairs",
        "rr tt gg hh vv bb nn",
        "",
        "Middle Tiles; Seven Pairs",
    ),
    Case(
        "896-897",
        1684,
        "Example 2: (and Fully Concealed if Self-Drawn)",
        "rr tt gg hh vv bb nn",
        "self",
        "Middle Tiles; Seven Pairs; Fully Concealed Hand",
    ),
    # 27. Lower Tiles
    Case(
        "899-902",
        1692,
        "Does not combine with No Honors. Example: Combined with Mixed Triple Chow, Tile Hog, All Chows, and either Pure Double Chow or Mixed Double Chow (not both)",
        "qwe asd zxc zxc cc",
        "",
        "Lower Tiles; Mixed Triple Chow; Tile Hog; All Chows; Pure Double Chow",
        "Concealed Hand",
    ),
    # 28. Pure Straight
    Case(
        "906-908",
        1703,
        "Example 1: Combined with Full Flush, All Chows, and either Pure Double Chow or Short Straight or Two Terminal Chows",
        "qwe rty uio qwe uu",
        "",
        "Pure Straight; Full Flush; All Chows; Pure Double Chow",
        "Concealed Hand",
    ),
    Case(
        "909-910",
        1707,
        "Example 2: Combined with No Honor Tiles, One Voided Suit",
        "zxc vbn m,. hhh kk",
        "",
        "Pure Straight; No Honors; One Voided Suit",
        "Concealed Hand",
    ),
    # 29. Three-Suited Terminal Chows
    Case(
        "913-914",
        1721,
        "Doesn't combine with Pure Double Chow (ES 1718: Mixed Double Chow, which the product follows), Two Terminal Chows, No Honors, or All Chows",
        "asd jkl qwe uio bb",
        "",
        "Three-Suited Terminal Chows",
        "Concealed Hand; Single Wait",
    ),
    # 30. Pure Shifted Chows
    Case(
        "919-920",
        1731,
        "Example 1: Combined with All Chows, Mixed Double Chow, and One Voided Suit",
        "asd sdf dfg xcv xx",
        "",
        "Pure Shifted Chows; All Chows; Mixed Double Chow; One Voided Suit",
        "Concealed Hand",
    ),
    Case(
        "921-922",
        1734,
        "Example 2: Combined with Full Flush, All Chows, and Pure Double Chow",
        "zxc cvb bnm cvb xx",
        "",
        "Pure Shifted Chows; Full Flush; All Chows; Pure Double Chow",
        "Concealed Hand",
    ),
    Case(
        "923-924",
        1737,
        "Example 3: Combined with No Honors",
        "qwe ert tyu kkk mm",
        "",
        "Pure Shifted Chows; No Honors",
        "Concealed Hand; Single Wait",
    ),
    # 31. All Fives
    Case(
        "926-929",
        1745,
        "Does not combine with All Simples. Example 1: Combined with Middle Tiles, Mixed Triple Chow, Tile Hog, All Chows, and either Pure Double Chow or Mixed Double Chow (not both)",
        "fgh vbn rty rty tt",
        "",
        "All Five; Middle Tiles; Mixed Triple Chow; Tile Hog; All Chows; Pure Double Chow",
        "Concealed Hand",
    ),
    Case(
        "930-931",
        1749,
        "Example 2: Combined with Double Pung and Tile Hog",
        "ert tyu ggg bbb tt",
        "exposed=3,4",
        "All Five; Double Pung; Tile Hog",
    ),
    # 32. Triple Pung
    Case(
        "934-935",
        1756,
        "Example 1: Combined with Lower Four, Tile Hog, and All Simples",
        "eee ddd ccc xcv rr",
        "exposed=1,2,3",
        "Triple Pung; Lower Four; Tile Hog; All Simples",
        "Single Wait",
    ),
    Case(
        "936-937",
        1761,
        "Example 2: Combined with All Terminals and All Pungs (All Pungs: against line 771, 'All Terminals ... Does not combine with All Pungs', which the product follows)",
        "qqq aaa zzz lll ..",
        "exposed=1,2,3,4",
        "Triple Pung; All Terminals",
        "Melded Hand",
    ),
    # 33. Three Concealed Pungs
    Case(
        "940-941",
        1768,
        "Example 1: Combined with All Terminals and Honors, All Types, and Dragon Pung",
        "777 111 ooo ll zzz",
        "exposed=5 win=l seat=2 round=1",
        "Three Concealed Pungs; All Terminals and Honors; All Types; Dragon Pung",
        "Single Wait",
    ),
    Case(
        "942-943",
        1772,
        "Example 2: Combined with Full Flush",
        "vvv mmm ,,, zxc bb",
        "",
        "Three Concealed Pungs; Full Flush",
        "Concealed Hand",
    ),
    # 34. Lesser Honors and Knitted Tiles
    Case(
        "949",
        1786,
        "Does not Combines with All Types and Concealed Hand (example 1)",
        "zvm wti dh 123 567",
        "",
        "Lesser Honors and Knitted Tiles",
    ),
    Case(
        "949",
        1788,
        "Does not Combines with All Types and Concealed Hand (example 2)",
        "qru sgk c. 567 134",
        "",
        "Lesser Honors and Knitted Tiles",
    ),
    Case(
        "949-950",
        1786,
        "(Combines with Fully Concealed if Self-Drawn.)",
        "zvm wti dh 123 567",
        "self",
        "Lesser Honors and Knitted Tiles; Fully Concealed Hand",
    ),
    Case(
        "953-954",
        1790,
        "Example 3: Combined with Knitted Straight",
        "afj xb, eyo 234 67",
        "",
        "Lesser Honors and Knitted Tiles; Knitted Straight",
    ),
    # 35. Knitted Straight
    Case(
        "959-960",
        1799,
        "Example 1: Combined with Tile Hog and No Honors",
        "zvm wti dhl vvv ee",
        "",
        "Knitted Straight; Tile Hog; No Honors",
        "Concealed Hand; Single Wait",
    ),
    Case(
        "961-962",
        1802,
        "Example 2: Combined with All Chows",
        "qru sgk cn. asd nn",
        "",
        "Knitted Straight; All Chows",
        "Concealed Hand; Single Wait",
    ),
    Case(
        "963-964",
        1806,
        "Example 3: Combined with All Types and Pung of Terminals or Honors",
        "afj xb, eyo 111 77",
        "seat=2 round=1",
        "Knitted Straight; All Types; Pung of Terminals or Honors",
        "Concealed Hand; Single Wait",
    ),
    # 36. Upper Four
    Case(
        "966-968",
        1813,
        "Does not combine with No Honors. Example 1: Combined with Tile Hog and Mixed Double Chow",
        "m,. hjk jjj uio ..",
        "exposed=3",
        "Upper Four; Tile Hog; Mixed Double Chow",
    ),
    Case(
        "969-971",
        1816,
        "Example 2: Combined with Mixed Triple Chow, All Chows, and either Pure Double Chow or Mixed Double Chow (not both)",
        "uio m,. jkl jkl hh",
        "",
        "Upper Four; Mixed Triple Chow; All Chows; Pure Double Chow",
        "Concealed Hand",
    ),
    Case(
        "972-973",
        1820,
        "Example 3: Combined with Seven Pairs",
        "nn ,, yy uu hh kk ll",
        "",
        "Upper Four; Seven Pairs",
    ),
    Case(
        "972-973",
        1820,
        "Example 3: (can combine with Fully Concealed if Self- Drawn)",
        "nn ,, yy uu hh kk ll",
        "self",
        "Upper Four; Seven Pairs; Fully Concealed Hand",
    ),
    # 37. Lower Four
    Case(
        "975-978",
        1827,
        "Does not combine with No Honors. Example 1: Combined with Mixed Triple Chow, All Chows, and either Pure Double Chow or Mixed Double Chow (not both)",
        "zxc qwe asd qwe rr",
        "",
        "Lower Four; Mixed Triple Chow; All Chows; Pure Double Chow",
        "Concealed Hand",
    ),
    Case(
        "979-980",
        1831,
        "Example 2: Combined with Four Pure Shifted Pungs, One Voided Suit, and Pung of Terminals or Honors",
        "zzz xxx ccc vvv ww",
        "exposed=1,2,3,4",
        "Lower Four; Four Pure Shifted Pungs; One Voided Suit; Pung of Terminals or Honors",
        "Melded Hand",
    ),
    # 38. Big Three Winds
    Case(
        "983-984",
        1839,
        "Example 1: Combined with All Terminals and Honors, and One Voided Suit",
        "111 222 333 ooo ..",
        "exposed=1,2,3,4 seat=3 round=3",
        "Big Three Winds; All Terminals and Honors; One Voided Suit",
        "Melded Hand",
    ),
    Case(
        "985-986",
        1842,
        "Example 2: Combined with Half Flush",
        "222 333 444 wer tt",
        "exposed=1,2,3",
        "Big Three Winds; Half Flush",
    ),
    Case(
        "987-988",
        1845,
        "Example 3: Combined with All Honors and Dragon Pung",
        "222 333 444 777 66",
        "exposed=1,2,3,4",
        "Big Three Winds; All Honors; Dragon Pung",
        "Melded Hand",
    ),
    # 39. Mixed Straight
    Case(
        "992-993",
        1856,
        "Example 1: Combined with All Chows and Pure Double Chow",
        "zxc fgh uio zxc kk",
        "",
        "Mixed Straight; All Chows; Pure Double Chow",
        "Concealed Hand; Single Wait",
    ),
    Case(
        "994-995",
        1859,
        "Example 2: Combined with All Chows and either Short Straight or Mixed Double Chow (not both)",
        "qwe vbn jkl fgh uu",
        "",
        "Mixed Straight; All Chows; Mixed Double Chow",
        "Concealed Hand; Single Wait",
    ),
    # 40. Reversible Tiles
    Case(
        "998-1000",
        1870,
        "Does not combine with One Voided Suit. Example 1: Combined with All Fives, Tile Hog, All Chows, and Pure Double Chow (times two)",
        "dfg dfg vbn vbn bb",
        "exposed=1",
        "Reversible Tiles; All Five; Tile Hog; All Chows; Pure Double Chow x2",
    ),
    Case(
        "1001-1002",
        1874,
        "Example 2: Combined with Double Pung",
        "sdf vbn kkk ,,, 55",
        "exposed=3,4",
        "Reversible Tiles; Double Pung",
        "Single Wait",
    ),
    Case(
        "1003-1004",
        1877,
        "Example 3: Combined with All Pungs, Dragon Pung, Double Pung, and Pung of Terminals (times two)",
        "kkk lll ... 555 ,,",
        "exposed=1,2,3,4",
        "Reversible Tiles; All Pungs; Dragon Pung; Double Pung; Pung of Terminals or Honors x2",
        "Melded Hand",
    ),
    # 41. Mixed Triple Chow
    Case(
        "1007-1008",
        1885,
        "Example 1: Combined with All Chows, All Simples, and Tile Hog",
        "cvb dfg ert rty rr",
        "",
        "Mixed Triple Chow; All Chows; All Simples; Tile Hog",
        "Concealed Hand",
    ),
    Case(
        "1009-1011",
        1888,
        "Example 2: Combined with Upper Four, All Chows, and either Pure Double Chow or Mixed Double Chow (not both)",
        "yui nm, hjk hjk ..",
        "",
        "Mixed Triple Chow; Upper Four; All Chows; Pure Double Chow",
        "Concealed Hand",
    ),
    # 42. Mixed Shifted Pungs
    Case(
        "1014-1015",
        1901,
        "Example 1: Combined with Lower Four, All Pungs, Double Pung and All Simples",
        "sss ccc rrr ddd ww",
        "exposed=1,2,3,4",
        "Mixed Shifted Pungs; Lower Four; All Pungs; Double Pung; All Simples",
        "Melded Hand",
    ),
    Case(
        "1016-1017",
        1905,
        "Example 2: Combined with Upper Tiles, Tile Hog, and Pung of Terminals or Honors",
        "uuu ,,, lll jkl oo",
        "exposed=1,2,3",
        "Mixed Shifted Pungs; Upper Tiles; Tile Hog; Pung of Terminals or Honors",
        "Single Wait",
    ),
    # 43. Chicken Hand
    Case(
        "1019-1025",
        1913,
        "A hand that would otherwise earn 0 points (excluding Flowers). The 2 and 5 dots are not Last Tile and not Self-Drawn",
        "das vvv oui",
        "reading=das_vvv_oui_77_dfg exposed=1,2,3",
        "Chicken Hand",
    ),
    # 48. Two Concealed Kongs
    Case(
        "1030-1035",
        1949,
        "With two concealed Kongs, Pung South Wind, Chow 9 Characters, then Self-Drawn 8 Characters. Combined with Pung of Terminals of Honors (times three), and One Voided Suit, Self-Drawn, Single Waiting "
        "(the library names the wait of 7-8-9-8 a Closed Wait: one wait fan of 1 either way)",
        "zzzz 1111 222 uio ii",
        "exposed=3 win=i self seat=3 round=2",
        "Two Concealed Kongs; Pung of Terminals or Honors x3; One Voided Suit; Self-Drawn",
        "Closed Wait",
    ),
    # 49. All Pungs
    Case(
        "1039-1040",
        1961,
        "Example: Combined with Triple Pung, All Types, and Dragon Pung",
        "iii kkk ,,, 555 11",
        "exposed=1,2,3,4 seat=2 round=2",
        "All Pungs; Triple Pung; All Types; Dragon Pung",
        "Melded Hand",
    ),
    # 50. Half Flush
    Case(
        "1044-1045",
        1969,
        "Example: Combined with Pure Shifted Chows and Two Terminal Chows",
        "qwe wer ert uio 77",
        "",
        "Half Flush; Pure Shifted Chows; Two Terminal Chows",
        "Concealed Hand; Single Wait",
    ),
    # 51. Mixed Shifted Chows
    Case(
        "1048-1049",
        1977,
        "Example: Combined with All Chows and Short Straight",
        "zxc wer dfg vbn tt",
        "",
        "Mixed Shifted Chows; All Chows; Short Straight",
        "Concealed Hand",
    ),
    # 52. All Types
    Case(
        "1053-1054",
        1985,
        "Example: Combined with Mixed Straight and Dragon Pung",
        "qwe fgh m,. 666 44",
        "",
        "All Types; Mixed Straight; Dragon Pung",
        "Concealed Hand; Single Wait",
    ),
    # 53. Melded Hand
    Case(
        "1056-1058",
        1998,
        "Every element or set in the hand, including the pair, must be completed with tiles discarded by other players. Does not combine with Single Wait",
        "wwww fgh yui ,,, yy",
        "exposed=1,2,3,4",
        "Melded Hand; All Simples",
        "Melded Kong",
    ),
    # 54. Two Dragon Pungs
    Case(
        "1061-1062",
        2004,
        "Example: Combined with Two Terminal Chows and One Voided Suit",
        "666 777 qwe uio ,,",
        "exposed=1,2",
        "Two Dragons Pungs; Two Terminal Chows; One Voided Suit",
        "Single Wait",
    ),
    # 55. Outside Hand
    Case(
        "1066-1068",
        2014,
        "Example 1: Combined with Upper Tiles, Mixed Triple Chow, Tile Hog, All Chows and either Pure Double Chow or Mixed Double Chow (not both)",
        "jkl uio m,. m,. ..",
        "",
        "Outside Hand; Upper Tiles; Mixed Triple Chow; Tile Hog; All Chows; Pure Double Chow",
        "Concealed Hand",
    ),
    Case(
        "1069-1071",
        2018,
        "Example 2: Combined with Half Flush, Pure Double Chow, and Two Terminal Chows (twice) - or Two Terminal Chows, and Pure Double Chow (twice)",
        "qwe qwe uio uio 77",
        "exposed=1",
        "Outside Hand; Half Flush; Pure Double Chow x2; Two Terminal Chows",
        "Single Wait",
    ),
    Case(
        "1072-1074",
        2022,
        "Example 3: Combined with Mixed Double Chow, Two Terminal Chows, One Voided Suit, and Pung of Terminals or Honors",
        "qwe asd ooo jkl 11",
        "seat=2 round=1",
        "Outside Hand; Mixed Double Chow; Two Terminal Chows; One Voided Suit; Pung of Terminals or Honors",
        "Concealed Hand; Single Wait",
    ),
    # 56. Fully Concealed
    Case(
        "1076-1079",
        2030,
        "A hand that a player completes without any melds and Self-Draws to win. Combined with All Chows, All Simples, Short Straight, Mixed Double Chow, and Closed Wait. (Self-Drawn 7 Bam.)",
        "wer dfg hjk vv nm,",
        "win=m self",
        "Fully Concealed Hand; All Chows; All Simples; Short Straight; Mixed Double Chow; Closed Wait",
    ),
    # 57. Two Melded Kongs
    Case(
        "1081-1084",
        2045,
        "2 Melded Kongs, Pung Red Dragon, won on discarded 1 Character. Combined with All Pungs, Dragon Pung, Double Pung, Pung of Terminals or Honors, and One Voided Suit",
        "ffff rrrr 777 qqq ee",
        "exposed=1,2,3 win=q",
        "Two Melded Kongs; All Pungs; Dragon Pung; Double Pung; Pung of Terminals or Honors; One Voided Suit",
    ),
    Case(
        "1081, 1086-1087",
        2051,
        "Concealed Kong; Melded Kong, won on discarded [4 Dots]. Combined with Reversible Tiles, Dragon Pung, Closed Wait. One Melded Kong and one Concealed Kong are 6 points",
        "ssss 5555 nnn vv dfg",
        "exposed=1,3 win=f",
        "Two Melded Kongs; Concealed Kong; Reversible Tiles; Dragon Pung; Closed Wait",
    ),
    # 62. Concealed Hand
    Case(
        "1094-1096",
        2082,
        "All the tiles are Concealed; winning on a discard. Combined with All Chows, All Simples, and Short Straight (times two)",
        "wer tyu dfg hjk nn",
        "",
        "Concealed Hand; All Chows; All Simples; Short Straight x2",
        "Single Wait",
    ),
    # 63. All Chows
    Case(
        "1098-1100",
        2094,
        "No Honors is implied. Example: Combined with Mixed Shifted Chows and Short Straight",
        "wer dfg vbn m,. jj",
        "",
        "All Chows; Mixed Shifted Chows; Short Straight",
        "Concealed Hand; Single Wait",
    ),
    # 64. Tile Hog
    Case(
        "1102-1104",
        2102,
        "Using all four of a single suit tile, without using them as any kind of Kong. Example: Combined with Mixed Triple Chow and No Honors",
        "jkl m,. uio uuu dd",
        "",
        "Tile Hog; Mixed Triple Chow; No Honors",
        "Concealed Hand; Single Wait",
    ),
    Case(
        "1102",
        2102,
        "without using them as any kind of Kong (the four 7s of characters as a kong: no Tile Hog)",
        "jkl m,. uuuu ooo dd",
        "exposed=3",
        "Pung of Terminals or Honors; Mixed Double Chow; No Honors",
        "Melded Kong; Single Wait",
    ),
    # 65. Double Pung
    Case(
        "1107-1108",
        2110,
        "Example: Combined with All Pungs and All Simples",
        "www ttt bbb kkk ff",
        "exposed=1,2,3,4",
        "Double Pung; All Pungs; All Simples",
        "Melded Hand",
    ),
    # 66. Two Concealed Pungs
    Case(
        "1110-1114",
        2118,
        "Concealed Pung; Concealed Kong, won with a discarded 3 Character. Combined with Double Pung, Concealed Kong, Two Terminal Chows, No Honors, Edge Wait, and Pung of Terminals (times two)",
        "... llll uio tt qwe",
        "exposed=3 win=e",
        "Two Concealed Pungs; Double Pung; Concealed Kong; Two Terminal Chows; No Honors; Edge Wait; Pung of Terminals or Honors x2",
    ),
    # 68. All Simples
    Case(
        "1117-1119",
        2134,
        "Hand formed without any Terminal or Honor Tiles. Example: Combined with Mixed Shifted Chows",
        "wer dfg vbn mmm ff",
        "exposed=4",
        "All Simples; Mixed Shifted Chows",
        "Closed Wait",
    ),
    # 80. Self-Drawn
    Case(
        "1132-1136",
        2214,
        "Melded Kong, Self-Drawn 2 Bam. Combined with Melded Kong, Pung of Terminals or Honors, Mixed Double Chow, Short Straight, Single Wait, One Voided Suit, and No Honors",
        "aaa a vbn m,. fgh xx",
        "reading=aaaa_vbn_m,._fgh_xx exposed=1 win=x self",
        "Self-Drawn; Melded Kong; Pung of Terminals or Honors; Mixed Double Chow; Short Straight; Single Wait; One Voided Suit; No Honors",
    ),
    # 81. Flower Tiles
    Case(
        "1137",
        1913,
        "Flower Tiles (1 point) each (ES 1911: 'Las flores se suman tras los 8 puntos por ganar')",
        "das vvv oui",
        "reading=das_vvv_oui_77_dfg exposed=1,2,3 flowers=2",
        "Chicken Hand; Flower Tiles x2",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"line {c.line}")
def test_the_green_book_sentence_or_example(case):
    """The adapter gives the fan the text names, with only the fan of how the hand was won besides."""
    expected = {**fan(case.combined), **fan(case.won)}
    assert set(fan(case.won)) <= HOW_WON, case
    assert scored(case) == expected, f"line {case.line} (ES {case.es}): {case.says}"


def test_every_example_of_appendix_1_is_a_case():
    """Appendix 1 prints 104 example hands (ES 1366-2214); each is a case above, by its line in the Spanish text."""
    printed = {case.es for case in CASES}
    assert len(printed) == 104


def test_fully_concealed_if_self_drawn_whatever_the_draw():
    """Lines 800 and 842: Four Concealed Pungs and Seven Pairs "combine with Fully Concealed if Self-Drawn",
    also when the tile from the wall is the last one (Last Tile Draw, which does not combine with Self-Drawn:
    ES 1921) or a kong's replacement tile; a concealed kong keeps the hand concealed (line 1115)."""
    context = WinContext(self_drawn=True)
    pairs = {"hand": "1133m5577p2299s11z", "winning_tile": "1z", "last_tile": True}
    assert {i.name: i.value for i in mcr_tiles.value(parse_tiles(pairs), context, min_fan=0).items} == {
        "Seven Pairs": 24,
        "Last Tile Draw": 8,
        "Fully Concealed Hand": 4,
    }
    pungs = {
        "hand": "111m333p777s22z",
        "melds": ["concealed_kong 5s"],
        "winning_tile": "2z",
        "replacement_tile": True,
    }
    items = {i.name: i.value for i in mcr_tiles.value(parse_tiles(pungs), context, min_fan=0).items}
    assert items["Fully Concealed Hand"] == 4 and "Self-Drawn" not in items, items


def test_a_claimed_set_is_never_fully_concealed():
    """Line 1076: Fully Concealed is "a hand that a player completes without any melds": Four Kongs with a
    melded kong, self-drawn, has Self-Drawn and no Fully Concealed."""
    kongs = {
        "hand": "77z",
        "melds": ["kong 2s", "concealed_kong 5m", "concealed_kong 8p", "concealed_kong 1z"],
        "winning_tile": "7z",
    }
    items = {
        i.name: i.value
        for i in mcr_tiles.value(parse_tiles(kongs), WinContext(self_drawn=True), min_fan=0).items
    }
    assert items["Self-Drawn"] == 1 and "Fully Concealed Hand" not in items, items


def test_the_sentences_only_the_spanish_text_has():
    """The Spanish Green Book states three exclusions the English leaves out: Last Tile Draw "no se puede
    combinar con Cerrar del Muro" (ES 1921), Robbing the Kong "no se puede combinar con Mano Completamente
    Oculta" (ES 1933: a robbed tile is not drawn) and Last Tile "no se puede combinar con Robo de Kong"
    (ES 2061-2062)."""
    hand = {"hand": "234m567m99p", "melds": ["pung 7z", "chow 345s"], "winning_tile": "4m"}

    def items(tiles, self_drawn=False):
        valuation = mcr_tiles.value(parse_tiles(tiles), WinContext(self_drawn=self_drawn), min_fan=0)
        return {i.name: i.value for i in valuation.items}

    assert items({**hand, "last_tile": True}, self_drawn=True) == {
        "Last Tile Draw": 8,
        "Dragon Pung": 2,
        "Short Straight": 1,
    }
    robbed = {**hand, "robbing_kong": True, "fourth_tile": True}
    assert items(robbed) == {"Robbing The Kong": 8, "Dragon Pung": 2, "Short Straight": 1}
    concealed = {"hand": "234m567m99p345s777z", "winning_tile": "4m", "robbing_kong": True}
    assert "Fully Concealed Hand" not in items(concealed)


def test_all_terminals_in_seven_pairs_has_no_double_pung():
    """Lines 771-772, All Terminals "can combine with Double Pung": pungs, not four of a tile held as two
    pairs of a Seven Pairs (line 841), which make Tile Hog (ES 1587)."""
    pairs = {"hand": "1111m1111p99s99m99p", "winning_tile": "9p"}
    items = {i.name: i.value for i in mcr_tiles.value(parse_tiles(pairs), WinContext(self_drawn=False)).items}
    assert items == {"All Terminals": 64, "Seven Pairs": 24, "Tile Hog": 4}
