"""Reading a tournament archive: an object already parsed, or JSON text read as a stream.

A file is read in two passes with ijson so that a large tournament never sits in memory whole: the first
pass keeps every top-level value except ``sessions`` (the tournament, the players, the penalties: small)
and checks the whole file's syntax; the second yields the sessions one at a time. Without ijson the text
is parsed at once.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Iterator, Mapping
from typing import IO, Any

from scoring.rules.base import RuleError
from scoring.rules.jsontext import nesting_over, stream_nesting_over

try:  # streaming parser; without it a document is parsed whole
    import ijson
except ImportError:  # pragma: no cover - exercised only where ijson is not installed
    ijson = None

_MISSING = object()
MAX_DEPTH = 32  # levels of nesting in a document; the deepest real archive has 6
_OPENERS = ("start_map", "start_array")
_CLOSERS = ("end_map", "end_array")
# ijson's C parser turns a whole buffer of text into events at once: small pieces keep them few
EVENT_BUFFER = 4096
SHARED_TEXT = 40  # texts up to this length (keys, results, players' keys) are shared by their repeats


def not_json(exc: Exception) -> RuleError:
    return RuleError(f"the file is not valid JSON ({exc})", "")


class ObjectSource:
    """A document already parsed (for example the body of an API request)."""

    def __init__(self, document: Any):
        if not isinstance(document, Mapping):
            raise RuleError("an archive is a JSON object with format, version, tournament, players, …", "")
        self.head = {key: value for key, value in document.items() if key != "sessions"}
        self._sessions = document.get("sessions", _MISSING)
        self.session_count = len(self._sessions) if isinstance(self._sessions, list) else 0

    def sessions(self) -> Iterator[Any]:
        if self._sessions is _MISSING or self._sessions is None:
            return
        if not isinstance(self._sessions, list):
            raise RuleError("sessions must be a list of sessions", "sessions")
        yield from self._sessions


class StreamSource:
    """JSON text in a seekable binary stream, read with ijson in two passes."""

    def __init__(self, stream: IO[bytes]):
        self._stream = stream
        self._sessions_event = None
        self.session_count = 0
        self.head = self._read_head()

    def _read_head(self) -> dict[str, Any]:
        head: dict[str, Any] = {}
        events = ijson.parse(self._stream, use_float=True)
        try:
            first = next(events, None)
            if first is None or first[1] != "start_map":
                raise RuleError(
                    "an archive is a JSON object with format, version, tournament, players, …", ""
                )
            for prefix, event, value in events:
                if prefix == "" and event == "map_key":
                    key = value
                    _, event, value = next(events)
                    if key == "sessions":
                        self._sessions_event = event
                        self.session_count = _skip(events, event)
                    else:
                        head[key] = _build(events, event, value)
        except ijson.JSONError as exc:
            raise not_json(exc) from None
        return head

    def sessions(self) -> Iterator[Any]:
        if self._sessions_event in (None, "null"):
            return
        if self._sessions_event != "start_array":
            raise RuleError("sessions must be a list of sessions", "sessions")
        self._stream.seek(0)
        try:
            yield from _session_items(ijson.basic_parse(self._stream, use_float=True, buf_size=EVENT_BUFFER))
        except ijson.JSONError as exc:  # the first pass read the same bytes; kept for safety
            raise not_json(exc) from None


def too_deep(path: str) -> RuleError:
    return RuleError(
        f"the archive nests arrays and objects more than {MAX_DEPTH} levels deep (the limit)", path or ""
    )


def _skip(events, event: str) -> int:
    """Skip one top-level value, checking its nesting; the number of items when it is a list."""
    depth = 1 if event in _OPENERS else 0
    items = 0
    while depth:
        prefix, event, _ = next(events)
        if event in _OPENERS:
            depth += 1
            if depth >= MAX_DEPTH:
                raise too_deep(prefix)
            if depth == 2:
                items += 1
        elif event in _CLOSERS:
            depth -= 1
    return items


def _build(events, event: str, value: Any) -> Any:
    """One top-level value; the nesting is checked before anything deep is built."""
    builder = ijson.ObjectBuilder()
    builder.event(event, value)
    depth = 1 if event in _OPENERS else 0
    while depth:
        prefix, event, value = next(events)
        if event in _OPENERS:
            depth += 1
            if depth >= MAX_DEPTH:
                raise too_deep(prefix)
        elif event in _CLOSERS:
            depth -= 1
        builder.event(event, value)
    return builder.value


def _session_items(events) -> Iterator[Any]:
    """Each item of the top-level ``sessions`` list (of every one, as ``ijson.items`` gives them), built
    from ijson's basic events with the texts shared (``_built``)."""
    depth = 0
    for event, value in events:
        if depth == 1 and event == "map_key" and value == "sessions":
            event, value = next(events)
            if event == "start_array":
                while (item := next(events))[0] != "end_array":
                    yield _built(events, *item, {})
                continue
        if event in _OPENERS:
            depth += 1
        elif event in _CLOSERS:
            depth -= 1


