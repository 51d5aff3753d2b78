"""JSON text checked before it is parsed: how deep it nests. Pure Python, no Django import.

A parser's own stack grows with the nesting (a 50,000-deep array costs gigabytes in a C parser and a
RecursionError in Python's), so the depth is read on the bytes first, in one pass over the brackets outside
strings, in constant memory. Used by the API's JSON bodies and the archive import.
"""

from __future__ import annotations

import re
from itertools import accumulate

# a whole string (brackets inside strings do not nest)
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_STEP = [0] * 256
_STEP[ord("[")] = _STEP[ord("{")] = 1
_STEP[ord("]")] = _STEP[ord("}")] = -1


def nesting_over(data: bytes, limit: int) -> bool:
    """True when ``data`` (JSON text) nests arrays and objects more than ``limit`` levels deep.

    The strings are cut out and the brackets left are summed as +1/-1, all in C loops (a few milliseconds a
    megabyte); malformed text is left to the JSON parser."""
    brackets = _STRING.sub(b"", data).translate(None, _NOT_BRACKETS)
    if len(brackets) <= limit:
        return False
    return max(accumulate(map(_STEP.__getitem__, brackets))) > limit
