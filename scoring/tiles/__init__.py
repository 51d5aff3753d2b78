"""Hands from tiles: the tournament's setting, the check of a hand's tiles when it is entered or
imported, the referee's resolution of a held claim, the tile picker's value preview, statistics."""