def _built(events, event: str, value: Any, shared: dict[str, str]) -> Any:
    """One value from ijson's basic events. A key or short text that comes again (a hand's field names,
    its result, the players' keys) is the object ``shared`` holds for it, as ``json.loads`` shares the keys
    of a document: a session's 1,600 hands cost a quarter of what ijson's own builder makes of them."""
    if event == "string":
        return shared.setdefault(value, value) if len(value) <= SHARED_TEXT else value
    if event not in _OPENERS:
        return value
    root: Any = {} if event == "start_map" else []
    stack, keys, key = [root], [], None
    for event, value in events:
        if event == "map_key":
            key = shared.setdefault(value, value) if len(value) <= SHARED_TEXT else value
            continue
        if event in _CLOSERS:
            stack.pop()
            if not stack:
                return root
            key = keys.pop()
            continue
        if event == "string":
            item = shared.setdefault(value, value) if len(value) <= SHARED_TEXT else value
        elif event == "start_map":
            item = {}
        elif event == "start_array":
            item = []
        else:
            item = value
        top = stack[-1]
        if type(top) is dict:
            top[key] = item
        else:
            top.append(item)
        if event in _OPENERS:
            keys.append(key)
            stack.append(item)
    raise ijson.IncompleteJSONError("parse error: premature EOF")


def open_source(document: Any) -> ObjectSource | StreamSource:
    """The source of ``document``: a parsed object (mapping), JSON text (str or bytes), a path, or a
    binary file object. A source passes through."""
    if isinstance(document, (ObjectSource, StreamSource)):
        return document
    if isinstance(document, Mapping):
        return ObjectSource(document)
    if isinstance(document, str):
        document = document.encode("utf-8")
    if isinstance(document, (bytes, bytearray)):
        return _from_stream(io.BytesIO(document))
    if isinstance(document, os.PathLike):
        if ijson is None:
            with open(document, "rb") as stream:
                return _from_stream(stream)
        return _PathSource(document)
    if hasattr(document, "read"):
        return _from_stream(document)
    raise RuleError("an archive is a JSON object with format, version, tournament, players, …", "")


def _check_nesting(stream) -> None:
    """The nesting of the whole text, checked on its bytes before any parser sees it: a parser's own
    stack grows with the nesting (a 50,000-deep array costs gigabytes in the C parser). Read in pieces,
    in one pass: the text is never copied whole."""
    if stream_nesting_over(stream, MAX_DEPTH):
        raise too_deep("")
    stream.seek(0)


def _from_stream(stream) -> ObjectSource | StreamSource:
    seekable = getattr(stream, "seekable", lambda: False)()
    if ijson is None:
        try:
            data = stream.read()
            if nesting_over(data if isinstance(data, bytes) else data.encode(), MAX_DEPTH):
                raise too_deep("")
            return ObjectSource(json.loads(data))
        except (ValueError, UnicodeDecodeError) as exc:
            raise not_json(exc) from None
    if not seekable:
        stream = io.BytesIO(stream.read())
    stream.seek(0)
    _check_nesting(stream)
    return StreamSource(stream)


class _PathSource(StreamSource):
    """A file on disk, opened for each pass."""

    def __init__(self, path: os.PathLike):
        self._path = path
        with open(path, "rb") as stream:
            _check_nesting(stream)
            super().__init__(stream)

    def sessions(self) -> Iterator[Any]:
        with open(self._path, "rb") as stream:
            self._stream = stream
            yield from super().sessions()
