"""JSON text checked before it is parsed: how deep it nests. Pure Python, no Django import.

A parser's own stack grows with the nesting (a 50,000-deep array costs gigabytes in a C parser and a
RecursionError in Python's), so the depth is read on the bytes first, in one pass over the brackets outside
strings, in constant memory. Used by the API's JSON bodies and the archive import.
"""

from __future__ import annotations

import re

# a bracket, or a whole string (skipped: brackets inside strings do not nest)
_TOKENS = re.compile(rb'[\[\]{}]|"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_OPEN = (ord("["), ord("{"))
_CLOSE = (ord("]"), ord("}"))


def nesting_over(data: bytes, limit: int) -> bool:
    """True when ``data`` (JSON text) nests arrays and objects more than ``limit`` levels deep.

    Stops at the first bracket past the limit; malformed text is left to the JSON parser."""
    depth = 0
    for match in _TOKENS.finditer(data):
        first = match.group()[0]
        if first in _OPEN:
            depth += 1
            if depth > limit:
                return True
        elif first in _CLOSE:
            depth -= 1
    return False
