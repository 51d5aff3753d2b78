"""The 34 tiles drawn as small inline SVG (phone fonts lack the mahjong tile glyphs).

Characters show their number in blue with a red suit mark, dots and bamboo their pips, winds their letter,
the dragons a red R, a green G and the white dragon's blue frame. Plain strings, no Django.
"""

from __future__ import annotations

from functools import cache

SUITS = ("m", "p", "s", "z")
WIND_LETTERS = ("E", "S", "W", "N")
PIPS = {
    1: [(15, 20)],
    2: [(15, 12), (15, 28)],
    3: [(8, 10), (15, 20), (22, 30)],
    4: [(9, 12), (21, 12), (9, 28), (21, 28)],
    5: [(9, 11), (21, 11), (15, 20), (9, 29), (21, 29)],
    6: [(9, 10), (21, 10), (9, 20), (21, 20), (9, 30), (21, 30)],
    7: [(8, 8), (15, 11), (22, 14), (9, 23), (21, 23), (9, 32), (21, 32)],
    8: [(9, 8), (21, 8), (9, 16), (21, 16), (9, 24), (21, 24), (9, 32), (21, 32)],
    9: [(8, 10), (15, 10), (22, 10), (8, 20), (15, 20), (22, 20), (8, 30), (15, 30), (22, 30)],
}
RADIUS = {1: 8, 2: 5.5, 3: 4.5, 4: 4.2, 5: 4, 6: 3.8, 7: 3.3, 8: 3.2, 9: 3.2}
DOT_COLOURS = ("#1d5fa8", "#c62828", "#2e7d32")
FRAME = (
    '<rect x="0.75" y="0.75" width="28.5" height="38.5" rx="4" fill="#fbf8ef" stroke="#8a8575" '
    'stroke-width="1.5"/>'
)


def _text(x: float, y: float, text: str, size: int, colour: str, weight: str = "700") -> str:
    return (
        f'<text x="{x}" y="{y}" font-family="Arial,Helvetica,sans-serif" font-size="{size}" '
        f'font-weight="{weight}" text-anchor="middle" fill="{colour}">{text}</text>'
    )


def _face(number: int, suit: str) -> str:
    if suit == "m":
        return (
            _text(15, 24, str(number), 20, "#1d3d8f")
            + '<rect x="7" y="30" width="16" height="4" rx="2" fill="#c62828"/>'
        )
    if suit == "p":
        r = RADIUS[number]
        parts = []
        for i, (x, y) in enumerate(PIPS[number]):
            colour = DOT_COLOURS[i % 3] if number != 1 else "#c62828"
            parts.append(
                f'<circle cx="{x}" cy="{y}" r="{r}" fill="none" stroke="{colour}" stroke-width="1.8"/>'
            )
            parts.append(f'<circle cx="{x}" cy="{y}" r="{r / 3:.1f}" fill="{colour}"/>')
        return "".join(parts)
    if suit == "s":
        if number == 1:
            return '<rect x="12" y="8" width="6" height="24" rx="3" fill="#2e7d32"/><circle cx="15" cy="8" r="3" fill="#c62828"/>'
        height = 8 if number > 4 else 11
        return "".join(
            f'<rect x="{x - 1.8}" y="{y - height / 2}" width="3.6" height="{height}" rx="1.6" '
            f'fill="{"#c62828" if (number in (5, 7, 9) and (x, y) == (15, 20)) else "#2e7d32"}"/>'
            for x, y in PIPS[number]
        )
    if number <= 4:
        return _text(15, 27, WIND_LETTERS[number - 1], 20, "#222")
    if number == 5:
        return '<rect x="7" y="8" width="16" height="24" rx="2" fill="none" stroke="#1d5fa8" stroke-width="2.5"/>'
    if number == 6:
        return _text(15, 27, "G", 20, "#2e7d32")
    return _text(15, 27, "R", 20, "#c62828")


@cache
def tile_svg(code: str, label: str = "") -> str:
    """The SVG of one tile in suffix notation (``5p``); ``label`` is its accessible name."""
    number, suit = int(code[0]), code[1]
    if suit not in SUITS or not 1 <= number <= (7 if suit == "z" else 9):
        raise ValueError(f"not a tile: {code!r}")
    title = f"<title>{label}</title>" if label else ""
    return (
        f'<svg class="tile-svg" viewBox="0 0 30 40" width="30" height="40" role="img" '
        f'aria-label="{label or code}" xmlns="http://www.w3.org/2000/svg">{title}{FRAME}{_face(number, suit)}</svg>'
    )
