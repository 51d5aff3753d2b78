"""JSON text checked before it is parsed: how deep it nests. Pure Python, no Django import.

A parser's own stack grows with the nesting (a 50,000-deep array costs gigabytes in a C parser and a
RecursionError in Python's), so the depth is read on the bytes first, in one streaming pass over the
brackets outside strings: no copy of the text is made (the regular expression runs over the bytes, or over
chunks of a stream, where it finds them), so the check costs a few hundred bytes whatever the text's size.
Used by the API's JSON bodies, the idempotency fingerprint and the archive import.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

CHUNK = 64 * 1024

# outside a string: a whole string (skipped in C), a run of brackets, or a string that goes on past the
# end of the chunk (its opening quote alone)
_TOKEN = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|([\[\]{}]+)|"', re.S)
# inside a string that began in an earlier chunk: the rest of it, up to its closing quote
_REST = re.compile(rb'[^"\\]*(?:\\.[^"\\]*)*', re.S)
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


class NestingScan:
    """The depth of JSON text fed in pieces, in one pass: ``feed`` each piece in order, then read ``over``.

    The text between the pieces is never joined: a string that spans two pieces is followed by a flag (in a
    string, after a backslash). Malformed text is left to the JSON parser: an unterminated string hides the
    brackets after it, a closing bracket too many lowers the depth below zero, neither raises here."""

    __slots__ = ("_escaped", "_in_string", "depth", "limit", "over")

    def __init__(self, limit: int):
        self.limit = limit
        self.depth = 0
        self.over = False
        self._in_string = False
        self._escaped = False

    def feed(self, chunk) -> bool:
        """Read one more piece (bytes, bytearray or memoryview); True once the text nests too deep."""
        if self.over:
            return True
        end = len(chunk)
        pos = 0
        if self._in_string:
            pos = self._string_rest(chunk, 0, end)
            if self._in_string:
                return False
        token = _TOKEN.search
        step = _STEP
        depth, limit = self.depth, self.limit
        while pos < end:
            match = token(chunk, pos)
            if match is None:
                break
            pos = match.end()
            run = match.group(1)
            if run is not None:
                opened = run.count(b"[") + run.count(b"{")
                if depth + opened <= limit:  # cannot go past the limit within this run
                    depth += 2 * opened - len(run)
                    continue
                for byte in run:
                    depth += step[byte]
                    if depth > limit:
                        self.depth, self.over = depth, True
                        return True
            elif pos - match.start() == 1:
                # an opening quote alone: its string goes on past this piece (or never ends)
                self._in_string = True
                pos = self._string_rest(chunk, pos, end)
                if self._in_string:
                    break
        self.depth = depth
        return False

    def _string_rest(self, chunk, pos: int, end: int) -> int:
        """Skip the rest of a string from ``pos``; the position after its closing quote, or ``end``."""
        if self._escaped:
            self._escaped = False
            pos += 1
            if pos > end:  # the escaped byte is the first of the next piece
                self._escaped = True
                return end
        pos = _REST.match(chunk, pos).end()
        if pos >= end:
            return end
        if chunk[pos] == 0x22:  # the closing quote
            self._in_string = False
            return pos + 1
        # a backslash as the piece's last byte: the byte it escapes comes with the next piece
        self._escaped = True
        return end


def nesting_over_chunks(chunks: Iterable, limit: int) -> bool:
    """True when JSON text given as ``chunks`` (in order) nests arrays and objects more than ``limit`` deep."""
    scan = NestingScan(limit)
    return any(scan.feed(chunk) for chunk in chunks)


def nesting_over(data, limit: int) -> bool:
    """True when ``data`` (JSON text as bytes, bytearray or memoryview) nests arrays and objects more than
    ``limit`` levels deep. One pass over the bytes where they are: nothing is copied."""
    return NestingScan(limit).feed(data)


def stream_nesting_over(stream, limit: int, chunk_size: int = CHUNK) -> bool:
    """The same for a binary stream, read from where it stands in pieces of ``chunk_size`` bytes (the
    caller seeks back if it reads the stream again)."""
    buffer = bytearray(chunk_size)
    view = memoryview(buffer)
    scan = NestingScan(limit)
    readinto = getattr(stream, "readinto", None)
    while True:
        if readinto is not None:
            size = readinto(buffer)
            if not size:
                return False
            piece = view[:size]
        else:
            piece = stream.read(chunk_size)
            if not piece:
                return False
            if isinstance(piece, str):
                piece = piece.encode("utf-8")
        if scan.feed(piece):
            return True
