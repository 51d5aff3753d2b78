"""Hands from tiles: the tournament's setting, the check of a hand's tiles when it is entered or
imported, the referee's resolution of a held claim, the tile picker's value preview, statistics.

Modules (scoring/tiles/): hands from tiles: services (the tournament's setting, the check on entry and import,
the revaluation of later hands, the register of notable hands; the referee's resolution of a held hand is
a results write, ``scoring.services.hand_tiles_resolve``), selectors (statistics, the register), svg (the tiles
drawn), views (value preview for the tile picker, resolution, setting, statistics, register), forms, api, urls
"""
